// The odds of a dice-driven action before the dice (an attack, a shot, a rally ...): exact
// outcomes from the engine's own resolution, the modifiers for each side, the optional
// fields the action kind declares (supports, a commander), and the button that rolls.
// A question of odds (``QuestionPanel``) asks the same of a unit in the rule set's own
// words (fire, charge, morale ...) whatever the phase, answered from the side's own view.

import { api } from "./api.js";
import { h, percent, put } from "./ui.js";

const hitsLabel = (hits) => (hits === "0" ? "no hit" : `${hits} hit${hits === "1" ? "" : "s"}`);

function bars(title, dist, colour, label = hitsLabel) {
  const rows = Object.entries(dist || {}).map(([hits, p]) =>
    h("div", { class: "bar-row" },
      h("span", { class: "bar-label" }, label(hits)),
      h("span", { class: "bar" }, h("span", { class: "bar-fill", style: `width:${(p * 100).toFixed(1)}%;background:${colour}` })),
      h("span", { class: "bar-value" }, percent(p))));
  return h("div", { class: "odds-block" }, h("div", { class: "odds-title" }, title), rows);
}

const unitsLabel = (n) => `${n} unit${n === "1" ? "" : "s"}`;

// An answer from the engine's odds (``Odds.to_dict()``) shown in ``this.body``: ``names``
// and ``sides`` give a unit's and a side's names.
export class OddsView {
  constructor(names, sides = (side) => side) {
    this.names = names;
    this.sides = sides;
    this.body = h("div", { class: "odds-body" }, h("p", { class: "muted" }, "Working out the odds…"));
  }

  refused(err) {
    if (err.told && err.told.chances.length) {
      // Too dear to walk: what the refusal tells leads, as a table; its long line folded away.
      const gist = err.message.split(": ")[0];
      put(this.body, h("p", { class: "refusal", "data-test": "odds-refusal" },
        `${gist.charAt(0).toUpperCase()}${gist.slice(1)}.`),
        this.bounded(err.told),
        h("details", { class: "muted" }, h("summary", {}, "In words"),
          h("p", { "data-test": "odds-refusal-words" }, err.message)));
      return;
    }
    put(this.body, h("p", { class: "refusal", "data-test": "odds-refusal" }, err.message,
      err.rule ? h("span", { class: "rule" }, ` (${err.rule})`) : null));
  }

  // What a refused question's walked branches prove of each chance, and what its draws
  // from the rest estimate: a table beside the refusal's line.
  bounded(told) {
    const share = (p) => `${(100 * p).toFixed(1)}%`;
    const estimated = told.draws > 0;
    const rows = told.chances.map((c) => h("tr", { "data-test": "odds-estimate" },
      h("td", {}, `${this.names(c.unit)} ${c.words}`),
      estimated ? h("td", { class: "estimate" }, share(c.estimate)) : null,
      estimated ? h("td", { class: "muted" }, `${share(c.interval[0])}–${share(c.interval[1])}`) : null,
      h("td", { class: "muted" }, `${share(c.proved[0])}–${share(c.proved[1])}`)));
    return h("div", { class: "odds-block", "data-test": "odds-bounded" },
      h("div", { class: "odds-title" }, estimated ? "Estimated, not exact" : "Bounds, not exact"),
      h("table", { class: "odds-bounds" },
        h("thead", {}, h("tr", {}, h("th", {}, "Chance"), estimated ? h("th", {}, "About") : null,
          estimated ? h("th", {}, "95% interval") : null, h("th", {}, "Proved between"))),
        h("tbody", {}, rows)),
      h("p", { class: "muted" }, `${share(told.walked)} of the chance walked exactly`
        + (estimated ? `; the rest estimated from ${told.draws.toLocaleString("en")} draws.` : ".")));
  }

  render(odds) {
    if (!odds.target) { this.renderOutcomes(odds); return; }
    // The hits on the target lead only where it is a party to the question: the enemy a
    // unit's own test faces ("parties") is measured among the other units, if at all.
    const party = (odds.parties || ["target"]).includes("target");
    if (!("target_hits" in odds.summary) || !party) { this.renderMeasures(odds); return; }
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
    put(this.body,
      headline,
      bars(`Hits on ${this.names(odds.target)}`, s.target_hits, "#8b1e1e"),
      Object.keys(s.attacker_hits || {}).length > 1 ? bars(`Hits on ${this.names(odds.attacker)}`, s.attacker_hits, "#1f3a68") : null,
      risks.length ? h("ul", { class: "risks" }, risks.map(([t, p]) => h("li", {}, h("b", {}, percent(p)), " that ", t))) : null,
      h("div", { class: "mods-row" }, mods("Your modifiers", odds.modifiers),
        odds.defender_modifiers.length ? mods("Defender's modifiers", odds.defender_modifiers) : null),
      ...this.wider(odds),
      this.likeliest(odds),
    );
  }

  // An action whose rule set counts no hits (Declare Thee Sir's morale points, Charge yr
  // Pikes!' figures): the chance of any of its first measure as the headline (of the
  // unit's first flag when nothing can be lost, as in a morale test), a bar for each
  // measure that can be more than nothing, and the chance of each flag it declares.
  renderMeasures(odds) {
    const s = odds.summary;
    const measures = odds.measures || [];
    const counts = measures.filter((m) => m.kind === "count");
    const any = (dist) => Object.entries(dist || {}).reduce((acc, [k, p]) => acc + (k !== "0" ? p : 0), 0);
    // A question about a unit alone names it twice (attacker and target): shown once; one
    // with no target (a morale test: "parties") measures the unit alone.
    const parties = odds.parties || ["target", "attacker"];
    const whos = (odds.target === odds.attacker ? ["attacker"] : ["target", "attacker"]).filter((w) => parties.includes(w));
    const first = counts[0];
    const flag = measures.filter((m) => m.kind === "unit_flag").flatMap((m) => whos.map((who) => [m, who]))
      .find(([m, who]) => s[`${who}_${m.key}`] > 0);
    const lead = parties.includes("target") ? "target" : "attacker";
    const headline = first && (any(s[`${lead}_${first.key}`]) > 0 || !flag)
      ? h("div", { class: "odds-headline", "data-test": "measure-chance" },
        h("span", { class: "big" }, percent(any(s[`${lead}_${first.key}`]))), ` chance of any ${first.label}: ${this.names(odds[lead])}`)
      : flag ? h("div", { class: "odds-headline", "data-test": "measure-chance" },
        h("span", { class: "big" }, percent(s[`${flag[1]}_${flag[0].key}`])), ` ${this.names(odds[flag[1]])} ${flag[0].label}`)
        : null;
    const blocks = [];
    for (const m of counts) {
      for (const [who, colour] of [["target", "#8b1e1e"], ["attacker", "#1f3a68"]].filter(([w]) => whos.includes(w))) {
        const dist = s[`${who}_${m.key}`];
        if (any(dist) > 0) blocks.push(bars(`${m.label}: ${this.names(odds[who])}`, dist, colour, (v) => v));
      }
    }
    const risks = [];
    if (s.target_routed > 0 && whos.includes("target")) risks.push(["the target routs off the table", s.target_routed]);
    if (s.attacker_routed > 0) risks.push(["your unit routs off the table", s.attacker_routed]);
    for (const m of measures) {
      if (m.kind === "unit_flag") {
        if (whos.includes("target") && s[`target_${m.key}`] > 0) risks.push([`${this.names(odds.target)}: ${m.label}`, s[`target_${m.key}`]]);
        if (s[`attacker_${m.key}`] > 0) risks.push([`${this.names(odds.attacker)}: ${m.label}`, s[`attacker_${m.key}`]]);
      } else if (m.kind === "flag" && s[m.key] > 0) risks.push([m.label, s[m.key]]);
    }
    if (s.commander_lost > 0) risks.push(["a commander is lost", s.commander_lost]);
    put(this.body,
      headline, ...blocks,
      risks.length ? h("ul", { class: "risks" }, risks.map(([t, p]) => h("li", {}, h("b", {}, percent(p)), " ", t))) : null,
      ...this.wider(odds),
      this.likeliest(odds),
    );
  }

  // The likeliest outcomes in words (those told alike together), then the rest counted.
  likeliest(odds) {
    const { outcomes, others } = odds.likeliest;
    const rows = outcomes.map((o) => h("li", {}, h("b", {}, o.fraction), " — ", o.description));
    if (others.count) {
      rows.push(h("li", { class: "muted" }, h("b", {}, others.fraction),
        ` — ${others.count} other outcome${others.count === 1 ? "" : "s"}`));
    }
    return h("details", { class: "outcomes", "data-test": "odds-outcomes" },
      h("summary", {}, `Likeliest outcomes (${outcomes.length + others.count} in all)`), h("ul", {}, rows));
  }

  // Beyond the target and the attacker: every other unit the action can touch, with its
  // chances and what it can lose, and each side's count of units routed.
  wider(odds) {
    const labels = { ...(odds.chance_labels || {}) };
    for (const m of odds.measures || []) labels[m.key] = m.label;
    const lost = ([key, dist]) => `${labels[key] || key} ${Object.entries(dist)
      .filter(([v]) => v !== "0").map(([v, p]) => `${v}: ${percent(p)}`).join(", ")}`;
    // The enemy a morale test faces is no party to it ("parties"): one of the others.
    const target = (odds.parties || ["target"]).includes("target") ? odds.target : null;
    const others = (odds.pieces || []).filter((p) => p.unit !== target && p.unit !== odds.attacker);
    const blocks = [];
    if (others.length) {
      blocks.push(h("div", { class: "odds-block", "data-test": "odds-pieces" },
        h("div", { class: "odds-title" }, "Other units"),
        h("ul", { class: "risks" }, others.map((p) => h("li", {}, h("b", {}, this.names(p.unit)), ": ",
          [...Object.entries(p.chances).map(([k, c]) => `${percent(c)} ${labels[k] || k}`),
            ...Object.entries(p.counts).map(lost)].join("; "))))));
    }
    for (const side of odds.sides || []) {
      if (Object.keys(side.units_routed).some((n) => n !== "0")) {
        blocks.push(bars(`Units routed: ${this.sides(side.side)}`, side.units_routed, "#6b4e16", unitsLabel));
      }
    }
    return blocks;
  }

  // An action aimed at no enemy (a rally): the likeliest outcomes with their chances.
  renderOutcomes(odds) {
    const { outcomes, others } = odds.likeliest;
    const best = outcomes[0];
    const rows = outcomes.map((o) =>
      h("li", {}, h("b", {}, percent(o.probability)), " ", o.description, h("small", { class: "muted" }, ` (${o.fraction})`)));
    if (others.count) {
      rows.push(h("li", {}, h("b", {}, percent(others.probability)), ` ${others.count} other outcome${others.count === 1 ? "" : "s"}`,
        h("small", { class: "muted" }, ` (${others.fraction})`)));
    }
    put(this.body,
      h("div", { class: "odds-headline", "data-test": "outcome-chance" },
        h("span", { class: "big" }, best ? percent(best.probability) : "–"), " ", best ? best.description : "no outcome"),
      h("ul", { class: "risks", "data-test": "outcomes" }, rows),
      ...this.wider(odds),
      odds.modifiers.length ? h("div", { class: "mods" }, h("div", { class: "odds-title" }, "Modifiers"),
        h("ul", {}, odds.modifiers.map((m) => h("li", {}, m)))) : null,
    );
  }
}

// Refusals saying only that the odds cannot be told (too many outcomes to walk, or odds
// that hang on what the rules hide), not that the action is forbidden.
const UNTOLD = new Set(["TOO_MANY_BRANCHES", "HIDDEN_INFORMATION"]);

export class OddsPanel extends OddsView {
  // ``offer``: a unit action from the server ({action, label, kind, target, options,
  // gathered_by}); ``kind``: its action kind from the vocabulary. Where actions of the kind
  // are made together (``gathered_by``), this one may join the player's ``planned`` ones
  // (``onPlan``) instead of being made alone.
  constructor({ gameId, token, offer, kind, names, sides, onCommit, onCancel, onPlan = null, planned = 0 }) {
    super(names, sides);
    this.gameId = gameId;
    this.token = token;
    this.offer = offer;
    this.kind = kind || { label: "Roll", fields: [] };
    this.onCommit = onCommit;
    this.onCancel = onCancel;
    this.onPlan = offer.gathered_by ? onPlan : null;
    this.adding = Boolean(this.onPlan && planned);
    this.chosen = {}; // optional field name -> a list of pieces, or one piece (null: none)
    this.node = h("section", { class: "odds-panel", "aria-label": "Odds" });
    // Where actions are made together, one made at once is the only one of its phase.
    const alone = this.onPlan && !this.adding;
    const what = this.kind.label.toLowerCase();
    const label = this.adding ? `Add to the ${what}s` : alone ? `${this.kind.label} alone` : `${this.kind.label}!`;
    this.go = h("button", { class: "btn primary", onclick: () => this.commit(), "data-test": this.adding ? "plan-add" : "roll",
      title: alone ? `Make this the phase's only ${what} now` : null }, label);
    const plan = this.onPlan && !this.adding
      ? h("button", { class: "btn", "data-test": "plan-add", title: `Make it together with other ${what}s`,
        onclick: () => this.onPlan(this.action()) }, `Plan with other ${what}s`)
      : null;
    put(this.node, h("h3", {}, offer.label), this.controls(), this.body,
      this.onPlan ? h("p", { class: "muted" }, `The odds of this ${what} made alone; all the phase's ${what}s are made together, then resolved one by one, each with its odds.`) : null,
      h("div", { class: "odds-actions" }, this.go, plan,
        h("button", { class: "btn", onclick: () => this.onCancel() }, "Cancel")));
    this.refresh();
  }

  action() {
    const a = { ...this.offer.action };
    for (const [name, value] of Object.entries(this.chosen)) a[name] = value instanceof Set ? [...value] : value;
    return a;
  }

  // A control for each optional field the offer lists pieces for: a list of units to tick,
  // or one piece to pick (the field's none_label for none).
  controls() {
    const box = h("div", { class: "odds-controls" });
    for (const [name, pieces] of Object.entries(this.offer.options || {})) {
      const field = (this.kind.fields || []).find((f) => f.name === name) || { name, label: name, kind: "own-units", none_label: "none" };
      if (!pieces.length) continue;
      if (field.kind === "own-units") {
        const ticked = (this.chosen[name] = new Set());
        box.append(h("div", { class: "control-title" }, field.label));
        for (const id of pieces) {
          const input = h("input", { type: "checkbox", value: id, onchange: (e) => {
            if (e.target.checked) ticked.add(id); else ticked.delete(id);
            this.refresh();
          } });
          box.append(h("label", { class: "check" }, input, " ", this.names(id)));
        }
      } else {
        this.chosen[name] = null;
        const select = h("select", { "data-field": name, onchange: (e) => { this.chosen[name] = e.target.value || null; this.refresh(); } },
          h("option", { value: "" }, field.none_label || "none"),
          pieces.map((c) => h("option", { value: c }, this.names(c))));
        box.append(h("label", { class: "control-title" }, `${field.label} `, select));
      }
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
      this.refused(err);
      // Beside the planned attacks a support may be allowed that alone is not.
      if (this.adding) this.go.disabled = false;
      else if (UNTOLD.has(err.code)) this.allowUntold(seq);
    }
  }

  // Odds that cannot be told do not forbid the action: once the server says the rules
  // allow it, it may be made without them, the refusal above its button.
  async allowUntold(seq) {
    let verdict;
    try {
      verdict = await api.validate(this.gameId, this.token, this.action());
    } catch {
      return;
    }
    if (seq !== this.seq || !verdict.legal) return;
    this.body.append(h("p", { class: "muted", "data-test": "odds-untold" },
      "The rules allow it: it may be made without its odds."));
    this.go.disabled = false;
  }

  async commit() {
    if (this.adding) { this.onPlan(this.action()); return; }
    this.go.disabled = true;
    await this.onCommit(this.action());
  }
}

// A question of odds (``POST .../question``) about one of the side's units as things stand,
// whatever the phase: the enemy it acts on (picked here or clicked on the table; for a
// morale test, the enemy causing it or none), the rule set's word (``questions`` in its
// description: its gun words offered for artillery alone, and those guns are never asked
// left out for them), and the answer, worked out by
// the server from the side's own view.
export class QuestionPanel extends OddsView {
  constructor({ gameId, token, unit, enemies, questions, names, sides, onClose }) {
    super(names, sides);
    this.gameId = gameId;
    this.token = token;
    this.unit = unit;
    const guns = new Set(questions.gun_words || []);
    const notGuns = new Set(questions.not_for_guns || []);
    this.alone = new Set(questions.alone_words || []); // asked of the unit alone, no enemy named
    this.words = questions.words.filter((w) => (unit.kind === "artillery" ? !notGuns.has(w) : !guns.has(w)));
    this.word = "";
    const near = (e) => Math.hypot(e.x - unit.x, e.y - unit.y);
    this.enemies = [...enemies].sort((a, b) => near(a) - near(b)); // the nearest first
    this.target = "";
    this.wordSelect = h("select", { "data-test": "question-word", onchange: (e) => this.ask({ word: e.target.value }) },
      h("option", { value: "" }, "its usual action"), this.words.map((w) => h("option", { value: w }, w)));
    this.targetSelect = h("select", { "data-test": "question-target", onchange: (e) => this.ask({ target: e.target.value }) });
    this.node = h("section", { class: "odds-panel", "aria-label": "Odds", "data-test": "question" },
      h("h3", {}, `Odds: ${names(unit.id)}`),
      h("div", { class: "odds-controls" },
        h("label", { class: "control-title" }, "Question ", this.wordSelect),
        h("label", { class: "control-title" }, "At ", this.targetSelect),
        h("p", { class: "muted" }, "Worked out from what your side can see.")),
      this.body,
      h("div", { class: "odds-actions" }, h("button", { class: "btn", onclick: () => onClose() }, "Close")));
    this.ask({});
  }

  // The enemy units to choose from; none for a question of the unit alone (a morale test).
  fillTargets() {
    const none = this.alone.has(this.word) ? "no enemy (a test of its own)" : "pick an enemy unit";
    put(this.targetSelect, h("option", { value: "" }, none),
      ...this.enemies.map((e) => h("option", { value: e.id, selected: e.id === this.target }, this.names(e.id))));
  }

  // Ask again with a new word or target (a unit clicked on the table).
  async ask({ word = this.word, target = this.target }) {
    this.word = word;
    this.target = target;
    this.wordSelect.value = word;
    this.fillTargets();
    const seq = (this.seq = (this.seq || 0) + 1);
    if (!target && !this.alone.has(word)) {
      put(this.body, h("p", { class: "muted" }, "Pick the enemy unit to ask about, or click it on the table."));
      return;
    }
    put(this.body, h("p", { class: "muted" }, "Working out the odds…"));
    try {
      const odds = await api.question(this.gameId, this.token,
        { question: word || null, attacker: this.unit.id, target: target || null });
      if (seq === this.seq) this.render(odds);
    } catch (err) {
      if (seq === this.seq) this.refused(err);
    }
  }

  // The game has moved on since the answer: ask again only when the player wants to.
  stale() {
    this.seq = (this.seq || 0) + 1;
    put(this.body, h("p", { class: "muted" }, "The position has changed since these odds. ",
      h("button", { class: "btn", "data-test": "ask-again", onclick: () => this.ask({}) }, "Ask again")));
  }

  // Is ``id`` one of the enemies this panel may ask about?
  aims(id) { return this.enemies.some((e) => e.id === id); }
}
