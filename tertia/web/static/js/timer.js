// A decision's time limit, when the rules set one in real time (the vocabulary's
// decision "time_limit", in seconds, and "on_time_out", the answer's field values the
// rules take when it runs out). The engine never times anything: the page times the
// decision only when the player has switched the timer on (off by default; the choice
// is kept in this browser). When time runs out, the page makes the offered answer that
// matches "on_time_out".

import { setting, setSetting } from "./settings.js";
import { h } from "./ui.js";

const SETTING = "decisionTimer";
const TICK = 250; // ms

export class DecisionTimer {
  // ``onTimeOut(offer)``: make the answer the rules take when time runs out.
  constructor(onTimeOut) {
    this.onTimeOut = onTimeOut;
    this.on = Boolean(setting(SETTING, false));
    this.key = null;
    this.deadline = null;
    this.limit = null;
    this.node = h("div", { class: "countdown", "data-test": "countdown", role: "timer", hidden: true });
    this.ticker = null;
  }

  toggle() {
    this.on = !this.on;
    setSetting(SETTING, this.on);
    this.key = null;
    if (!this.on) this.stop();
  }

  stop() {
    clearInterval(this.ticker);
    this.ticker = null;
    this.deadline = null;
    this.node.hidden = true;
  }

  // Follow the decision now awaited: ``decision`` (its declaration) with ``key`` naming
  // this very decision, and ``offers`` the choices that may answer it; nothing to time
  // when it is not ours, sets no limit, or the timer is off.
  follow(decision, key, offers) {
    this.offers = offers;
    this.decision = decision;
    if (!this.on || !decision || !decision.time_limit) { this.key = null; this.stop(); return null; }
    if (key !== this.key) {
      this.key = key;
      this.limit = decision.time_limit;
      this.deadline = performance.now() + decision.time_limit * 1000;
    }
    if (this.deadline !== null && !this.ticker) this.ticker = setInterval(() => this.tick(), TICK);
    this.tick();
    return this.node;
  }

  // The offer the rules take when time runs out.
  fallback() {
    const d = this.decision;
    const wanted = Object.entries(d.on_time_out || {});
    return (this.offers || []).find((c) => c.action.type === d.answer && wanted.every(([k, v]) => c.action[k] === v)) || null;
  }

  tick() {
    if (this.deadline === null) return;
    const left = Math.max(0, Math.ceil((this.deadline - performance.now()) / 1000));
    this.node.hidden = false;
    this.node.textContent = `${left}s to decide`;
    this.node.classList.toggle("urgent", left <= 10);
    if (left > 0) return;
    const offer = this.fallback();
    this.stop();
    if (offer) this.onTimeOut(offer);
  }
}
