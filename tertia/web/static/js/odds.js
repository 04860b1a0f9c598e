// The odds of an attack or a bombardment before the dice: exact outcomes from the
// engine's own resolution, the modifiers for each side, and the button that rolls.

import { api } from "./api.js";
import { h, percent } from "./ui.js";

function bars(title, dist, colour) {
  const rows = Object.entries(dist || {}).map(([hits, p]) =>
    h("div", { class: "bar-row" },
      h("span", { class: "bar-label" }, hits === "0" ? "no hit" : `${hits} hit${hits === "1" ? "" : "s"}`),
      h("span", { class: "bar" }, h("span", { class: "bar-fill", style: `width:${(p * 100).toFixed(1)}%;background:${colour}` })),
      h("span", { class: "bar-value" }, percent(p))));
  return h("div", { class: "odds-block" }, h("div", { class: "odds-title" }, title), rows);
}

export class OddsPanel {
  // ``offer``: a unit action from the server ({action, label, supports, commanders,
  // declares}). Where a phase's attacks are declared together (``declares``), the attack
  // may join the player's ``planned`` attacks (``onPlan``) instead of being made alone.
  constructor({ gameId, token, offer, names, onCommit, onCancel, onPlan = null, planned = 0 }) {
    this.gameId = gameId;
    this.token = token;
    this.offer = offer;
    this.names = names;
    this.onCommit = onCommit;
    this.onCancel = onCancel;
    this.onPlan = offer.declares ? onPlan : null;
    this.adding = Boolean(this.onPlan && planned);
    this.supports = new Set();
    this.commander = null;
    this.node = h("section", { class: "odds-panel", "aria-label": "Odds" });
    this.body = h("div", { class: "odds-body" }, h("p", { class: "muted" }, "Working out the odds…"));
    // Where attacks are declared together, one made at once is the phase's only attack.
    const alone = this.onPlan && !this.adding && offer.kind === "attack";
    const label = this.adding ? "Add to the attacks" : alone ? "Attack alone" : offer.kind === "attack" ? "Attack!" : "Fire!";
    this.go = h("button", { class: "btn primary", onclick: () => this.commit(), "data-test": this.adding ? "plan-add" : "roll",
      title: alone ? "Declare this as the phase's only attack and fight it now" : null }, label);
    const plan = this.onPlan && !this.adding
      ? h("button", { class: "btn", "data-test": "plan-add", title: "Declare it together with other attacks",
        onclick: () => this.onPlan(this.action()) }, "Plan with other attacks")
      : null;
    this.node.append(h("h3", {}, offer.label), this.controls(), this.body,
      this.onPlan ? h("p", { class: "muted" }, "The odds of this attack made alone; all the phase's attacks are declared together, then fought one by one, each with its odds.") : null,
      h("div", { class: "odds-actions" }, this.go, plan,
        h("button", { class: "btn", onclick: () => this.onCancel() }, "Cancel")));
    this.refresh();
  }

  action() {
    const a = { ...this.offer.action };
    if (a.type === "attack") {
      a.supports = [...this.supports];
      a.commander = this.commander;
    }
    return a;
  }

  controls() {
    const box = h("div", { class: "odds-controls" });
    const supports = this.offer.supports || [];
    const commanders = this.offer.commanders || [];
    if (supports.length) {
      box.append(h("div", { class: "control-title" }, "Supporting units"));
      for (const id of supports) {
        const input = h("input", { type: "checkbox", value: id, onchange: (e) => {
          if (e.target.checked) this.supports.add(id); else this.supports.delete(id);
          this.refresh();
        } });
        box.append(h("label", { class: "check" }, input, " ", this.names(id)));
      }
    }
    if (commanders.length) {
      const select = h("select", { onchange: (e) => { this.commander = e.target.value || null; this.refresh(); } },
        h("option", { value: "" }, "no commander"),
        commanders.map((c) => h("option", { value: c }, this.names(c))));
      box.append(h("label", { class: "control-title" }, "Encouraged by ", select));
    }
    return box;
  }

  async refresh() {
    const seq = (this.seq = (this.seq || 0) + 1);
    this.go.disabled = true;
    try {
      const odds = await api.odds(this.gameId, this.token, this.action());
      if (seq !== this.seq) return;
      this.render(odds);
      this.go.disabled = false;
    } catch (err) {
      if (seq !== this.seq) return;
      this.body.replaceChildren(h("p", { class: "refusal" }, err.message,
        err.rule ? h("span", { class: "rule" }, ` (${err.rule})`) : null));
      // Beside the planned attacks a support may be allowed that alone is not.
      if (this.adding) this.go.disabled = false;
    }
  }

  render(odds) {
    const s = odds.summary;
    const hit = Object.entries(s.target_hits || {}).reduce((acc, [k, p]) => acc + (k !== "0" ? p : 0), 0);
    const headline = h("div", { class: "odds-headline", "data-test": "hit-chance" },
      h("span", { class: "big" }, percent(hit)), " to inflict a hit on ", this.names(odds.target));
    const mods = (title, list) => h("div", { class: "mods" }, h("div", { class: "odds-title" }, title),
      list.length ? h("ul", {}, list.map((m) => h("li", {}, m))) : h("p", { class: "muted" }, "none"));
    const risks = [];
    if (s.target_routed > 0) risks.push(["the target routs", s.target_routed]);
    if (s.attacker_routed > 0) risks.push(["your unit routs", s.attacker_routed]);
    if (s.ammunition_exhausted > 0) risks.push(["your unit runs out of ammunition", s.ammunition_exhausted]);
    if (s.commander_lost > 0) risks.push(["a commander is lost", s.commander_lost]);
    this.body.replaceChildren(
      headline,
      bars(`Hits on ${this.names(odds.target)}`, s.target_hits, "#8b1e1e"),
      Object.keys(s.attacker_hits || {}).length > 1 ? bars(`Hits on ${this.names(odds.attacker)}`, s.attacker_hits, "#1f3a68") : null,
      risks.length ? h("ul", { class: "risks" }, risks.map(([t, p]) => h("li", {}, h("b", {}, percent(p)), " that ", t))) : null,
      h("div", { class: "mods-row" }, mods("Your modifiers", odds.modifiers),
        odds.action.type === "attack" ? mods("Defender's modifiers", odds.defender_modifiers) : null),
      h("details", { class: "outcomes" }, h("summary", {}, `Every outcome (${odds.outcomes.length})`),
        h("ul", {}, odds.outcomes.map((o) => h("li", {}, h("b", {}, o.fraction), " — ", o.description)))),
    );
  }

  async commit() {
    if (this.adding) { this.onPlan(this.action()); return; }
    this.go.disabled = true;
    await this.onCommit(this.action());
  }
}
