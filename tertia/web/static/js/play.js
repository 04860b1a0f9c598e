// The game table: map, status, the selected unit and what it may do, odds, log, undo.

import { api } from "./api.js";
import { MoveTool } from "./drag.js";
import { FactBook, factRows, factTags, meter, meterNotes, meters } from "./facts.js";
import { gapBetween } from "./gaps.js";
import { DiceTray, diceFigures, LogView } from "./log.js";
import { TableMap } from "./map.js";
import { OddsPanel, OddsView, QuestionPanel } from "./odds.js";
import { buildPanels } from "./panels.js";
import { DecisionTimer } from "./timer.js";
import { remember, tokenFor, tokensFor } from "./tokens.js";
import { briefingParagraphs, clear, h, modeWords, openDialog, percent, phaseTitle, setTopbar, sideColour, sideDoes, sideName, toast } from "./ui.js";
import { Vocabulary } from "./vocab.js";

const PIECE_FIELDS = new Set(["own-unit", "own-commander", "enemy-unit"]);
const MANY_TARGETS = 4; // more aimed offers of one kind than this are picked from a list

// Each reason a move is refused, each followed by the rule it cites (once for reasons
// in a row that cite the same rule).
function reasonsWithRules(violations) {
  return violations.flatMap((v, i) => {
    const next = violations[i + 1];
    const cite = v.rule && (!next || next.rule !== v.rule) ? h("span", { class: "rule" }, ` (${v.rule})`) : null;
    return [i ? "; " : "", v.message, cite];
  });
}

export class PlayScreen {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    this.view = null;
    this.selected = null;
    this.detail = null;
    this.tool = null;
    this.odds = null;
    this.plan = []; // actions the player means to make together (larger-battles' attacks)
    this.alive = true;
    this.overlayFlags = { zones: true, arcs: true, sight: true };
    this.endShown = false;
    this.focused = null; // the piece the moment was about when last looked at
    this.cardsAsked = 0; // the piece cards asked of the server so far
    this.timer = new DecisionTimer((offer) => this.timeOut(offer));
  }

  destroy() {
    this.alive = false;
    if (this.curtain) this.curtain.remove();
    if (this.waiter) this.waiter.abort();
    if (this.tool) this.tool.destroy();
    this.timer.stop();
    window.removeEventListener("keydown", this.keys);
  }

  token(role = null) {
    const status = this.view && this.view.status;
    return tokenFor(this.gameId, role || (status ? status.to_act : null));
  }

  names(id) {
    if (id === null || id === undefined) return "the target";
    const u = this.view && this.view.state.units.find((v) => v.id === id);
    return u ? u.name || u.id : this.commandName(id) || id;
  }

  // A command (a Charge yr Pikes! tertia) by its card's name, the side to act's first.
  commandName(id) {
    const status = this.view && this.view.status;
    const cards = (status && status.summary && status.summary.card_names) || {};
    return cards[`group:${id}:${status && status.to_act}`]
      || Object.entries(cards).find(([card]) => card.startsWith(`group:${id}:`))?.[1] || null;
  }

  async start() {
    if (!Object.keys(tokensFor(this.gameId)).length) {
      this.root.replaceChildren(h("div", { class: "notice" }, h("h2", {}, "No token for this battle"),
        h("p", {}, "This browser holds no token for this game. Open the link you were given (it carries the token)."),
        h("a", { class: "btn", href: "#/" }, "All battles")));
      return;
    }
    try {
      const [table, summary] = await Promise.all([api.table(this.gameId, this.token()), api.summary(this.gameId, this.token())]);
      this.table = table;
      const rules = await api.rules(summary.game.rules);
      this.vocab = new Vocabulary(rules.vocabulary);
      this.book = new FactBook(rules.vocabulary.facts);
      this.questions = rules.questions || { words: [] };
      this.breakdownWords = rules.breakdown || {};
    } catch (err) {
      this.root.replaceChildren(h("div", { class: "notice" }, h("h2", {}, "Cannot open this battle"),
        h("p", {}, err.message), h("a", { class: "btn", href: "#/" }, "All battles")));
      return;
    }
    this.layout();
    await this.refresh(true);
    this.waitLoop();
  }

  layout() {
    this.mapBox = h("div", { class: "map-box" });
    this.map = new TableMap(this.mapBox, this.table);
    this.map.root.addEventListener("click", (e) => this.mapClick(e));
    this.map.root.addEventListener("keydown", (e) => this.pieceKey(e));
    this.tray = new DiceTray(this.mapBox);
    this.banner = h("div", { class: "map-banner", hidden: true });
    this.mapBox.append(this.banner, h("div", { class: "zoom-controls" },
      h("button", { class: "icon-btn", title: "Zoom in", onclick: () => this.map.zoom(1 / 1.3) }, "+"),
      h("button", { class: "icon-btn", title: "Zoom out", onclick: () => this.map.zoom(1.3) }, "−"),
      h("button", { class: "icon-btn", title: "Whole table", onclick: () => this.map.fit() }, "⤢")));
    this.prompt = h("section", { class: "card prompt", "aria-label": "Your move" });
    this.unitCard = h("section", { class: "card unit-card", hidden: true, "aria-label": "Selected unit" });
    this.panels = buildPanels(this);
    this.logBox = h("section", { class: "card log", "aria-label": "Battle log" }, h("h3", {}, "The battle so far"));
    this.logView = new LogView(this.logBox);
    // The battle's story and how it is drawn up under these rules (the table's
    // "description" and "notes"), folded away until asked for.
    const told = briefingParagraphs(this.table.description, this.table.notes);
    this.briefing = h("details", { class: "card briefing", "data-test": "briefing", hidden: !told.length },
      h("summary", {}, "The battle"), ...told);
    this.panel = h("aside", { class: "side-panel" }, this.prompt, this.panels.map((p) => p.node), this.unitCard,
      this.briefing, this.logBox);
    // The pieces take the keyboard one by one (dozens at Edgehill): the first Tab offers
    // a way past them to the prompt.
    this.prompt.tabIndex = -1;
    const skip = h("a", { class: "skip-link", href: "#", "data-test": "skip-to-prompt",
      onclick: (e) => { e.preventDefault(); this.prompt.focus(); } }, "Skip the table to your move");
    this.root.replaceChildren(skip, h("div", { class: "table-screen" }, this.mapBox, this.panel));
    this.keys = (e) => {
      if (e.target.closest && e.target.closest("input, select, textarea")) return;
      if (e.key === "Escape") this.deselect();
      // Enter on a focused button or link is that control's own (Reset must not move).
      const control = e.target.closest && e.target.closest("button, a");
      if (e.key === "Enter" && !control && this.currentVerdict()?.legal) this.commitMove();
      if ((e.ctrlKey || e.metaKey) && e.key === "z") { e.preventDefault(); this.undo(); }
    };
    window.addEventListener("keydown", this.keys);
  }

  // --- handing over the screen (hotseat) --------------------------------------------------

  // Cover the table until the next player says they have the screen: nothing of either
  // side's secrets shows meanwhile.
  handOver(side, handing = null) {
    if (this.curtain) return;
    const t = this.table;
    this.deselect();
    this.curtain = h("div", { class: "handover", "data-test": "handover", role: "dialog", "aria-modal": "true" },
      h("div", { class: "handover-box" },
        h("h2", {}, `Hand the screen to ${sideName(t, side)}`),
        h("p", {}, "What each side may see is kept from the other: the screen stays covered until the next player has it."),
        h("button", { class: "btn primary", "data-test": "handover-ready", onclick: () => {
          this.curtain.remove();
          this.curtain = null;
          this.handed = handing;
          this.refresh(true, false);
        } }, `I am ${sideName(t, side)}: show my side`)));
    openDialog(this.curtain);
  }

  // --- talking to the server -------------------------------------------------------------

  async refresh(full = false, again = true) {
    const logFrom = full ? 0 : this.logView.count;
    let view;
    try {
      view = await api.view(this.gameId, this.token(), { logFrom, side: this.viewSide || null });
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    if (!this.alive) return;
    // Refreshes overlap (an action's answer, the wait for changes, a hand-over) and their
    // answers may arrive out of order: one older than the view shown is out of date.
    if (this.view && view.version < this.view.version) return;
    const held = tokensFor(this.gameId);
    if (again && view.side !== view.status.to_act && held[view.status.to_act] && !view.game.spectator) {
      // Hotseat: this browser holds the side the game now awaits; look through its eyes,
      // behind a screen handed over when the rules keep something from the side leaving.
      this.view = view;
      // Once per hand-over: a refresh still on its way when the screen was taken must not
      // cover it again.
      const handing = `${view.status.to_act}:${view.version}`;
      if (view.game.mode === "hotseat" && view.status.secret && this.handed !== handing) {
        return this.handOver(view.status.to_act, handing);
      }
      return this.refresh(true, false);
    }
    if (!full && view.log_total < this.logView.count) return this.refresh(true); // undone
    if (full) {
      this.logView.reset();
      this.newest = null;
    }
    const previous = this.view;
    this.view = view;
    if (!this.planning()) this.plan = [];
    remember(this.gameId, {}, { title: view.game.title, mode: view.game.mode });
    // Only entries not seen before roll their dice: overlapping refreshes (an action's
    // answer and the wait for changes) bring some twice, and a roll shown again after the
    // battle ended would sit over its result.
    const fresh = full ? [] : view.log.filter((e) => !this.logView.shown.has(e.index));
    this.logView.append(view.log);
    for (const entry of view.log) if (!this.newest || entry.index >= this.newest.index) this.newest = entry;
    const dice = fresh.flatMap((e) => e.dice);
    if (dice.length) {
      const attack = fresh.flatMap((e) => e.lines).filter((l) => l.kind === "attack").pop();
      this.tray.show(dice, attack ? attack.text : "");
    }
    this.drawTraces(fresh);
    if (previous && this.selected && !view.state.units.some((u) => u.id === this.selected && !u.removed)) this.deselect();
    this.render();
    // A new piece in focus (a card drawn for one of ours): select it, once.
    const focus = this.focusPiece();
    if (focus !== this.focused) {
      this.focused = focus;
      const piece = focus && view.state.units.find((u) => u.id === focus);
      if (piece && view.status.your_turn && piece.side === view.status.to_act && focus !== this.selected) {
        await this.select(focus);
        return;
      }
    }
    if (this.odds instanceof QuestionPanel && previous && previous.version !== view.version) this.odds.stale();
    if (this.selected && (!previous || previous.version !== view.version)) await this.select(this.selected, { keepOdds: false });
  }

  // The one piece the moment is about: the piece a pending decision concerns (its answer's
  // piece field filled from the decision), else the piece the rule set says is activated.
  focusPiece() {
    const s = this.view && this.view.status;
    if (!s || s.over) return null;
    const decision = this.vocab.pending(s);
    const answer = decision && this.vocab.kind(decision.answer);
    const field = answer && answer.fields.find((f) => f.from_pending && PIECE_FIELDS.has(f.kind));
    const pending = field ? s.pending[field.from_pending] : null;
    if (typeof pending === "string" && this.unitName(pending)) return pending;
    const active = s.summary && s.summary.activated;
    return typeof active === "string" && this.unitName(active) ? active : null;
  }

  async waitLoop() {
    while (this.alive) {
      if (!this.view) { await sleep(500); continue; }
      const ctrl = new AbortController();
      this.waiter = ctrl;
      try {
        const r = await api.wait(this.gameId, this.token(), this.view.version, ctrl.signal);
        if (!this.alive) return;
        if (r.changed) await this.refresh();
      } catch (err) {
        if (!this.alive) return;
        await sleep(err.status === 0 ? 2000 : 1000);
      }
    }
  }

  async act(action) {
    const actor = this.view.status.to_act;
    try {
      const answer = await api.act(this.gameId, this.token(actor), action, this.view.version);
      this.clearTool();
      this.odds = null;
      this.plan = [];
      await this.refresh();
      return answer;
    } catch (err) {
      if (err.code === "STALE_VERSION") {
        toast("The game moved on before that reached the server; here it is as it stands now.", "info", 6000);
        await this.refresh(true);
        return null;
      }
      toast(err.message + (err.rule ? ` (${err.rule})` : ""), "error", 6000);
      if (this.odds) this.odds.go.disabled = false;
      return null;
    }
  }

  async undo() {
    if (!this.view || !this.view.status.can_undo) return;
    try {
      const answer = await api.undo(this.gameId, this.token(), this.view.version);
      const kind = this.vocab.kind(answer.undone.type);
      toast(kind ? `Undone: ${kind.label.toLowerCase()}` : "Your last action is undone");
      this.clearTool();
      await this.refresh(true);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  // --- drawing ---------------------------------------------------------------------------

  render() {
    const v = this.view;
    const targets = this.detail ? this.detail.actions.filter((a) => a.target).map((a) => a.target) : [];
    this.map.viewer = v.side;
    const focused = this.keyboardPiece();
    this.map.drawState(v.state, { selected: this.selected, targets, focus: this.focusPiece(),
      tableMarkers: v.table_markers || [], points: (v.status.summary && v.status.summary.points) || [],
      pieces: v.pieces || {}, book: this.book });
    this.restoreKeyboardPiece(focused);
    const s = v.status;
    const decision = this.vocab.pending(s);
    const deploying = s.your_turn && decision && decision.panel === "deployment";
    const edge = deploying ? (this.table.sides.find((x) => x.id === s.to_act) || {}).edge : null;
    const area = s.summary && s.summary.deploy_zone;
    if (area) this.map.deployArea(deploying && area.side === v.side ? area : null);
    else this.map.deploymentZone(edge, deploying ? v.game.options.deployment_zone ?? null : null);
    this.renderTopbar();
    this.renderPrompt();
    for (const panel of this.panels) panel.render(v, this.table);
    if (v.status.over && !this.endShown) {
      this.endShown = true;
      this.showEnd();
    }
  }

  // The piece the keyboard is on, if any: the table is drawn anew, and the focus with it.
  keyboardPiece() {
    const active = document.activeElement;
    const node = active && active.closest ? active.closest(".unit") : null;
    return node && this.map.root.contains(node) ? node.dataset.unit : null;
  }

  restoreKeyboardPiece(id) {
    if (!id) return;
    const node = this.map.root.querySelector(`.unit[data-unit="${CSS.escape(id)}"]`);
    if (node) node.focus({ preventScroll: true });
  }

  drawTraces(entries) {
    if (!entries.length) return;
    const side = (id) => (this.view.state.units.find((u) => u.id === id) || {}).side;
    const paths = entries.flatMap((e) => (e.moves || []).map((m) => ({ side: side(m.unit) || e.side, path: m.path,
      reason: m.reason || "move" })));
    this.map.drawTraces(paths);
  }

  /** The side the game awaits: while a decision is pending (a deployment, a defence),
   *  that side, whichever side's turn it is; once the battle is over, its victor (none
   *  acts any more), or that it is drawn. */
  sideChip(s, acting) {
    const t = this.table;
    const side = s.over ? s.result && s.result.winner : acting;
    const label = s.over ? (side ? "Victor" : "Result") : s.pending ? "To decide" : "Active";
    return h("span", { class: "chip side-chip", "data-test": "active-side", style: `--side:${sideColour(t, side)}` },
      h("small", {}, label), s.over && !side ? "Drawn" : sideName(t, side));
  }

  /** The turn, and the last the battle may reach as its rule set gives it ("3 of 12";
   *  "3 of 11–16" while a die still to be rolled decides when darkness falls), the rule
   *  that sets it on hover. Before the first turn the armies are deploying ("Deployment,
   *  before turn 1 of 11–16"); once the battle is over, only the turn it ended on. */
  turnChip(s) {
    const last = s.last_turn;
    const attrs = { class: "chip", "data-test": "turn" };
    if (s.over) {
      return h("span", { ...attrs, title: `The battle ended on turn ${s.turn ?? "–"}.` },
        h("small", {}, "Ended"), `on turn ${s.turn ?? "–"}`);
    }
    if (last.rule) attrs.title = last.rule;
    if (deploying(s)) return h("span", attrs, h("small", {}, "Deployment"), `before turn 1 of ${last.text}`);
    return h("span", attrs, h("small", {}, "Turn"), `${s.turn ?? "–"} of ${last.text}`);
  }

  renderTopbar() {
    const v = this.view;
    const s = v.status;
    const t = this.table;
    const orders = s.summary && s.summary.orders_left !== undefined ? s.summary.orders_left : null;
    const score = s.summary && s.summary.score ? s.summary.score : null;
    const acting = s.pending && s.to_act ? s.to_act : s.active;
    const who = s.over ? "Battle over" : s.your_turn ? "Your move" : s.waiting_for === "ai" ? "AI moving" : "Waiting";
    const chip = (label, value, extra = "") => h("span", { class: `chip ${extra}` }, h("small", {}, label), value);
    setTopbar(
      h("span", { class: "game-title" }, v.game.title),
      h("div", { class: "chips", "data-test": "status" },
        this.turnChip(s),
        this.sideChip(s, acting),
        // Once the battle is over (and while the armies deploy, which the turn chip says),
        // the phase and the orders left no longer tell anything.
        s.over || deploying(s) ? null : chip("Phase", phaseTitle(s.phase), "phase-chip"),
        orders !== null && !s.over ? chip("Orders left", String(orders), "orders-chip") : null,
        score ? this.scoreChip(s, score) : null,
        this.lossesChip(s.summary, chip),
        h("span", { class: `chip turn-chip ${s.your_turn ? "yours" : ""}` }, who)),
      h("div", { class: "tools" },
        this.overlayToggle("zones", "Zones", "3\" and 12\" zones around the selected unit"),
        this.overlayToggle("arcs", "Arcs", "Combat range and 45-degree arc, or the guns' line of fire"),
        this.overlayToggle("sight", "Sight", "Line of sight from the selected gun to its targets"),
        this.timerToggle(),
        h("button", { class: "btn", "data-test": "undo", disabled: !s.can_undo, title: "Undo your last action (Ctrl+Z)",
          onclick: () => this.undo() }, "↶ Undo"),
        h("a", { class: "btn", href: `#/replay/${this.gameId}` }, "Replay")),
    );
  }

  /** The score, side by side. Once the battle is over, where the score is not what decided
   *  it (an army broke, objectives taken: a victor without the highest score, or a draw
   *  with scores apart), the chip says so and names, on hover, what did. */
  scoreChip(s, score) {
    const values = this.table.side_order.map((id) => score[id]).join(" – ");
    const undecided = s.over && s.result && !scoreDecidedIt(s.result);
    return h("span", { class: `chip score-chip${undecided ? " undeciding" : ""}`, "data-test": "score",
      title: undecided ? `Not what decided the battle${s.result.reason ? `: ${s.result.reason}` : ""}.` : "" },
      h("small", {}, undecided ? "Score, not deciding" : "Score"), values);
  }

  // Each army's losses (a share of its figures), what it needs to take fright at the end of
  // this turn and whether it has taken fright, when the rule set keeps army morale (summary
  // "losses_percent", "fright_odds", "fright").
  lossesChip(summary, chip) {
    const losses = summary && summary.losses_percent;
    if (!losses) return null;
    const t = this.table;
    const fright = new Set(summary.fright || []);
    const odds = summary.fright_odds || {};
    const needs = (id) => (odds[id] && odds[id].words ? ` (${odds[id].words})` : "");
    // A loss under 1% is shown to a tenth, so that one figure lost never reads as none.
    const percent = (p) => (p > 0 && p < 1 ? `${Math.max(0.1, Math.round(p * 10) / 10)}%` : `${Math.round(p)}%`);
    const share = (id) => (typeof losses[id] === "number" ? percent(losses[id]) : "?");
    const words = t.side_order.map((id) => `${sideName(t, id)}: ${typeof losses[id] === "number" ? `${share(id)} lost`
      : "losses not known (pieces unseen)"}${needs(id)}${fright.has(id) ? ", taken fright" : ""}`);
    // Over, the casualties the result counts, which may count more than army morale did.
    const measure = summary.losses_counted === "result" ? "Casualties counted for the result" : "Army morale";
    return h("span", { class: "chip losses-chip", "data-test": "army-losses", title: `${measure}. ${words.join("; ")}` },
      h("small", {}, "Losses"),
      t.side_order.map((id) => `${share(id)}${fright.has(id) ? " ⚑" : ""}`).join(" – "));
  }

  // The side's own orders given so far in a step whose orders are worked out together
  // (the rule set's summary "orders": unit, target, kind).
  renderOrdersGiven(summary) {
    const side = (id) => (this.view.state.units.find((u) => u.id === id) || {}).side;
    const orders = ((summary && summary.orders) || []).filter(([unit]) => side(unit) === this.view.side);
    if (!orders.length) return;
    this.prompt.append(h("div", { class: "orders-given", "data-test": "orders-given" },
      h("div", { class: "control-title" }, "Orders given this step"),
      h("ul", {}, orders.map(([unit, target, kind]) =>
        h("li", {}, `${this.unitName(unit)}: ${String(kind).replace(/_/g, " ")} at ${this.unitName(target)}`)))));
  }

  // The switch for timing decisions the rules give a time limit (none: no switch).
  timerToggle() {
    const timed = this.vocab.decisions.find((d) => d.time_limit);
    if (!timed) return null;
    const title = `Time each ${timed.label.toLowerCase()}: ${timed.time_limit} seconds, as the rules say (${timed.rule}). ` +
      "When time runs out the page answers as the rules do. Off unless you switch it on.";
    return h("button", { class: `btn toggle ${this.timer.on ? "on" : ""}`, title, "aria-pressed": String(this.timer.on),
      "data-test": "timer-toggle", onclick: () => { this.timer.toggle(); this.renderTopbar(); this.renderPrompt(); } }, "Timer");
  }

  timeOut(offer) {
    if (!this.view || !this.view.status.your_turn) return;
    toast(`Time is up: ${offer.label}`, "info", 6000);
    this.act(offer.action);
  }

  overlayToggle(key, label, title) {
    return h("button", { class: `btn toggle ${this.overlayFlags[key] ? "on" : ""}`, title, "aria-pressed": String(this.overlayFlags[key]),
      onclick: () => { this.overlayFlags[key] = !this.overlayFlags[key]; this.renderTopbar(); this.drawOverlays(); } }, label);
  }

  renderPrompt() {
    const v = this.view;
    const s = v.status;
    const t = this.table;
    clear(this.prompt);
    const you = v.game.you.map((id) => sideName(t, id)).join(" and ") || "spectator";
    this.prompt.append(h("div", { class: "prompt-head" },
      h("span", { class: "you", style: `--side:${sideColour(t, v.side)}` }, v.game.spectator ? "Watching" : `You: ${you}`),
      h("span", { class: "mode", "data-test": "mode" }, modeWords(v.game))));
    if (v.game.spectator) {
      this.prompt.append(h("label", { class: "field inline" }, "View as ",
        h("select", { onchange: (e) => { this.viewSide = e.target.value; this.deselect(); this.refresh(true); } },
          t.side_order.map((id) => h("option", { value: id, selected: id === v.side }, sideName(t, id))))));
    }
    const decision = this.vocab.pending(s);
    const timing = s.your_turn && !s.over ? decision : null;
    const countdown = this.timer.follow(timing, `${s.step}|${JSON.stringify(s.pending)}`, v.choices);
    if (s.over) {
      this.banner.hidden = true;
      const r = s.result || {};
      const degree = r.breakdown && typeof r.breakdown.degree === "string" ? `: ${article(r.breakdown.degree)}` : "";
      this.prompt.append(h("p", { class: "headline", "data-test": "outcome" },
        r.winner ? `${sideDoes(sideName(t, r.winner), "win")}${degree}.` : "A draw."),
        r.reason ? h("p", { class: "muted", "data-test": "outcome-reason" }, howItEnded(r)) : null,
        h("button", { class: "btn primary", onclick: () => this.showEnd() }, "See the result"));
      return;
    }
    if (!s.your_turn) {
      this.banner.hidden = false;
      this.banner.textContent = s.waiting_for === "ai" ? `The AI is moving for ${sideName(t, s.to_act)}…` : `Waiting for ${sideName(t, s.to_act)}…`;
      this.prompt.append(h("p", { class: "headline waiting" }, this.banner.textContent));
      return;
    }
    this.banner.hidden = true;
    if (decision) {
      this.prompt.append(h("p", { class: "headline", "data-test": "decision-prompt" }, this.vocab.ask(decision, s.pending, (id) => this.unitName(id))));
      if (countdown) this.prompt.append(countdown);
    } else if (!this.planPanel() || !this.planPanel().declared(v).length) {
      const card = s.summary && s.summary.active_card;
      const active = this.focusPiece();
      if (active) {
        const declared = s.summary.declared ? `: ${s.summary.declared}` : "";
        this.prompt.append(h("p", { class: "headline", "data-test": "activated" },
          `${this.unitName(active)} is activated${declared}. Its card below shows what it may do.`));
        const move = this.detail && this.detail.report.id === active && this.detail.actions.find((a) => a.allowances);
        if (move) this.prompt.append(h("p", { class: "allowance", "data-test": "prompt-allowance" }, "Rolled move: ",
          Object.entries(move.allowances).map(([ground, inches]) => `${inches}" ${ground}`).join(" · "), "."));
      } else {
        const what = card ? `Your ${this.cardWords(card).toLowerCase()} card is in play` : `${phaseTitle(s.phase)} phase`;
        this.prompt.append(h("p", { class: "headline" }, `${what}: select a unit to see what it may do.`));
      }
    }
    this.renderOrdersGiven(s.summary);
    // Every choice the server offered, but those a panel makes (orders, a card order ...).
    const made = new Set(this.panels.map((p) => p.name));
    const buttons = h("div", { class: "choices" });
    const shown = v.choices.filter((c) => { const panel = this.vocab.panelFor(c.action.type); return !(panel && made.has(panel.name)); });
    const said = sharedSubject(shown.map((c) => c.label), this.prompt.textContent);
    for (const c of shown) {
      const kind = this.vocab.kind(c.action.type);
      const last = kind && !kind.fields.length; // ending the phase or the activation
      const label = said ? capitalised(c.label.slice(said.length)) : c.label;
      buttons.append(h("button", { class: `btn ${last ? "primary end-phase" : ""}`, "data-test": c.action.type.replace(/_/g, "-"),
        title: kind ? kind.help : c.label, onclick: () => this.act(c.action) }, label));
    }
    // A button the player looks for that the rules refuse now (ending the phase, saying
    // a deployment is done): shown disabled, with the rules' reason.
    for (const r of v.refused || []) {
      const panel = this.vocab.panelFor(r.kind);
      if (panel && made.has(panel.name)) continue;
      const kind = this.vocab.kind(r.kind);
      buttons.append(h("div", { class: "refused", "data-test": "refused" },
        h("button", { class: "btn", disabled: true, title: kind ? kind.help : null }, r.words || r.label),
        h("span", { class: "refusal" }, ` Not yet: ${r.message}`, r.rule ? h("span", { class: "rule" }, ` (${r.rule})`) : null)));
    }
    this.prompt.append(buttons);
  }

  // A piece's name, or null for anything that is not a piece on the table.
  unitName(id) {
    const u = this.view && this.view.state.units.find((v) => v.id === id);
    return u ? u.name || u.id : null;
  }

  // --- selecting units -------------------------------------------------------------------

  mapClick(e) {
    if (this.map.suppressClick) return;
    const placing = this.view && this.panels.find((p) => p.actionAt);
    const picked = e.target.closest(".unit");
    if (placing && picked && placing.choose && placing.choose(this.view, picked.dataset.unit)) {
      this.select(picked.dataset.unit);
      return;
    }
    if (placing) {
      const at = this.map.toTable(e.clientX, e.clientY);
      const action = placing.actionAt(this.view, at.x, at.y);
      if (action) { this.act(action); return; }
    }
    const node = e.target.closest(".unit");
    if (!node) {
      if (!this.tool || !this.tool.ghost) this.deselect();
      return;
    }
    this.pieceChosen(node.dataset.unit);
  }

  // A piece focused on the table and pressed (Enter or Space) is clicked: the pieces are
  // buttons to a keyboard as to a mouse.
  pieceKey(e) {
    const node = e.target.closest && e.target.closest(".unit");
    if (!node || (e.key !== "Enter" && e.key !== " ")) return;
    const id = node.dataset.unit;
    if (this.tool && id === this.selected) return; // Enter makes the move being placed
    e.preventDefault();
    e.stopPropagation();
    const placing = this.view && this.panels.find((p) => p.actionAt);
    if (placing && placing.choose && placing.choose(this.view, id)) { this.select(id); return; }
    this.pieceChosen(id);
  }

  // A piece clicked: the target of the question or offer open, else the piece selected.
  pieceChosen(id) {
    if (this.tool && id === this.selected) return; // a drag on the selected unit
    if (this.odds instanceof QuestionPanel && this.odds.aims(id)) { this.odds.ask({ target: id }); return; }
    const offer = this.detail && this.detail.actions.find((a) => a.target === id);
    if (offer) { this.take(offer); return; }
    this.select(id);
  }

  async select(id, { keepOdds = false } = {}) {
    const changed = id !== this.selected;
    this.selected = id;
    if (changed) { this.clearTool(); if (!keepOdds) this.odds = null; }
    // Only the card asked for last is drawn: one asked for earlier (of this piece before
    // the game moved on, say) may come back after it.
    const asked = ++this.cardsAsked;
    let detail;
    try {
      detail = await api.unit(this.gameId, this.token(), id, this.viewSide || null, this.plan);
    } catch (err) {
      if (asked === this.cardsAsked) toast(err.message, "error");
      return;
    }
    if (this.selected !== id || asked !== this.cardsAsked) return;
    this.detail = detail;
    this.render();
    this.drawOverlays();
    this.renderUnitCard();
    const move = detail.actions.find((a) => a.interaction === "drag");
    if (move && !this.tool) this.startMove(move);
  }

  deselect() {
    this.selected = null;
    this.detail = null;
    this.odds = null;
    this.clearTool();
    this.unitCard.hidden = true;
    this.map.clearOverlays();
    if (this.view) this.render();
  }

  drawOverlays() {
    const u = this.view.state.units.find((x) => x.id === this.selected);
    this.map.drawOverlays(u, this.detail && this.detail.overlays, this.overlayFlags);
  }

  renderUnitCard() {
    const d = this.detail;
    const r = d.report;
    const t = this.table;
    const u = this.view.state.units.find((x) => x.id === r.id) || r;
    const held = focusedIn(this.unitCard.querySelector(".move-box"));
    clear(this.unitCard);
    this.unitCard.hidden = false;
    const kind = r.kind_label || (u.kind || r.kind || "").replace(/_/g, " ");
    const rows = factRows(r);
    this.unitCard.append(...[
      h("div", { class: "unit-head", style: `--side:${sideColour(t, u.side)}` },
        h("span", { class: "swatch" }),
        h("div", {}, h("h3", {}, u.name || r.name),
          h("div", { class: "muted", "data-test": "unit-side" }, `${sideName(t, u.side)} · ${kind}`))),
      ...meters(r).map(meter),
      ...meterNotes(r),
      factTags(r, this.book),
      rows.length ? h("dl", { class: "report", "data-test": "facts" }, rows) : null,
    ].filter(Boolean)); // append() would write out a null
    if (this.odds) { this.unitCard.append(this.odds.node); return; }
    const actions = d.actions;
    const ask = this.askButton(u);
    if (!actions.length) {
      this.unitCard.append(h("p", { class: "muted", "data-test": "no-actions" }, this.idleWords(u, d)));
      if (ask) this.unitCard.append(h("div", { class: "unit-actions" }, ask));
      return;
    }
    const list = h("div", { class: "unit-actions" });
    // Many targets for one kind (a charge at any enemy in sight): one list to pick from,
    // the nearest first, beside the targets pulsing on the table.
    const aimed = new Map();
    for (const a of actions) if (a.target) aimed.set(a.kind, [...(aimed.get(a.kind) || []), a]);
    const listed = new Set();
    for (const a of actions) {
      const kind = this.vocab.kind(a.kind);
      const many = a.target ? aimed.get(a.kind) : null;
      if (many && many.length > MANY_TARGETS) {
        if (listed.has(a.kind)) continue;
        listed.add(a.kind);
        list.append(this.targetPicker(u, kind, many));
        continue;
      }
      if (a.interaction === "drag") {
        const grounds = Object.entries(a.allowances || {});
        list.append(h("div", { class: "move-help" }, h("b", {}, `${kind ? kind.label : "Move"}: `),
          `drag the base; drag the round handle (or Q / E) to turn; W fixes a corner of the path. `,
          grounds.length ? h("span", { class: "allowance", "data-test": "allowance" }, "Allowance: ",
            grounds.map(([ground, inches]) => `${inches}" ${ground}`).join(" · "), ".")
            : typeof a.allowance === "number" ? h("span", { class: "allowance", "data-test": "allowance" }, `Allowance ${a.allowance}".`)
              : null));
      } else if (a.target) {
        list.append(h("button", { class: "btn target", "data-test": `offer-${a.target}`, "data-kind": a.kind,
          title: kind ? kind.help : null, onclick: () => this.take(a) }, a.label + (a.dice_driven ? " …" : "")));
      } else {
        list.append(h("button", { class: "btn", "data-test": a.action.type, "data-kind": a.kind, title: kind ? kind.help : null,
          onclick: () => (a.dice_driven ? this.openOdds(a) : this.act(a.action)) }, a.label + (a.dice_driven ? " …" : "")));
      }
    }
    if (ask) list.append(ask);
    this.unitCard.append(list);
    if (this.pendingMove) {
      const box = this.moveBox();
      this.unitCard.append(box);
      refocus(held, box);
    }
  }

  // One kind aimed at many pieces: pick the target from a list (nearest first) or click it
  // on the table.
  targetPicker(u, kind, offers) {
    const where = (id) => this.view.state.units.find((x) => x.id === id) || u;
    const gaps = new Map(offers.map((o) => [o.target, gapBetween(u, where(o.target))]));  // edge to edge, as ranges are measured
    const far = (o) => gaps.get(o.target);
    const sorted = [...offers].sort((a, b) => far(a) - far(b));
    const select = h("select", { "data-test": "target-pick", "data-kind": sorted[0].kind },
      sorted.map((o) => h("option", { value: o.target }, `${o.label} (${far(o).toFixed(1)}" away)`)));
    const label = kind ? kind.label : sorted[0].label;
    return h("div", { class: "target-picker" },
      h("label", { class: "control-title" }, `${label}: click a target on the table, or pick one `, select),
      h("button", { class: "btn target", "data-test": "take-picked", title: kind ? kind.help : null,
        onclick: () => this.take(sorted.find((o) => o.target === select.value)) }, `${label}${sorted[0].dice_driven ? " …" : ""}`));
  }

  // Why a piece may do nothing now, in a line: the rules' own reason when the server
  // gives one, else whose move it is.
  idleWords(u, detail) {
    const v = this.view;
    const t = this.table;
    if (!v.game.you.includes(u.side)) return `${sideName(t, u.side)}: not one of your pieces.`;
    if (v.status.over) return "The battle is over.";
    if (!v.status.your_turn) return `Nothing to do now: the game awaits ${sideName(t, v.status.to_act)}.`;
    if (v.status.to_act !== u.side) return `Nothing to do now: the game awaits ${sideName(t, v.status.to_act)}.`;
    const decision = this.vocab.pending(v.status);
    if (decision && !(detail.idle || []).length) return `Nothing for this piece now: the game awaits your ${decision.label.toLowerCase()} first.`;
    const why = [...new Set((detail.idle || []).filter((w) => w && w.message).map((w) => w.message))];
    if (why.length) return `Nothing this piece may do now: ${why.slice(0, 3).join("; ")}.`.replace(/\.\.$/, ".");
    return "Nothing this piece may do now: the rules offer it no action at this moment.";
  }

  // A question of odds about one of the side's own units, whatever the phase (the rule
  // set's words: its fire, a charge, a morale test ...), answered from the side's view.
  askButton(u) {
    const v = this.view;
    if (!this.questions.words.length || v.status.over || u.kind === "commander" || u.side !== v.side
      || !v.game.you.includes(u.side)) return null;
    return h("button", { class: "btn", "data-test": "ask-odds", onclick: () => this.openQuestion(u),
      title: "The odds of what it might do as things stand, from what your side can see" }, "Odds…");
  }

  openQuestion(u) {
    this.clearTool();
    const enemies = this.view.state.units.filter((e) => e.side !== u.side && !e.removed && e.kind !== "commander");
    this.odds = new QuestionPanel({
      gameId: this.gameId, token: this.token(u.side), unit: u, enemies, questions: this.questions,
      names: (id) => this.names(id), sides: (side) => sideName(this.table, side), onClose: () => { this.odds = null; this.renderUnitCard(); },
    });
    this.renderUnitCard();
  }

  // --- moving ----------------------------------------------------------------------------

  startMove(offer) {
    const u = this.view.state.units.find((x) => x.id === this.selected);
    if (!u) return;
    this.tool = new MoveTool({
      map: this.map, gameId: this.gameId, token: this.token(), unit: u, offer, kind: this.vocab.kind(offer.kind),
      onVerdict: (verdict, action) => {
        this.pendingMove = { ...verdict, action };
        this.askMoveOdds();
        this.renderMoveBox();
      },
      onDrop: () => { this.askMoveOdds(); this.renderMoveBox(); },
    });
  }

  clearTool() {
    if (this.tool) this.tool.destroy();
    this.tool = null;
    this.pendingMove = null;
    this.moveOdds = null;
  }

  // What the dice may do when the move is made (a move into contact that fights at once,
  // say): asked of the server once the ghost is put down where the rules allow it, and
  // shown before the move can be made, or the server's refusal in one line.
  askMoveOdds() {
    const m = this.currentVerdict();
    if (!m || !m.legal || this.tool.mode) return;
    const key = JSON.stringify(m.action);
    if (this.moveOdds && this.moveOdds.key === key) return;
    const kind = this.vocab.kind(m.action.type);
    if (kind && kind.odds === false) { this.moveOdds = { key, done: true, odds: null }; return; }
    const asked = { key, done: false, odds: null, refusal: null };
    this.moveOdds = asked;
    api.odds(this.gameId, this.token(), m.action)
      .then((odds) => { asked.odds = odds; })
      .catch((err) => { asked.refusal = err; })
      .finally(() => { asked.done = true; if (this.moveOdds === asked) this.renderMoveBox(); });
  }

  // The server's verdict when it is of the ghost where it now stands: one of an earlier
  // place (the ghost dragged on or dropped since) is stale and offers nothing to make.
  currentVerdict() {
    const m = this.pendingMove;
    return m && this.tool && JSON.stringify(m.action) === JSON.stringify(this.tool.action()) ? m : null;
  }

  // The odds asked for the move now shown, when they are of this very move.
  currentMoveOdds() {
    const m = this.currentVerdict();
    const o = this.moveOdds;
    return m && o && o.key === JSON.stringify(m.action) ? o : null;
  }

  renderMoveBox() {
    const old = this.unitCard.querySelector(".move-box");
    const held = focusedIn(old);
    const fresh = this.moveBox();
    if (old) old.replaceWith(fresh); else this.unitCard.append(fresh);
    refocus(held, fresh);
  }

  moveBox() {
    if (!this.pendingMove) return h("div", { class: "move-box", hidden: true });
    const m = this.currentVerdict();
    if (!m) {
      return h("div", { class: "move-box checking", "data-test": "move-box" },
        h("p", { class: "muted", "data-test": "move-checking" }, "Asking the rules about the move here…"),
        this.moveButtons(false, false));
    }
    const measure = m.measure;
    const legal = m.legal;
    const asked = legal ? this.currentMoveOdds() : null;
    const settled = legal && asked && asked.done;
    const dice = settled && asked.odds && asked.odds.outcomes.length > 1;
    let odds = null;
    if (legal && !settled) odds = h("p", { class: "muted", "data-test": "move-odds-wait" }, "Working out what the dice may do…");
    else if (dice) {
      const view = new OddsView((id) => this.names(id), (side) => sideName(this.table, side));
      view.render(asked.odds);
      odds = h("div", { class: "move-odds", "data-test": "move-odds" },
        h("div", { class: "odds-title" }, "The dice decide what follows this move"), view.body);
    } else if (settled && asked.refusal) {
      odds = h("p", { class: "refusal", "data-test": "odds-refusal" }, `No odds for this move: ${asked.refusal.message}`);
    }
    return h("div", { class: `move-box ${legal ? "legal" : "illegal"}`, "data-test": "move-box" },
      measure ? h("div", { class: "measure", "data-test": "measure" }, `${measure.length.toFixed(1)}" of ${measure.allowance}" allowed`,
        measure.ground ? ` (${measure.ground})` : "") : null,
      legal ? h("p", {}, "The rules allow this move.") : null,
      legal && measure && measure.warnings ? measure.warnings.map((w) => h("p", { class: "warning", "data-test": "move-warning" },
        w.message, w.rule ? h("span", { class: "rule" }, ` (${w.rule})`) : null)) : null,
      legal ? null
        : h("p", { class: "refusal", "data-test": "move-reason" }, reasonsWithRules(m.violations)),
      odds,
      m.contact ? h("p", { class: "contact" },
        h("button", { class: "btn", "data-test": "snap-contact", onclick: () => this.snapToContact(m.contact),
          title: "The same move, its last leg ending with the bases touching" }, `Move into contact with ${m.contact.name}`))
        : null,
      this.moveButtons(settled, dice));
  }

  moveButtons(settled, dice) {
    return h("div", { class: "odds-actions" },
      h("button", { class: "btn primary", disabled: !settled, "data-test": "confirm-move", onclick: () => this.commitMove() },
        dice ? "Move here and roll" : "Move here"),
      h("button", { class: "btn", "data-test": "reset-move", onclick: () => { const id = this.selected; this.clearTool(); this.select(id); } }, "Reset"));
  }

  // The server's offer of the dropped move ending in contact with an enemy: the ghost
  // goes there and the move is validated again.
  snapToContact(contact) {
    if (!this.tool || !contact) return;
    this.pendingMove = null;
    this.moveOdds = null;
    this.renderMoveBox();
    this.tool.snapTo(contact.waypoints);
  }

  async commitMove() {
    const m = this.currentVerdict();
    const asked = this.currentMoveOdds();
    if (!m || !m.legal || !asked || !asked.done) return;
    await this.act(m.action);
  }

  // --- attacking -------------------------------------------------------------------------

  // An aimed offer: its odds first when its dice are the point of it, else made at once.
  take(offer) {
    if (offer.dice_driven) this.openOdds(offer); else this.act(offer.action);
  }

  openOdds(offer) {
    this.clearTool();
    this.odds = new OddsPanel({
      gameId: this.gameId, token: this.token(), offer, kind: this.vocab.kind(offer.kind), names: (id) => this.names(id),
      sides: (side) => sideName(this.table, side), onCommit: async (action) => { await this.act(action); },
      onCancel: () => { this.odds = null; this.renderUnitCard(); },
      onPlan: (action) => this.addToPlan(action), planned: this.plan.length,
    });
    this.renderUnitCard();
  }

  // Actions made together (larger-battles declares a combat phase's attacks at once, then
  // fights them in turn): the plan is kept while the gathering kind may still be made.
  planPanel() { return this.panels.find((p) => p.gathers) || null; }

  planning() {
    const s = this.view && this.view.status;
    const panel = this.planPanel();
    if (!s || !panel || !panel.kind || !s.your_turn || s.pending || panel.declared(this.view).length) return false;
    return !panel.kind.phases.length || panel.kind.phases.includes(s.phase);
  }

  addToPlan(action) {
    const { type, ...item } = action;
    this.plan.push(item);
    this.odds = null;
    this.deselect();
  }

  clearPlan() {
    this.plan = [];
    this.render();
    if (this.selected) this.select(this.selected);
  }

  // An action a panel lists to make now (an attack declared with others): its piece
  // selected, and its odds opened.
  async fightItem(kind, item) {
    await this.select(item.unit);
    const list = kind && kind.fields.find((f) => f.kind === "actions");
    const offer = this.detail && this.detail.actions.find((x) => (!list || x.kind === list.item) && x.target === item.target);
    if (offer) this.openOdds(offer);
  }

  // A card (the one in play ...) in the words a panel gives it, else its own in words.
  cardWords(card) {
    for (const p of this.panels) {
      const found = p.lastData && p.lastData.labels && p.lastData.labels[card];
      if (found) return found.text;
    }
    return String(card).replace(/_/g, " ");
  }

  // --- the end ---------------------------------------------------------------------------

  showEnd() {
    const t = this.table;
    const r = this.view.status.result || {};
    const breakdown = r.breakdown || {};
    const words = this.breakdownWords || {};
    const table = resultTable(t, r, words);
    const lost = breakdown.units_lost || {};
    // The battle's own words beside the sides' columns (Charge yr Pikes!' degree of victory
    // and the margin in percentage points it is read from).
    const plain = Object.entries(breakdown).filter(([k, v]) => !t.side_order.includes(k) && (typeof v !== "object" || v === null));
    // The tray's dice may be a turn old by now: it is put away, and the dice of the action
    // that ended the battle, if it rolled any, are shown in the result as what they are.
    this.tray.hide();
    const last = this.newest && this.newest.index === this.view.log_total - 1 ? this.newest : null;
    const attack = last && last.lines.filter((l) => l.kind === "attack").pop();
    const deciding = last && last.dice.length
      ? h("section", { class: "deciding-roll", "data-test": "deciding-roll" },
        h("h3", {}, "The last roll, as the battle ended"),
        attack ? h("p", { "data-test": "deciding-attack" }, attack.text) : null,
        diceFigures(last.dice))
      : null;
    const dialog = h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-label": "The result", "data-test": "result" },
      h("div", { class: "modal-card result" },
        h("h2", { "data-test": "result-headline" }, !r.winner ? "The field is drawn"
          : typeof breakdown.degree === "string" ? `${capital(article(breakdown.degree))} for ${sideName(t, r.winner)}`
            : `Victory for ${sideName(t, r.winner)}`),
        h("p", { class: "muted" }, howItEnded(r)),
        deciding,
        plain.length ? h("dl", { class: "result-terms", "data-test": "result-terms" }, plain.map(([k, v]) =>
          h("div", { class: "row" }, h("dt", {}, breakdownLabel(k, words)), h("dd", {}, String(v))))) : null,
        table,
        Object.keys(lost).length ? h("p", {}, "Units lost: " + t.side_order.map((id) => `${sideName(t, id)} ${lost[id] ?? 0}`).join(", ")) : null,
        h("p", {}, `${this.view.status.step} actions over ${this.view.status.turn} turns.`),
        h("div", { class: "odds-actions" },
          h("a", { class: "btn primary", href: `#/replay/${this.gameId}` }, "Replay the battle"),
          h("a", { class: "btn", href: "#/" }, "New battle"),
          h("button", { class: "btn", "data-test": "close-result", onclick: () => dialog.remove() }, "Close"))));
    openDialog(dialog, () => dialog.remove());
  }
}

// How the battle ended, in the result's words ("The battle ended: the beaten army
// breaks."), for the prompt and the result dialog alike; nothing without a reason.
function howItEnded(result) {
  return result.reason ? `The battle ended: ${result.reason}.` : "";
}

// Whether the score decided the battle (``result``: the status's result): its victor has
// the highest score, or a drawn battle's scores are level. Where an army broke or its
// objectives were taken, a side may win on a level or lower score.
export function scoreDecidedIt(result) {
  const score = result.score || {};
  const values = Object.values(score);
  if (!values.length) return true;
  if (!result.winner) return values.every((v) => v === values[0]);
  return Object.entries(score).every(([id, v]) => id === result.winner || score[result.winner] > v);
}

// An item of the result's breakdown as the rule set words it (``words``: what
// GET /api/rules/{id} serves as ``breakdown``, the words the HTML report heads its columns
// with), else its key in words: "commanders_lost" under larger-battles is "For commanders
// lost", the victory points they cost, not a count of them.
export function breakdownLabel(key, words = {}) {
  const given = (words.labels || {})[key];
  if (given) return given;
  const text = String(key).replace(/_/g, " ").trim();
  return capital(text);
}

// The result's breakdown by side (``result``: the status's result), a row an item in the
// report's order (each side's items as they come, then those kept by item with a value
// for each side), a column a side, under the rule set's heading for it, and the score.
export function resultTable(t, result, words = {}) {
  const breakdown = result.breakdown || {};
  const items = [];
  for (const id of t.side_order) for (const k of Object.keys(breakdown[id] || {})) if (!items.includes(k)) items.push(k);
  const byItem = Object.keys(breakdown).filter((k) => !t.side_order.includes(k) && k !== "units_lost"
    && breakdown[k] !== null && typeof breakdown[k] === "object" && t.side_order.some((id) => id in breakdown[k]));
  const value = (k, id) => (byItem.includes(k) ? breakdown[k][id] : (breakdown[id] || {})[k]);
  const rows = [...items, ...byItem];
  return h("table", { class: "score-table", "data-test": "score-table" },
    rows.length && words.title ? h("caption", { "data-test": "breakdown-title" }, words.title) : null,
    h("thead", {}, h("tr", {}, h("th", {}, ""), t.side_order.map((id) => h("th", { style: `color:${sideColour(t, id)}` }, sideName(t, id))))),
    h("tbody", {}, rows.map((k) => h("tr", {}, h("td", { "data-test": "breakdown-item" }, breakdownLabel(k, words)),
      t.side_order.map((id) => h("td", {}, String(value(k, id) ?? ""))))),
      h("tr", { class: "total" }, h("td", {}, "Score"), t.side_order.map((id) => h("td", {}, String((result.score || {})[id] ?? ""))))));
}

// "an indecisive victory", "a marginal victory": the battle's own words with their article.
function article(words) { return `${/^[aeiou]/i.test(words) ? "an" : "a"} ${words}`; }
function capital(words) { return words.charAt(0).toUpperCase() + words.slice(1); }

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }
export { percent };


// "Balfour's Horse: " when every choice begins with it and the question above them names
// the piece already: the buttons then say only what differs ("Advance", "Stand and fire").
function sharedSubject(labels, question) {
  if (labels.length < 2) return null;
  const head = /^[^:]+: /.exec(labels[0]);
  if (!head || !labels.every((l) => l.startsWith(head[0]) && l.length > head[0].length)) return null;
  return question.includes(head[0].slice(0, -2)) ? head[0] : null;
}

function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Before the first turn (turn 0): the armies are still deploying (Charge yr Pikes!'s
// secret deployment), so there is no turn to count yet.
function deploying(status) {
  return !status.over && typeof status.turn === "number" && status.turn < 1;
}

// A move box drawn anew (its odds arrived, the view moved on) keeps the keyboard on the
// button that held it, so Enter pressed just after is still that button's: Reset must not
// fall through to the page's Enter, which makes the move. focusedIn names the control
// holding the keyboard within a box (before it is replaced), refocus finds it again.
function focusedIn(box) {
  const held = box && document.activeElement;
  return held && box.contains(held) && held.dataset && held.dataset.test ? held.dataset.test : null;
}

function refocus(held, box) {
  const same = held ? box.querySelector(`[data-test="${held}"]`) : null;
  if (same) same.focus();
}
