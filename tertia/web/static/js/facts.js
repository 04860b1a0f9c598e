// What a piece shows, as its rule set declares it (``facts`` in the vocabulary) and as the
// server works it out for the viewing side (``view.pieces``, a unit's ``report``): a card
// {id, name, side, kind, command, x, y, facing, in_play, removed, facts: [...]}, each fact
// {key, label, kind, value, words, text, limit?, glyph?, on_base?, note?, help?}.
//
// The page reads nothing else of a piece's rule-set values: no fact is known here by its
// key, only by its kind (count, pips, flag, badge, word, hidden).

import { h } from "./ui.js";

export const PIPS_UP_TO = 6; // a count on the base is drawn as pips up to this, else as a number

// The declarations by key (their glyphs, where a fact of the piece carries none).
export class FactBook {
  constructor(declared) {
    this.specs = new Map((declared || []).map((s) => [s.key, s]));
  }

  glyph(fact) {
    if (fact.glyph) return fact.glyph;
    const spec = this.specs.get(fact.key);
    return spec && spec.on_base && (fact.kind === "badge" || fact.kind === "hidden") ? spec.glyph || "" : "";
  }
}

const facts = (card) => (card && Array.isArray(card.facts) ? card.facts : []);

// A fact with a limit to draw as a meter (a count).
export function meters(card) {
  return facts(card).filter((f) => f.kind === "count" && typeof f.value === "number" && typeof f.limit === "number");
}

// Is the piece hidden from the enemy (a hidden fact of its own side's, set)?
export function hiddenFact(card) {
  return facts(card).find((f) => f.kind === "hidden" && f.value) || null;
}

// What the base itself shows: counts as pips (or a number when many), and short marks
// (badges, a word's mark, a hidden fact's mark), each with the words for its title.
export function baseMarks(card, book) {
  const pips = [];
  const marks = [];
  for (const f of facts(card)) {
    if (!f.on_base) continue;
    if (f.kind === "count" || f.kind === "pips") {
      if (typeof f.value !== "number") continue;
      if (f.value <= PIPS_UP_TO) {
        if (f.value > 0) pips.push({ key: f.key, n: f.value, words: f.text });
      } else {
        marks.push({ key: f.key, kind: f.kind, mark: String(f.value), words: f.text });
      }
      continue;
    }
    const glyph = book ? book.glyph(f) : f.glyph || "";
    if (!glyph) continue;
    if (f.kind === "word" || f.kind === "badge" || f.kind === "hidden" || f.kind === "flag") {
      marks.push({ key: f.key, kind: f.kind, mark: glyph, words: f.text });
    }
  }
  return { pips, marks };
}

// The piece's facts in a line, for a tooltip.
export function factLine(card) {
  return facts(card).map((f) => f.text).filter(Boolean).join(" · ");
}

// A count as a meter: "Hits 2 of 4" and a pip for each of the limit, the value's on.
export function meter(f) {
  const limit = Math.max(0, Math.min(f.limit, 40));
  return h("div", { class: "fact-meter", "data-fact": f.key, "data-test": "fact-meter", title: f.help || null },
    h("span", {}, f.text),
    limit <= 12 ? h("span", { class: "pips" }, Array.from({ length: limit }, (_, i) => h("i", { class: i < f.value ? "on" : "" })))
      : h("span", { class: "meter-bar" }, h("span", { style: `width:${Math.round((100 * Math.min(f.value, f.limit)) / Math.max(1, f.limit))}%` })));
}

// The unit card's facts: a row for each fact told in words or numbers (meters and marks
// are drawn apart).
export function factRows(card) {
  const rows = [];
  for (const f of facts(card)) {
    if (f.kind === "count" && typeof f.limit === "number") continue; // a meter
    if (f.kind === "flag" || f.kind === "badge" || f.kind === "hidden") continue; // a tag
    const title = [f.help, f.note].filter(Boolean).join(" — ") || null;
    const value = f.kind === "pips" && typeof f.value === "number" && f.value <= PIPS_UP_TO && f.value > 0
      ? h("span", {}, h("span", { class: "pips small" }, Array.from({ length: f.value }, () => h("i", { class: "on" }))), ` ${f.words}`)
      : f.words;
    rows.push(h("div", { class: `row fact-${f.kind}`, "data-fact": f.key, title }, h("dt", {}, f.label), h("dd", {}, value)));
  }
  return rows;
}

// The facts that are set or not (flags, badges, a secret of one's own), as tags, each
// with its mark when the base shows one.
export function factTags(card, book) {
  const tags = facts(card).filter((f) => f.kind === "flag" || f.kind === "badge" || f.kind === "hidden");
  if (!tags.length) return null;
  return h("p", { class: "fact-tags", "data-test": "fact-tags" }, tags.map((f) => {
    const glyph = book ? book.glyph(f) : f.glyph || "";
    return h("span", { class: `tag fact-${f.kind}`, "data-fact": f.key, title: [f.help, f.note].filter(Boolean).join(" — ") || null },
      glyph ? h("b", {}, glyph) : null, f.value === true ? f.label : f.text,
      f.kind === "hidden" ? h("small", {}, " (your side alone sees this)") : null);
  }));
}

// The notes of the counts (what raised a limit ...), under the meters.
export function meterNotes(card) {
  return meters(card).filter((f) => f.note).map((f) => h("p", { class: "muted fact-note" }, `${f.label}: ${f.note}`));
}
