// The first screen: start a new battle, or resume one this browser holds a token for.

import { api } from "./api.js";
import { forget, remember, savedGames, tokensFor } from "./tokens.js";
import { briefingParagraphs, clear, h, modeWords, openDialog, phaseTitle, setTopbar, toast } from "./ui.js";

const MODES = [
  ["ai", "Against the AI", "You command one side; the AI the other."],
  ["hotseat", "Hotseat", "Two players take turns on this screen."],
  ["link", "Two players, two links", "Each side gets a secret link to play from anywhere."],
  ["watch", "AI against AI", "Watch the AI fight both sides."],
];

export class HomeScreen {
  constructor(root) { this.root = root; }

  destroy() {}

  async start() {
    setTopbar(h("span", { class: "game-title" }, "English Civil War battles on a free-movement table"),
      h("div", { class: "tools" }, h("a", { class: "btn", href: "/docs", target: "_blank" }, "API")));
    let catalogue;
    try {
      catalogue = await api.catalogue();
    } catch (err) {
      this.root.replaceChildren(h("div", { class: "notice" }, h("h2", {}, "The server is not answering"), h("p", {}, err.message)));
      return;
    }
    this.catalogue = catalogue;
    this.form = h("form", { class: "card new-game", onsubmit: (e) => { e.preventDefault(); this.create(); } });
    this.list = h("section", { class: "card saved-games", "aria-label": "Your battles" });
    this.root.replaceChildren(h("div", { class: "home" },
      h("div", { class: "hero" }, h("h1", {}, "Take the field"),
        h("p", {}, "Fight a battle of the English Civil War with every rule enforced, the exact odds before each roll, and every die in the log.")),
      h("div", { class: "home-grid" }, this.form, this.list)));
    this.renderForm();
    this.renderList();
  }

  renderForm() {
    const c = this.catalogue;
    const form = clear(this.form);
    form.append(h("h2", {}, "New battle"));
    const scenario = h("select", { name: "scenario", id: "scenario", onchange: () => this.renderRules() },
      c.scenarios.map((s) => h("option", { value: s.name }, `${s.title}`)));
    this.rulesSelect = h("select", { name: "rules", id: "rules", onchange: () => { this.renderOptions(); this.renderBriefing(); } });
    // The battle's story and how it is drawn up under the rule set chosen (catalogue
    // "description", "notes_by_rules").
    this.briefing = h("details", { class: "briefing", "data-test": "briefing" });
    this.optionsBox = h("details", { class: "options" });
    this.sideSelect = h("select", { name: "side", id: "side" });
    const seed = h("input", { type: "number", name: "seed", id: "seed", min: 0, placeholder: "random" });
    const modes = h("div", { class: "modes", role: "radiogroup" }, MODES.map(([value, title, help], i) =>
      h("label", { class: "mode-card" },
        h("input", { type: "radio", name: "mode", value, checked: i === 0, onchange: () => this.renderSide() }),
        h("span", { class: "mode-title" }, title), h("span", { class: "mode-help" }, help))));
    this.sideRow = h("label", { class: "field" }, "Your side", this.sideSelect);
    // The player the server plays its sides with, offered by name (GET /api/catalogue).
    const players = c.players || [];
    this.opponentRow = h("label", { class: "field" }, "Opponent",
      h("select", { name: "opponent", id: "opponent", "data-test": "opponent" },
        players.map((p) => h("option", { value: p.name, selected: p.default, title: p.title }, `${p.name} — ${p.title}`))));
    form.append(
      h("label", { class: "field" }, "Scenario", scenario),
      h("label", { class: "field" }, "Rule set", this.rulesSelect),
      this.briefing,
      this.optionsBox,
      h("div", { class: "field" }, "How to play", modes),
      this.sideRow,
      this.opponentRow,
      this.seedRow = h("label", { class: "field" }, "Dice seed", seed),
      h("button", { class: "btn primary big", type: "submit", "data-test": "create" }, "Take the field"));
    this.renderRules();
  }

  renderRules() {
    const name = this.form.scenario.value;
    const s = this.catalogue.scenarios.find((x) => x.name === name);
    clear(this.rulesSelect).append(...this.catalogue.rules.filter((r) => !s || s.rules.includes(r.id))
      .map((r) => h("option", { value: r.id }, r.title)));
    // Each side by the scenario's name for it, as the table names it; its value the side's id.
    const names = (s && s.side_names) || {};
    clear(this.sideSelect).append(...(s ? s.sides : []).map((id) => h("option", { value: id }, names[id] || id)));
    this.renderOptions();
    this.renderBriefing();
    this.renderSide();
  }

  renderBriefing() {
    const s = this.catalogue.scenarios.find((x) => x.name === this.form.scenario.value);
    const notes = s && s.notes_by_rules ? s.notes_by_rules[this.rulesSelect.value] : "";
    this.briefing.hidden = !s || (!s.description && !notes);
    clear(this.briefing).append(h("summary", {}, "The battle"), ...briefingParagraphs(s ? s.description : "", notes));
  }

  renderSide() {
    const mode = this.form.mode.value;
    this.sideRow.hidden = mode !== "ai";
    this.opponentRow.hidden = mode !== "ai" && mode !== "watch";
    // Two players' links draw a secret seed of their own: neither player may choose it.
    this.seedRow.hidden = mode === "link";
  }

  renderOptions() {
    const r = this.catalogue.rules.find((x) => x.id === this.rulesSelect.value);
    const box = clear(this.optionsBox);
    box.append(h("summary", {}, `Rule options (${r ? r.options.length : 0})`));
    for (const o of r ? r.options : []) {
      let input;
      if (typeof o.default === "boolean") {
        input = h("input", { type: "checkbox", name: `opt-${o.name}`, checked: o.default });
      } else if (o.choices) {
        input = h("select", { name: `opt-${o.name}` }, o.choices.map((v) => h("option", { value: v, selected: v === o.default }, String(v).replace(/[-_]/g, " "))));
      } else {
        input = h("input", { type: "number", name: `opt-${o.name}`, value: o.default, min: o.low ?? undefined, max: o.high ?? undefined,
          step: Number.isInteger(o.default) ? 1 : "any" });
      }
      input.dataset.option = o.name;
      input.dataset.kind = typeof o.default;
      box.append(h("label", { class: "option", title: o.help }, h("span", {}, o.name.replace(/_/g, " ")), input, h("small", {}, o.help)));
    }
  }

  async create() {
    const form = this.form;
    const options = {};
    for (const input of form.querySelectorAll("[data-option]")) {
      const name = input.dataset.option;
      if (input.dataset.kind === "boolean") options[name] = input.checked;
      else if (input.dataset.kind === "number") options[name] = Number(input.value);
      else options[name] = input.value;
    }
    const body = { scenario: form.scenario.value, rules: form.rules.value, options, mode: form.mode.value };
    if (form.seed.value !== "" && !this.seedRow.hidden) body.seed = Number(form.seed.value);
    if (body.mode === "ai") body.side = form.side.value;
    if (body.mode === "ai" || body.mode === "watch") body.opponent = form.opponent.value;
    let created;
    try {
      created = await api.create(body);
    } catch (err) {
      toast(err.message, "error", 6000);
      return;
    }
    const scenario = this.catalogue.scenarios.find((s) => s.name === body.scenario) || {};
    const title = scenario.title;
    if (body.mode === "link") {
      this.showLinks(created, title, scenario.side_names || {}, body.rules);
      return;
    }
    remember(created.id, created.tokens, { title, mode: body.mode });
    location.hash = `#/play/${created.id}`;
  }

  showLinks(created, title, sideNames, rules) {
    // Both links stay retrievable from "Your battles" (the Links button) until a side is
    // picked here, and afterwards too: the page keeps them, never the other side's token.
    const links = Object.fromEntries(Object.entries(created.links).map(([side, link]) => [side, absolute(link)]));
    remember(created.id, {}, { title, mode: "link", links, sideNames, rules });
    this.renderList();
    showLinkDialog(created.id, links, sideNames, (side) => {
      remember(created.id, { [side]: created.tokens[side] }, { title, mode: "link", links, sideNames, rules });
      location.hash = `#/play/${created.id}`;
    });
  }

  gameWords(s) {
    return [this.rulesTitle(s.game.rules), modeWords(s.game), stateWords(s)].filter(Boolean).join(" · ");
  }

  // A rule set's title, or nothing for a game kept before its rule set was (or one unknown).
  rulesTitle(id) {
    const rules = this.catalogue.rules.find((r) => r.id === id);
    return rules ? rules.title : null;
  }

  async renderList() {
    const list = clear(this.list);
    list.append(h("h2", {}, "Your battles"));
    const games = savedGames();
    if (!games.length) {
      list.append(h("p", { class: "muted" }, "Battles you start or join from a link appear here, to resume at any time."));
      return;
    }
    const ul = h("ul", { class: "games" });
    list.append(ul);
    for (const g of games) {
      const item = h("li", { class: "game-item" }, h("div", { class: "game-info" }, h("b", {}, g.title || g.id), h("span", { class: "muted" }, " loading…")));
      ul.append(item);
      const token = Object.values(g.tokens || {})[0];
      if (!token) {  // a link game whose creator has not picked a side yet
        const words = [this.rulesTitle(g.rules), "two links, no side picked yet"].filter(Boolean).join(" · ");
        item.replaceChildren(h("div", { class: "game-info" }, h("b", {}, g.title || g.id), h("span", { class: "muted", "data-test": "game-state" }, ` · ${words}`)),
          h("div", { class: "game-buttons" },
            g.links ? h("button", { class: "btn primary", type: "button", onclick: () => showLinkDialog(g.id, g.links, g.sideNames, (side) => { location.href = g.links[side]; }) }, "Links") : null,
            h("button", { class: "btn", onclick: () => { forget(g.id); this.renderList(); } }, "Forget")));
        continue;
      }
      api.summary(g.id, token).then((s) => {
        item.replaceChildren(
          h("div", { class: "game-info" }, h("b", {}, s.game.title),
            h("span", { class: "muted", "data-test": "game-state" }, ` · ${this.gameWords(s)}`)),
          h("div", { class: "game-buttons" },
            h("a", { class: "btn primary", href: `#/play/${g.id}` }, s.status.over ? "View" : "Resume"),
            h("a", { class: "btn", href: `#/replay/${g.id}` }, "Replay"),
            g.links ? h("button", { class: "btn", type: "button", onclick: () => showLinkDialog(g.id, g.links, g.sideNames) }, "Links") : null));
      }).catch((err) => {
        item.replaceChildren(h("div", { class: "game-info" }, h("b", {}, g.title || g.id), h("span", { class: "muted" }, ` · ${err.message}`)),
          h("div", { class: "game-buttons" }, h("button", { class: "btn", onclick: () => { forget(g.id); this.renderList(); } }, "Forget")));
      });
    }
  }
}


// A game's summary in words: its rule set, how it is played, and how it stands.
function stateWords(s) {
  const st = s.status;
  if (st.over) {
    const winner = st.result && st.result.winner;
    const side = (s.game.sides || []).find((x) => x.id === winner);
    return winner ? `won by ${side ? side.name : winner}` : "drawn";
  }
  const when = typeof st.turn === "number" && st.turn < 1 ? "deploying" : `turn ${st.turn}, ${phaseTitle(st.phase).toLowerCase()}`;
  return `${when}${st.your_turn ? " — your move" : ""}`;
}

// A page address for a link the server gives ("/#/play/<id>?token=..."): one slash, not two.
function absolute(link) {
  return new URL(link, location.origin + location.pathname).href;
}

// The two secret links of a game, to copy or to play from; closed with its button or Escape.
// Each side's link under the scenario's name for the side (its id in words for a game
// kept before the names were).
function showLinkDialog(gameId, links, sideNames, onPlay = null) {
  const close = () => dialog.remove();
  const named = (side) => (sideNames && sideNames[side]) || side.replace(/_/g, " ");
  const held = tokensFor(gameId);
  const dialog = h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-label": "Two secret links", "data-test": "links" },
    h("div", { class: "modal-card" }, h("h2", {}, "Two secret links"),
      h("p", {}, "Each link carries one side's token. Keep one, send the other to your opponent. Anyone with a link can play that side."),
      Object.entries(links).map(([side, link]) => h("div", { class: "link-row" },
        h("b", {}, named(side)),
        h("input", { class: "link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
        h("button", { class: "btn", type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Link copied")) }, "Copy"),
        onPlay && !Object.keys(held).length ? h("button", { class: "btn primary", type: "button", onclick: () => { close(); onPlay(side); } },
          `Play as ${named(side)}`) : null)),
      h("div", { class: "modal-buttons" }, h("button", { class: "btn", type: "button", "data-test": "close-links", onclick: close }, "Close"))));
  openDialog(dialog, close);
}
