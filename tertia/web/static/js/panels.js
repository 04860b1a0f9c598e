// The panels beside the table, one per panel the rule set declares (vocabulary
// "panels"): orders, command cards, the deck, deployment and the attack plan. Each has a
// ``node`` and ``render(view, table)``; the panel that makes an action kind (``action``)
// shows that kind's offers itself, so they are not repeated among the prompt's buttons.

import { CardPanel, cardName } from "./cards.js";
import { clear, h, sideColour, sideName } from "./ui.js";
import { fill } from "./vocab.js";

class Panel {
  constructor(screen, spec) {
    this.screen = screen;
    this.spec = spec;
    this.node = h("section", { class: `card panel panel-${spec.name}`, "aria-label": spec.label, "data-test": `panel-${spec.name}`, hidden: true });
  }

  head() { return h("h3", { title: this.spec.help }, this.spec.label); }
}

// Orders (larger-battles): how many are left this player turn, and the orders offered.
class OrdersPanel extends Panel {
  render(view) {
    const s = view.status;
    const kind = this.screen.vocab.kind(this.spec.action);
    const offers = (view.choices || []).filter((c) => c.action.type === this.spec.action);
    const left = s.summary ? s.summary.orders_left : undefined;
    const now = kind && (!kind.phases.length || kind.phases.includes(s.phase)); // orders may be given now
    clear(this.node);
    this.node.hidden = !(s.your_turn && !s.pending && (offers.length || (now && left !== undefined)));
    if (this.node.hidden) return;
    this.node.append(this.head());
    if (left !== undefined) this.node.append(h("p", { class: "muted", "data-test": "orders-left" }, `${left} order${left === 1 ? "" : "s"} left this player turn.`));
    if (offers.length) {
      this.node.append(h("div", { class: "choices" }, offers.map((c) =>
        h("button", { class: "btn", "data-test": c.action.type.replace(/_/g, "-"), onclick: () => this.screen.act(c.action) }, c.label))));
    }
  }
}

// The deck of activation cards: the cards still to draw, those drawn, the one in play.
// A deck of a few unit-type cards (d3-cards) shows every card; a deck with a card for
// each piece shows the card drawn, the last few before it, and each side's cards to come
// in a list that opens on demand.
const RECENT = 6;

class DeckPanel extends Panel {
  render(view, table) {
    const deck = view.deck;
    clear(this.node);
    this.node.hidden = !deck;
    if (!deck) return;
    if (deck.pieces) { this.renderPieces(deck, table); return; }
    const active = deck.active;
    this.node.append(this.head(), h("p", { class: "muted", "data-test": "deck-count" },
      `${deck.count} card${deck.count === 1 ? "" : "s"} left to draw this turn.`));
    for (const [side, cards] of Object.entries(deck.left)) {
      this.node.append(h("h4", { style: `--side:${sideColour(table, side)}` }, sideName(table, side),
        h("small", { class: "muted" }, ` · ${cards.length} to draw`)),
      h("div", { class: "card-row", "data-test": `deck-left-${side}`, style: `--side:${sideColour(table, side)}` },
        cards.map((card) => h("span", { class: "mini-card", "data-card": card }, cardName(card)))));
    }
    if (deck.drawn.length) {
      this.node.append(h("h4", {}, "Drawn this turn"), h("div", { class: "card-row", "data-test": "deck-drawn" },
        deck.drawn.map((d) => {
          const now = active && active.side === d.side && active.card === d.card;
          return h("span", { class: `mini-card ${now ? "active" : "played"}`, style: `--side:${sideColour(table, d.side)}`,
            title: `${sideName(table, d.side)} ${cardName(d.card).toLowerCase()}${now ? ": in play" : ""}` },
          now ? cardName(d.card) : h("s", {}, cardName(d.card)));
        })));
    }
    if (active) {
      const mine = active.side === deck.viewer;
      this.node.append(h("p", { class: "active-command", "data-test": "deck-active", style: `--side:${sideColour(table, active.side)}` },
        h("span", { class: "swatch" }),
        `In play: ${mine ? "your" : `${sideName(table, active.side)}'s`} ${cardName(active.card).toLowerCase()} card`));
    }
  }

  renderPieces(deck, table) {
    const active = deck.active;
    const name = (c) => (c.unit ? this.screen.names(c.unit) : c.card);
    this.node.append(this.head());
    if (active) {
      const mine = active.side === deck.viewer;
      this.node.append(h("p", { class: "active-command", "data-test": "deck-active", style: `--side:${sideColour(table, active.side)}` },
        h("span", { class: "swatch" }), `Card drawn: ${active.card}${mine ? " (yours)" : ""}`));
      this.renderResponses(deck.responses || []);
    }
    this.node.append(h("p", { class: "muted", "data-test": "deck-count" },
      `${deck.count} card${deck.count === 1 ? "" : "s"} left to draw this turn: `,
      Object.entries(deck.left).map(([side, cards]) => `${sideName(table, side)} ${cards.length}`).join(", "), "."));
    const before = deck.drawn.slice(0, active ? -1 : undefined);
    if (before.length) {
      const recent = before.slice(-RECENT).reverse();
      this.node.append(h("h4", {}, "Drawn before it, last first"), h("ul", { class: "drawn-list", "data-test": "deck-drawn" },
        recent.map((c) => h("li", { style: `--side:${sideColour(table, c.side)}`, title: sideName(table, c.side) }, h("s", {}, name(c)))),
        before.length > RECENT ? h("li", { class: "muted" }, `and ${before.length - RECENT} more this turn`) : null));
    }
    for (const [side, cards] of Object.entries(deck.left)) {
      if (!cards.length) continue;
      this.node.append(h("details", { class: "deck-left", "data-test": `deck-left-${side}`, style: `--side:${sideColour(table, side)}` },
        h("summary", {}, `${sideName(table, side)}: ${cards.length} to come`),
        h("ul", {}, cards.map((c) => h("li", {}, c)))));
    }
  }

  // The responses rolled on the card in play (Charge yr Pikes!' command response): each
  // group of units, its die and whether it may move.
  renderResponses(responses) {
    if (!responses.length) return;
    const names = (ids) => ids.map((id) => this.screen.names(id)).join(", ");
    this.node.append(h("ul", { class: "responses", "data-test": "deck-responses" }, responses.map((r) =>
      h("li", { class: r.obeyed ? "obeyed" : "refused", "data-test": "deck-response" },
        h("span", { class: "die", title: r.face ? "the die rolled" : "no die: they move" }, r.face ? String(r.face) : "–"),
        h("span", {}, names(r.units),
          h("small", { class: "muted" }, ` ${r.officer ? `under ${this.screen.names(r.officer)}` : "without officer"}: `),
          h("b", {}, r.obeyed ? "may move" : "no move"))))));
  }
}

// Deployment: which piece to place; a click on the table places it. The pieces are those
// the pending decision lists (d3-commands' procedure: a step's pieces), or, when it lists
// none (Charge yr Pikes!' secret deployment), every piece of the side's: pick one from the
// list or click it on the table, then click where it should stand.
class DeploymentPanel extends Panel {
  constructor(screen, spec) {
    super(screen, spec);
    this.kind = screen.vocab.kind(spec.action);
    const fields = this.kind ? this.kind.fields : [];
    this.piece = fields.find((f) => f.from_pending) || fields.find((f) => f.kind === "own-unit") || null;
    this.deploying = null;
  }

  // The decision this panel answers is pending for us now.
  active(view) {
    const s = view.status;
    const decision = this.screen.vocab.pending(s);
    return Boolean(s.your_turn && decision && decision.panel === this.spec.name && this.kind && this.piece);
  }

  // The pieces that may be placed now.
  waiting(view) {
    if (this.piece.from_pending) return view.status.pending[this.piece.from_pending] || [];
    return view.state.units.filter((u) => u.side === view.side && !u.removed).map((u) => u.id);
  }

  render(view) {
    clear(this.node);
    this.node.hidden = !this.active(view);
    if (this.node.hidden) return;
    const waiting = this.waiting(view);
    if (!waiting.includes(this.deploying)) this.deploying = waiting[0];
    const names = (id) => this.screen.names(id);
    const chosen = !this.piece.from_pending;
    this.node.append(this.head(),
      h("p", { "data-test": "deploy-prompt" }, `Click the table where ${names(this.deploying)} should stand.`),
      h("p", { class: "muted" }, chosen ? this.spec.help
        : "It faces the enemy, and must stand by your own table edge, within the deployment zone."),
      h("label", { class: "field" }, this.piece.label,
        h("select", { "data-test": "deploy-unit", onchange: (e) => { this.deploying = e.target.value; this.render(view); } },
          waiting.map((id) => h("option", { value: id, selected: id === this.deploying }, names(id))))));
  }

  // A click on piece ``id`` of one's own while choosing freely picks it to place next.
  choose(view, id) {
    if (!this.active(view) || this.piece.from_pending || !this.waiting(view).includes(id)) return false;
    this.deploying = id;
    this.render(view);
    return true;
  }

  // The action placing the chosen piece at table point (x, y), built from the kind's fields.
  actionAt(view, x, y) {
    if (!this.active(view) || !this.deploying) return null;
    const round = (v) => Math.round(v * 100) / 100;
    const action = { type: this.kind.type };
    for (const f of this.kind.fields) {
      if (f === this.piece) action[f.name] = this.deploying;
      else if (f.kind === "coordinate") action[f.name] = round(f.name === "y" ? y : x);
    }
    return action;
  }
}

// Attacks declared together (larger-battles): the plan being made, then the declared
// attacks to fight one by one.
class PlanPanel extends Panel {
  constructor(screen, spec) {
    super(screen, spec);
    this.kind = screen.vocab.kind(spec.action);
    this.list = this.kind ? this.kind.fields.find((f) => f.kind === "actions") : null;
  }

  // The attacks declared and not yet fought (larger-battles keeps them in the position).
  declared(view) {
    const own = (view && view.state.own) || {};
    return own.declared_attacks || [];
  }

  render(view) {
    const s = view.status;
    const screen = this.screen;
    const declared = this.declared(view);
    clear(this.node);
    const fighting = s.your_turn && !s.pending && declared.length;
    this.node.hidden = !(fighting || screen.plan.length) || !this.list;
    if (this.node.hidden) return;
    const names = (id) => screen.names(id);
    if (fighting) {
      this.node.append(this.head(), h("p", { class: "headline" }, "Your attacks are declared: fight each in turn."),
        h("div", { class: "choices", "data-test": "declared" }, declared.map((a) =>
          h("button", { class: "btn", onclick: () => screen.fightDeclared(a) }, `${names(a.attacker)} on ${names(a.target)} …`))));
      return;
    }
    const describe = (a) => `${names(a.attacker)} on ${names(a.target)}` +
      (a.supports.length ? `, supported by ${a.supports.map(names).join(", ")}` : "") +
      (a.commander ? `, encouraged by ${names(a.commander)}` : "");
    const n = screen.plan.length;
    this.node.append(h("div", { class: "plan", "data-test": "plan" },
      h("div", { class: "control-title" }, this.spec.label),
      h("ol", {}, screen.plan.map((a) => h("li", {}, describe(a)))),
      h("div", { class: "odds-actions" },
        h("button", { class: "btn primary", "data-test": "declare-attacks",
          onclick: () => screen.act({ type: this.kind.type, [this.list.name]: screen.plan }) },
        this.words(n)),
        h("button", { class: "btn", onclick: () => screen.clearPlan() }, "Clear"))));
  }

  // The gathering kind's phrase for n planned actions ("Declare 2 attacks").
  words(n) {
    const count = `${n} ${this.list.item.replace(/_/g, " ")}${n === 1 ? "" : "s"}`;
    const text = fill(this.kind.phrase, (path) => (path === this.list.name ? count : null));
    return text === null ? this.kind.label : text.charAt(0).toUpperCase() + text.slice(1);
  }
}

// Command cards (d3-commands): the card panel lays the order the server offered.
class CommandCardsPanel {
  constructor(screen, spec) {
    this.panel = new CardPanel({ gameId: screen.gameId, token: () => screen.token(), action: spec.action,
      onLaid: (action) => screen.act(action) });
    this.node = this.panel.node;
  }

  render(view, table) { this.panel.render(view, table); }
}

const KINDS = {
  orders: OrdersPanel,
  deck: DeckPanel,
  deployment: DeploymentPanel,
  "attack-plan": PlanPanel,
  "command-cards": CommandCardsPanel,
};

// The panels the rule set declares, in its order; any this page cannot draw is left out.
export function buildPanels(screen) {
  return screen.vocab.panels.filter((spec) => KINDS[spec.name]).map((spec) => {
    const panel = new KINDS[spec.name](screen, spec);
    panel.name = spec.name;
    return panel;
  });
}
