// The command-card panel (rule sets with secret card orders, such as d3-commands).
//
// While the game awaits this side's order: its own cards, to arrange by dragging, with
// the up and down buttons, or with Alt+Arrow keys on a focused card; the order is checked
// by the server (/validate) and laid with the order action the server offered (the
// panel's action, as the rule set's vocabulary declares it). Afterwards:
// the side's own order with the played cards struck through, the other side's cards as
// face-down backs (their number only: the server never sends their order), and the
// command now active. Everything shown comes from the view's "cards" block.

import { api } from "./api.js";
import { clear, h, sideColour, sideName, toast } from "./ui.js";

const CARD_NAMES = { centre: "Centre", right: "Right flank", left: "Left flank", reserve: "Reserve", independent: "Independent" };

export function cardName(card) {
  return CARD_NAMES[card] || String(card).charAt(0).toUpperCase() + String(card).slice(1).replace(/_/g, " ");
}

export class CardPanel {
  // ``action``: the action type that lays an order (the panel's, from the vocabulary).
  constructor({ gameId, token, onLaid, action }) {
    this.gameId = gameId;
    this.action = action;
    this.token = token;
    this.onLaid = onLaid;
    this.node = h("section", { class: "card cards-panel", "aria-label": "Command cards", "data-test": "cards", hidden: true });
    this.live = h("p", { class: "sr-only", "aria-live": "polite" });
    this.draft = null; // the order being arranged: { key, cards }
    this.dragging = null;
    this.busy = false;
  }

  // view: the whole /view answer; table: the /table answer.
  render(view, table) {
    const cards = view.cards;
    clear(this.node);
    this.node.hidden = !cards;
    if (!cards) return;
    this.view = view;
    this.table = table;
    const offer = (view.choices || []).find((c) => c.action.type === this.action);
    this.node.append(h("h3", {}, "Command cards"));
    if (offer) {
      this.renderOrdering(offer, cards);
    } else {
      this.renderOwn(cards);
    }
    this.renderOthers(cards);
    this.renderActive(cards);
    this.node.append(this.live);
  }

  // --- arranging the order -----------------------------------------------------------------

  renderOrdering(offer, cards) {
    const s = this.view.status;
    const key = `${this.gameId}:${s.turn}:${offer.action.order.join(",")}`;
    if (!this.draft || this.draft.key !== key) this.draft = { key, cards: [...offer.action.order] };
    const own = cards.sides[cards.viewer] || {};
    this.node.append(h("p", { class: "muted" },
      "Put your cards in the order you will turn them over, top first: drag them, use the arrows, ",
      "or focus a card and press Alt+↑ / Alt+↓. The other side never sees this order."));
    const list = h("ol", { class: "card-list ordering", "data-test": "card-order", "aria-label": "Your command cards, top first" });
    this.draft.cards.forEach((card, i) => list.append(this.orderItem(card, i, own.units || {})));
    this.node.append(list, h("div", { class: "odds-actions" },
      h("button", { class: "btn primary", "data-test": "lay-cards", disabled: this.busy, onclick: () => this.lay(offer) },
        "Lay the cards face down")));
  }

  orderItem(card, i, units) {
    const n = this.draft.cards.length;
    const names = units[card] || [];
    const item = h("li", {
      class: "cmd-card", tabindex: "0", draggable: "true", "data-card": card,
      "aria-label": `${cardName(card)}, position ${i + 1} of ${n}`,
      title: names.join("\n"),
      ondragstart: (e) => { this.dragging = card; e.dataTransfer.effectAllowed = "move"; e.dataTransfer.setData("text/plain", card); item.classList.add("dragging"); },
      ondragend: () => { this.dragging = null; item.classList.remove("dragging"); },
      ondragover: (e) => { if (this.dragging) { e.preventDefault(); item.classList.add("drop-here"); } },
      ondragleave: () => item.classList.remove("drop-here"),
      ondrop: (e) => { e.preventDefault(); const from = this.dragging || e.dataTransfer.getData("text/plain"); this.place(from, i); },
      onkeydown: (e) => {
        if (!e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
        e.preventDefault();
        this.shift(card, e.key === "ArrowUp" ? -1 : 1);
      },
    },
    h("span", { class: "pos" }, String(i + 1)),
    h("span", { class: "face" }, h("b", {}, cardName(card)),
      h("small", { class: "muted" }, names.length ? `${names.length} unit${names.length === 1 ? "" : "s"}` : "")),
    h("span", { class: "moves" },
      h("button", { class: "icon-btn", "data-test": `up-${card}`, "aria-label": `Move ${cardName(card)} up`, disabled: i === 0,
        onclick: () => this.shift(card, -1) }, "↑"),
      h("button", { class: "icon-btn", "data-test": `down-${card}`, "aria-label": `Move ${cardName(card)} down`, disabled: i === n - 1,
        onclick: () => this.shift(card, 1) }, "↓")));
    return item;
  }

  shift(card, by) {
    const i = this.draft.cards.indexOf(card);
    this.place(card, i + by);
  }

  place(card, to) {
    const cards = this.draft.cards;
    const from = cards.indexOf(card);
    if (from < 0 || to < 0 || to >= cards.length || from === to) return;
    cards.splice(from, 1);
    cards.splice(to, 0, card);
    this.render(this.view, this.table);
    const moved = this.node.querySelector(`.cmd-card[data-card="${card}"]`);
    if (moved) moved.focus();
    this.live.textContent = `${cardName(card)} is now card ${to + 1} of ${cards.length}.`;
  }

  async lay(offer) {
    if (this.busy) return;
    const action = { ...offer.action, order: [...this.draft.cards] };
    this.busy = true;
    try {
      const verdict = await api.validate(this.gameId, this.token(), action);
      if (!verdict.legal) {
        toast(verdict.violations.map((v) => v.message).join("; "), "error", 6000);
        return;
      }
      await this.onLaid(action);
    } catch (err) {
      toast(err.message, "error");
    } finally {
      this.busy = false;
    }
  }

  // --- the orders laid ---------------------------------------------------------------------

  renderOwn(cards) {
    const own = cards.sides[cards.viewer];
    if (!own) return;
    const t = this.table;
    const head = h("h4", { style: `--side:${sideColour(t, cards.viewer)}` }, `${sideName(t, cards.viewer)} (you)`);
    if (!own.order) {
      this.node.append(head, h("p", { class: "muted" }, own.shuffled ? "Your cards are shuffled: each is drawn at random." : "Your cards are not laid yet."));
      return;
    }
    const played = new Set(own.played);
    const held = new Set(own.held);
    const active = cards.active && cards.active.side === cards.viewer ? cards.active.card : null;
    const list = h("ol", { class: "card-list laid", "data-test": "own-order", "aria-label": "Your order, top first" });
    own.order.forEach((card, i) => {
      const gone = !held.has(card);
      const state = card === active ? "active" : played.has(card) ? "played" : gone ? "gone" : "waiting";
      const words = { active: "in play", played: "played", gone: "command lost", waiting: "face down" }[state];
      const face = state === "played" || state === "gone" ? h("s", {}, cardName(card)) : h("b", {}, cardName(card));
      list.append(h("li", { class: `cmd-card ${state}`, "data-card": card, "aria-label": `${i + 1}. ${cardName(card)}: ${words}` },
        h("span", { class: "pos" }, String(i + 1)), h("span", { class: "face" }, face, h("small", { class: "muted" }, words))));
    });
    this.node.append(head, list);
  }

  renderOthers(cards) {
    const t = this.table;
    for (const [side, entry] of Object.entries(cards.sides)) {
      if (side === cards.viewer) continue;
      const active = cards.active && cards.active.side === side ? cards.active.card : null;
      const row = h("div", { class: "card-row", "data-test": "other-cards", "aria-label": `${sideName(t, side)}: ${entry.left} cards face down` });
      for (const card of entry.played) {
        row.append(h("span", { class: `mini-card ${card === active ? "active" : "played"}`, title: card === active ? "in play" : "played" },
          card === active ? cardName(card) : h("s", {}, cardName(card))));
      }
      for (let i = 0; i < entry.left; i++) row.append(h("span", { class: "mini-card back", title: "face down" }));
      const note = entry.shuffled ? "shuffled" : entry.ordered ? `${entry.left} face down` : "not laid yet";
      this.node.append(h("h4", { style: `--side:${sideColour(t, side)}` }, sideName(t, side), h("small", { class: "muted" }, ` · ${note}`)), row);
    }
  }

  renderActive(cards) {
    if (!cards.active) return;
    const t = this.table;
    const mine = cards.active.side === cards.viewer;
    this.node.append(h("p", { class: "active-command", "data-test": "active-command", style: `--side:${sideColour(t, cards.active.side)}` },
      h("span", { class: "swatch" }),
      `Active: ${mine ? "your" : `${sideName(t, cards.active.side)}'s`} ${cardName(cards.active.card).toLowerCase()} command`));
  }
}
