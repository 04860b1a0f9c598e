// Replay: step forward and back through a battle, from either side's point of view.

import { api } from "./api.js";
import { FactBook } from "./facts.js";
import { DiceTray, LogView } from "./log.js";
import { TableMap } from "./map.js";
import { tokenFor, tokensFor } from "./tokens.js";
import { h, phaseTitle, possessive, put, setTopbar, sideColour, sideName, toast } from "./ui.js";

export class ReplayScreen {
  constructor(root, gameId, step = null) {
    this.root = root;
    this.gameId = gameId;
    this.step = step;
    this.side = null;
    this.playing = null;
  }

  destroy() {
    clearInterval(this.playing);
    window.removeEventListener("keydown", this.keys);
  }

  async start() {
    if (!Object.keys(tokensFor(this.gameId)).length) {
      this.root.replaceChildren(h("div", { class: "notice" }, h("h2", {}, "No token for this battle"),
        h("p", {}, "This browser holds no token for this game. Open the link you were given (it carries the token)."),
        h("a", { class: "btn", href: "#/" }, "All battles")));
      return;
    }
    try {
      this.table = await api.table(this.gameId, tokenFor(this.gameId));
      const first = await api.replay(this.gameId, tokenFor(this.gameId), 0);
      this.steps = first.steps;
      this.side = first.side;
      this.over = first.game.spectator || first.game.you.length > 1;
      this.game = first.game;
      const rules = await api.rules(first.game.rules);
      this.book = new FactBook(rules.vocabulary && rules.vocabulary.facts);
    } catch (err) {
      this.root.replaceChildren(h("div", { class: "notice" }, h("h2", {}, "Cannot replay this battle"), h("p", {}, err.message)));
      return;
    }
    const mapBox = h("div", { class: "map-box" });
    this.map = new TableMap(mapBox, this.table);
    this.tray = new DiceTray(mapBox);
    this.slider = h("input", { type: "range", min: 0, max: this.steps, value: 0, class: "scrub", "aria-label": "Step",
      oninput: (e) => this.go(Number(e.target.value)) });
    this.counter = h("span", { class: "counter", "data-test": "replay-step" });
    this.sideSelect = h("select", { "aria-label": "Point of view", onchange: (e) => { this.side = e.target.value; this.go(this.step, true); } },
      this.table.side_order.map((id) => h("option", { value: id, selected: id === this.side }, `${possessive(sideName(this.table, id))} view`)));
    const controls = h("div", { class: "replay-controls" },
      h("button", { class: "icon-btn", title: "Start", onclick: () => this.go(0) }, "«"),
      h("button", { class: "icon-btn", title: "Back (←)", "data-test": "back", onclick: () => this.go(this.step - 1) }, "‹"),
      this.playBtn = h("button", { class: "icon-btn", title: "Play", onclick: () => this.toggle() }, "Play"),
      h("button", { class: "icon-btn", title: "Forward (→)", "data-test": "forward", onclick: () => this.go(this.step + 1) }, "›"),
      h("button", { class: "icon-btn", title: "End", onclick: () => this.go(this.steps) }, "»"),
      this.slider, this.counter, this.sideSelect);
    this.logBox = h("section", { class: "card log" }, h("h3", {}, "The battle to this point"));
    this.logView = new LogView(this.logBox);
    this.status = h("section", { class: "card prompt" });
    this.root.replaceChildren(h("div", { class: "table-screen" },
      h("div", { class: "map-column" }, mapBox, controls), h("aside", { class: "side-panel" }, this.status, this.logBox)));
    setTopbar(h("span", { class: "game-title" }, `Replay — ${this.game.title}`),
      h("div", { class: "tools" }, h("a", { class: "btn", href: `#/play/${this.gameId}` }, "Back to the table")));
    this.keys = (e) => {
      if (e.key === "ArrowRight") this.go(this.step + 1);
      if (e.key === "ArrowLeft") this.go(this.step - 1);
    };
    window.addEventListener("keydown", this.keys);
    await this.go(this.step ?? this.steps, true);
  }

  toggle() {
    if (this.playing) { clearInterval(this.playing); this.playing = null; this.playBtn.textContent = "Play"; return; }
    if (this.step >= this.steps) this.go(0);
    this.playBtn.textContent = "Pause";
    this.playing = setInterval(() => {
      if (this.step >= this.steps) { this.toggle(); return; }
      this.go(this.step + 1);
    }, 700);
  }

  async go(step, force = false) {
    step = Math.max(0, Math.min(this.steps, step));
    if (step === this.step && !force) return;
    const seq = (this.seq = (this.seq || 0) + 1);
    let frame;
    try {
      frame = await api.replay(this.gameId, tokenFor(this.gameId, this.side), step, this.side);
    } catch (err) {
      toast(err.message, "error");
      if (err.code === "NOT_YOUR_SIDE") { this.side = this.game.you[0]; this.sideSelect.value = this.side; }
      return;
    }
    if (seq !== this.seq) return;
    const forward = step === (this.step ?? -1) + 1;
    this.step = step;
    this.slider.value = String(step);
    this.counter.textContent = `Step ${step} of ${this.steps}`;
    this.map.viewer = frame.side;
    this.map.drawState(frame.state, { tableMarkers: frame.table_markers || [],
      points: (frame.summary && frame.summary.points) || [], pieces: frame.pieces || {}, book: this.book });
    const last = frame.log[frame.log.length - 1];
    const side = (id) => (frame.state.units.find((u) => u.id === id) || {}).side;
    this.map.drawTraces((last && last.moves || []).map((m) => ({ side: side(m.unit) || last.side, path: m.path,
      reason: m.reason || "move" })));
    this.logView.reset();
    this.logView.append(frame.log);
    if (forward && last && last.dice.length) this.tray.show(last.dice);
    const s = frame.state;
    // Once the battle is over no side acts and no phase runs: the chip names the victor.
    const over = Boolean(s.result);
    const shown = over ? s.result.winner : s.active;
    const who = over ? (shown ? "Victor" : "Result") : "Active";
    // A step whose entry tells nothing (a phase ended, say) has no headline: put leaves it out.
    put(this.status, h("div", { class: "chips", "data-test": "replay-status" },
      h("span", { class: "chip" }, h("small", {}, "Turn"), s.turn ? String(s.turn) : "—"),
      h("span", { class: "chip side-chip", style: `--side:${sideColour(this.table, shown)}` }, h("small", {}, who),
        shown ? sideName(this.table, shown) : over ? "Drawn" : "—"),
      over ? null : h("span", { class: "chip" }, h("small", {}, "Phase"), s.phase ? phaseTitle(s.phase) : "setting up")),
      last && last.lines.length ? h("p", { class: "headline" }, last.lines[last.lines.length - 1].text) : null);
  }
}
