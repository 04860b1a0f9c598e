// Small DOM helpers shared by the screens.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "html") node.innerHTML = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// Put ``children`` in ``node`` in place of what it holds, leaving out null, undefined and
// false (which replaceChildren and append would otherwise write out as words).
export function put(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

export function toast(message, kind = "info", ms = 4200) {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  box.append(item);
  setTimeout(() => item.classList.add("leaving"), ms - 400);
  setTimeout(() => item.remove(), ms);
}

export function percent(p) {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  const v = p * 100;
  return v < 1 ? "<1%" : v > 99 && v < 100 ? ">99%" : `${Math.round(v)}%`;
}

// "Royalists" -> "Royalists'", "Parliament (Earl of Essex)" -> "Parliament's": a plural in
// s takes the apostrophe alone, any other name "'s", a person's (person: a commander)
// whatever its last letter ("Colonel Hollis's"), as tertia.core.narration.possessive has
// it. A name's closing aside is left out, since the possessive cannot follow it.
export function possessive(name, { person = false } = {}) {
  const bare = name.replace(/ \([^()]*\)$/, "");
  const plural = !person && bare.endsWith("s") && !bare.endsWith("'s");
  return plural ? `${bare}'` : `${bare}'s`;
}

const PLURAL_PRONOUNS = new Set(["they", "They", "we", "We", "you", "You"]);

// Does the name of a side or a piece take its verb in the plural? So its head noun, the
// last word before any bracket or "of", ends in a plural s ("Royalists", "Usher's
// Dragoons", not "Parliament (Earl of Essex)" or "Lord Saye's Regiment of Foot"), as
// tertia.core.narration.is_plural_name has it.
export function isPluralName(name) {
  if (PLURAL_PRONOUNS.has(name)) return true;
  const head = name.split(" (")[0].split(" of ")[0].split(/\s+/).filter(Boolean);
  const last = head.length ? head[head.length - 1] : "";
  return last.endsWith("s") && !["'s", "ss", "us"].some((end) => last.endsWith(end));
}

// ``side`` doing ``verb``, the verb agreeing with the name: "Royalists win", "Parliament
// wins", "Parliament (Earl of Essex) carries"; a person's name (person: a commander) the
// third person singular whatever it ends in, as tertia.core.narration.side_does has it.
export function sideDoes(side, verb, { person = false } = {}) {
  if (!person && isPluralName(side)) return `${side} ${verb}`;
  const at = verb.indexOf(" ");
  let word = at < 0 ? verb : verb.slice(0, at);
  const rest = at < 0 ? "" : verb.slice(at);
  if (["s", "sh", "ch", "x", "z", "o"].some((end) => word.endsWith(end))) word += "es";
  else if (word.endsWith("y") && !"aeiou".includes(word.slice(-2, -1))) word = `${word.slice(0, -1)}ies`;
  else word += "s";
  return `${side} ${word}${rest}`;
}

export function sideName(table, side) {
  const found = (table.sides || []).find((s) => s.id === side);
  return found ? found.name : side;
}

export function sideColour(table, side) {
  const found = (table.sides || []).find((s) => s.id === side);
  return found ? found.colour : "#5b5b5b";
}

export function setTopbar(...nodes) {
  const slot = clear(document.getElementById("topbar-slot"));
  slot.append(...nodes);
}

export function phaseTitle(phase) {
  if (!phase) return "";
  return phase.charAt(0).toUpperCase() + phase.slice(1).replace(/_/g, " ");
}

// Show a modal dialog: the keyboard is taken into it (its first control focused, Tab kept
// among its controls) and Escape calls ``onEscape`` when given. Returns the dialog.
export function openDialog(dialog, onEscape = null) {
  const controls = () => [...dialog.querySelectorAll("button:not([disabled]), a[href], input, select, textarea")];
  // On the window, so that Escape works wherever the focus is; gone with the dialog.
  const keys = (e) => {
    if (!dialog.isConnected) { window.removeEventListener("keydown", keys, true); return; }
    if (e.key === "Escape" && onEscape) { e.preventDefault(); e.stopPropagation(); onEscape(); return; }
    if (e.key !== "Tab") return;
    const all = controls();
    if (!all.length) return;
    const first = all[0];
    const last = all[all.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
    else if (!dialog.contains(document.activeElement)) { e.preventDefault(); first.focus(); }
  };
  window.addEventListener("keydown", keys, true);
  document.body.append(dialog);
  const first = dialog.querySelector(".btn.primary") || controls()[0];
  if (first) first.focus();
  return dialog;
}

// A battle's story and, after it, how its order of battle is drawn up under the rule set
// played (the scenario's "description" and "notes"): a paragraph each, none for one empty.
export function briefingParagraphs(description, notes) {
  return [
    description ? h("p", { class: "briefing-story" }, description) : null,
    notes ? h("p", { class: "briefing-notes" }, h("b", {}, "As drawn up here. "), notes) : null,
  ].filter(Boolean);
}

// How the game is played, with the players the server plays its sides with, by name.
export function modeWords(game) {
  const mode = { hotseat: "Hotseat", ai: "Against the AI", link: "Two players", watch: "AI against AI" }[game.mode] || game.mode;
  const players = [...new Set((game.sides || []).map((s) => s.player).filter(Boolean))];
  return players.length ? `${mode} (${players.join(", ")})` : mode;
}
