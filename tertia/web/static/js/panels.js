// The panels beside the table, one per panel the rule set declares (vocabulary
// "panels"), each composed of a few generic parts and knowing no panel by its name:
//
// - sections: what the server says the panel shows (view "panels": titled lists of
//   items as small cards, lines, a list, or dice with what they did);
// - what the panel's action kind is made with (its interaction, from the vocabulary):
//   a button for each offer ("button"), cards put in order ("arrange"), a form of fields
//   whose piece is picked and whose place is clicked on the table ("place"), or actions
//   planned and then made together ("gather").
//
// The panel whose kind makes an action shows that kind's offers itself, so they are not
// repeated among the prompt's buttons. Each panel has a ``node`` and ``render(view, table)``.

import { api } from "./api.js";
import { clear, h, sideColour, toast } from "./ui.js";
import { fill } from "./vocab.js";

// --- sections --------------------------------------------------------------------------------

function itemNode(item, style, screen, table) {
  const side = item.side ? `--side:${sideColour(table, item.side)}` : null;
  const struck = item.state === "played" || item.state === "gone";
  const text = struck && item.text ? h("s", {}, item.text) : item.text;
  const pick = item.unit ? () => screen.select(item.unit) : null;
  const attrs = { class: `item ${item.state || ""}`, title: item.title || null, "data-card": item.id || null,
    "data-unit": item.unit || null };
  switch (style) {
    case "cards":
      return h("span", { ...attrs, class: `mini-card ${item.state || ""}`, style: side }, item.state === "back" ? null : text);
    case "dice":
      return h("li", { ...attrs, class: item.state || "", "data-test": "deck-response" },
        h("span", { class: "die", title: item.title || null }, item.face || "–"), h("span", {}, item.text));
    case "ordered":
      return h("li", { ...attrs, class: `cmd-card ${item.state || ""}`, "aria-label": `${item.text}: ${item.note || ""}` },
        h("span", { class: "pos" }, ""), h("span", { class: "face" }, struck ? text : h("b", {}, text),
          h("small", { class: "muted" }, item.note || "")));
    case "lines":
      return h("p", { ...attrs, class: `line ${item.state || ""}`, style: side, onclick: pick },
        item.side ? h("span", { class: "swatch" }) : null, text);
    default:
      return h("li", { ...attrs, style: side, onclick: pick }, text,
        item.note ? h("small", { class: "muted item-note" }, ` — ${item.note}`) : null);
  }
}

function sectionNode(sec, screen, table, onItem) {
  const side = sec.side ? `--side:${sideColour(table, sec.side)}` : null;
  const items = sec.items.map((it) => {
    const node = itemNode(it, sec.style, screen, table);
    if (onItem && it.target) {
      const button = h("button", { class: "btn", onclick: () => onItem(it) }, it.text);
      return sec.style === "lines" ? button : h("li", {}, button);
    }
    return node;
  });
  const body = {
    cards: () => h("div", { class: "card-row", "data-test": sec.key, style: side }, items),
    dice: () => h("ul", { class: "responses", "data-test": sec.key }, items),
    ordered: () => h("ol", { class: "card-list laid", "data-test": sec.key }, items),
    lines: () => h("div", { class: "lines", "data-test": sec.key }, items),
    list: () => h("ul", { class: "drawn-list", "data-test": sec.key }, items),
  }[sec.style] || (() => h("ul", { "data-test": sec.key }, items));
  if (sec.open === false) {
    return h("details", { class: "deck-left", "data-test": sec.key, style: side },
      h("summary", {}, sec.title || ""), h("ul", {}, sec.items.map((it) => h("li", {}, it.text))));
  }
  return [sec.title ? h("h4", { style: side }, sec.title) : null, sec.note ? h("p", { class: "muted" }, sec.note) : null, body()];
}

// --- the parts an action kind is made with -----------------------------------------------------

// A button for each offer of the kind among the prompt's choices.
class OfferButtons {
  constructor(panel) { this.panel = panel; }

  nodes(view) {
    const offers = (view.choices || []).filter((c) => c.action.type === this.panel.spec.action);
    if (!offers.length) return [];
    return [h("div", { class: "choices" }, offers.map((c) =>
      h("button", { class: "btn", "data-test": c.action.type.replace(/_/g, "-"), onclick: () => this.panel.screen.act(c.action) }, c.label)))];
  }
}

// Cards put in order (a field holding an order of cards): arranged by dragging, with the
// arrows, or with Alt+Arrow keys on a focused card; the order is checked by the server
// (/validate) and laid with the offered action, its field filled with the order made.
class OrderedCards {
  constructor(panel) {
    this.panel = panel;
    const kind = panel.kind;
    this.field = kind ? kind.fields.find((f) => f.kind === "card-order") : null;
    this.draft = null;
    this.dragging = null;
    this.busy = false;
    this.live = h("p", { class: "sr-only", "aria-live": "polite" });
  }

  nodes(view) {
    const offer = this.field && (view.choices || []).find((c) => c.action.type === this.panel.spec.action);
    if (!offer) return [];
    this.view = view;
    const order = offer.action[this.field.name] || [];
    const key = `${view.status.turn}:${order.join(",")}`;
    if (!this.draft || this.draft.key !== key) this.draft = { key, cards: [...order] };
    const list = h("ol", { class: "card-list ordering", "data-test": "card-order", "aria-label": `${this.field.label}, first first` });
    this.draft.cards.forEach((card, i) => list.append(this.item(card, i)));
    return [h("p", { class: "muted" },
      "Put them in order, first first: drag them, use the arrows, or focus one and press Alt+↑ / Alt+↓. ",
      this.panel.spec.help || ""), list,
    h("div", { class: "odds-actions" },
      h("button", { class: "btn primary", "data-test": "lay-cards", disabled: this.busy, onclick: () => this.lay(offer) }, offer.label)),
    this.live];
  }

  words(card) { return this.panel.label(card); }

  item(card, i) {
    const n = this.draft.cards.length;
    const label = this.words(card);
    const node = h("li", {
      class: "cmd-card", tabindex: "0", draggable: "true", "data-card": card,
      "aria-label": `${label.text}, position ${i + 1} of ${n}`, title: label.title || null,
      ondragstart: (e) => { this.dragging = card; e.dataTransfer.effectAllowed = "move"; e.dataTransfer.setData("text/plain", card); node.classList.add("dragging"); },
      ondragend: () => { this.dragging = null; node.classList.remove("dragging"); },
      ondragover: (e) => { if (this.dragging) { e.preventDefault(); node.classList.add("drop-here"); } },
      ondragleave: () => node.classList.remove("drop-here"),
      ondrop: (e) => { e.preventDefault(); this.place(this.dragging || e.dataTransfer.getData("text/plain"), i); },
      onkeydown: (e) => {
        if (!e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
        e.preventDefault();
        this.shift(card, e.key === "ArrowUp" ? -1 : 1);
      },
    },
    h("span", { class: "pos" }, String(i + 1)),
    h("span", { class: "face" }, h("b", {}, label.text), h("small", { class: "muted" }, label.note || "")),
    h("span", { class: "moves" },
      h("button", { class: "icon-btn", "data-test": `up-${card}`, "aria-label": `Move ${label.text} up`, disabled: i === 0,
        onclick: () => this.shift(card, -1) }, "↑"),
      h("button", { class: "icon-btn", "data-test": `down-${card}`, "aria-label": `Move ${label.text} down`, disabled: i === n - 1,
        onclick: () => this.shift(card, 1) }, "↓")));
    return node;
  }

  shift(card, by) { this.place(card, this.draft.cards.indexOf(card) + by); }

  place(card, to) {
    const cards = this.draft.cards;
    const from = cards.indexOf(card);
    if (from < 0 || to < 0 || to >= cards.length || from === to) return;
    cards.splice(from, 1);
    cards.splice(to, 0, card);
    this.panel.render(this.view, this.panel.table);
    const moved = this.panel.node.querySelector(`.cmd-card[data-card="${CSS.escape(card)}"]`);
    if (moved) moved.focus();
    this.live.textContent = `${this.words(card).text} is now ${to + 1} of ${cards.length}.`;
  }

  async lay(offer) {
    if (this.busy) return;
    const action = { ...offer.action, [this.field.name]: [...this.draft.cards] };
    const screen = this.panel.screen;
    this.busy = true;
    try {
      const verdict = await api.validate(screen.gameId, screen.token(), action);
      if (!verdict.legal) {
        toast(verdict.violations.map((v) => v.message).join("; "), "error", 6000);
        return;
      }
      await screen.act(action);
    } catch (err) {
      toast(err.message, "error");
    } finally {
      this.busy = false;
    }
  }
}

// A form of fields for a piece placed on the table: the piece (one the pending decision
// lists, or any of the side's own when it lists none) picked from a list or clicked on the
// table, then a click where it should stand fills the kind's coordinates.
class PlaceForm {
  constructor(panel) {
    this.panel = panel;
    const fields = panel.kind ? panel.kind.fields : [];
    this.piece = fields.find((f) => f.from_pending) || fields.find((f) => f.kind === "own-unit") || null;
    this.deploying = null;
  }

  // The decision this panel answers is pending for us now.
  active(view) {
    const s = view.status;
    const decision = this.panel.screen.vocab.pending(s);
    return Boolean(s.your_turn && decision && decision.panel === this.panel.spec.name && this.piece);
  }

  waiting(view) {
    if (this.piece.from_pending) return view.status.pending[this.piece.from_pending] || [];
    return view.state.units.filter((u) => u.side === view.side && !u.removed).map((u) => u.id);
  }

  nodes(view) {
    if (!this.active(view)) return [];
    const waiting = this.waiting(view);
    if (!waiting.includes(this.deploying)) this.deploying = waiting[0] || null;
    const names = (id) => this.panel.screen.names(id);
    if (!this.deploying) return [];
    return [
      h("p", { "data-test": "deploy-prompt" }, `Click the table where ${names(this.deploying)} should stand.`),
      h("label", { class: "field" }, this.piece.label,
        h("select", { "data-test": "deploy-unit", onchange: (e) => { this.deploying = e.target.value; this.panel.render(view, this.panel.table); } },
          waiting.map((id) => h("option", { value: id, selected: id === this.deploying }, names(id))))),
    ];
  }

  choose(view, id) {
    if (!this.active(view) || this.piece.from_pending || !this.waiting(view).includes(id)) return false;
    this.deploying = id;
    this.panel.render(view, this.panel.table);
    return true;
  }

  actionAt(view, x, y) {
    if (!this.active(view) || !this.deploying) return null;
    const round = (v) => Math.round(v * 100) / 100;
    const kind = this.panel.kind;
    const action = { type: kind.type };
    for (const f of kind.fields) {
      if (f === this.piece) action[f.name] = this.deploying;
      else if (f.kind === "coordinate") action[f.name] = round(f.name === "y" ? y : x);
    }
    return action;
  }
}

// Actions planned to be made together (the kind's field holding a list of actions): the
// plan as it grows, and the button that makes them all.
class Plan {
  constructor(panel) {
    this.panel = panel;
    this.list = panel.kind ? panel.kind.fields.find((f) => f.kind === "actions") : null;
  }

  nodes() {
    const screen = this.panel.screen;
    if (!this.list || !screen.plan.length) return [];
    const names = (id) => screen.names(id);
    const item = screen.vocab.kind(this.list.item);
    const describe = (a) => screen.vocab.describe(item, a, names);
    const n = screen.plan.length;
    return [h("div", { class: "plan", "data-test": "plan" },
      h("div", { class: "control-title" }, this.panel.spec.label),
      h("ol", {}, screen.plan.map((a) => h("li", {}, describe(a)))),
      h("div", { class: "odds-actions" },
        h("button", { class: "btn primary", "data-test": "declare-attacks",
          onclick: () => screen.act({ type: this.panel.kind.type, [this.list.name]: screen.plan }) }, this.words(n)),
        h("button", { class: "btn", onclick: () => screen.clearPlan() }, "Clear")))];
  }

  // The gathering kind's phrase for n planned actions ("Declare 2 attacks").
  words(n) {
    const kind = this.panel.kind;
    const count = `${n} ${this.list.item.replace(/_/g, " ")}${n === 1 ? "" : "s"}`;
    const text = fill(kind.phrase, (path) => (path === this.list.name ? count : null));
    return text === null ? kind.label : text.charAt(0).toUpperCase() + text.slice(1);
  }
}

const PARTS = { button: OfferButtons, arrange: OrderedCards, place: PlaceForm, gather: Plan };

// --- a panel ---------------------------------------------------------------------------------

class Panel {
  constructor(screen, spec) {
    this.screen = screen;
    this.spec = spec;
    this.name = spec.name;
    this.kind = spec.action ? screen.vocab.kind(spec.action) : null;
    const Part = this.kind ? PARTS[this.kind.interaction] : null;
    this.part = Part ? new Part(this) : null;
    this.node = h("section", { class: `card panel panel-${spec.name}`, "aria-label": spec.label, "data-test": `panel-${spec.name}`, hidden: true });
  }

  // The server's view of this panel (its sections and labels).
  data(view) { return (view.panels || []).find((p) => p.name === this.spec.name) || { sections: [], labels: {} }; }

  label(value) {
    const found = (this.lastData && this.lastData.labels && this.lastData.labels[value]) || null;
    return found || { text: String(value).charAt(0).toUpperCase() + String(value).slice(1).replace(/_/g, " ") };
  }

  render(view, table) {
    this.table = table;
    this.lastData = this.data(view);
    clear(this.node);
    const made = this.part ? this.part.nodes(view) : [];
    const onItem = (it) => this.screen.fightItem(this.kind, it);
    const sections = this.lastData.sections.flatMap((sec) => sectionNode(sec, this.screen, table, this.part instanceof Plan ? onItem : null));
    this.node.hidden = !made.length && !sections.length;
    if (this.node.hidden) return;
    this.node.append(h("h3", { title: this.spec.help }, this.spec.label), ...made, ...sections.filter(Boolean));
  }

  // For the table's clicks: a place form's piece and place.
  get actionAt() { return this.part instanceof PlaceForm ? (view, x, y) => this.part.actionAt(view, x, y) : null; }

  get choose() { return this.part instanceof PlaceForm ? (view, id) => this.part.choose(view, id) : null; }

  // The actions planned with this panel's kind (a plan), none for other panels.
  get gathers() { return this.part instanceof Plan; }

  // Items the server lists with a target: actions to make one by one (declared together).
  declared(view) { return this.data(view).sections.flatMap((s) => s.items.filter((it) => it.target)); }
}

// The panels the rule set declares, in its order.
export function buildPanels(screen) {
  return screen.vocab.panels.map((spec) => new Panel(screen, spec));
}
