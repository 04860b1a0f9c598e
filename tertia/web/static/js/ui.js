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

// "Royalists" -> "Royalists'", "Parliament (Earl of Essex)" -> "Parliament's": a name's
// closing aside is left out, since the possessive cannot follow it.
export function possessive(name) {
  const bare = name.replace(/ \([^()]*\)$/, "");
  return bare.endsWith("s") ? `${bare}'` : `${bare}'s`;
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
