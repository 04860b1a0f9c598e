// The narrative log beside the map, and the dice tray that shows each roll.

import { h } from "./ui.js";

const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

export function dieFace(value, kind = "d6") {
  const ns = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(ns, "svg");
  s.setAttribute("viewBox", "0 0 100 100");
  s.setAttribute("class", "die");
  s.setAttribute("role", "img");
  s.setAttribute("aria-label", `${kind} showing ${value}`);
  const rect = document.createElementNS(ns, "rect");
  Object.entries({ x: 4, y: 4, width: 92, height: 92, rx: 18 }).forEach(([k, v]) => rect.setAttribute(k, v));
  s.append(rect);
  const pips = kind === "d6" ? PIPS[value] : null;
  if (pips) {
    for (const [cx, cy] of pips) {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", cx); c.setAttribute("cy", cy); c.setAttribute("r", 9);
      s.append(c);
    }
  } else {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", 50); t.setAttribute("y", 64); t.setAttribute("text-anchor", "middle");
    t.textContent = String(value);
    s.append(t);
  }
  return s;
}

export class LogView {
  constructor(host) {
    this.host = host;
    this.list = h("ol", { class: "log-list", "aria-label": "Battle log" });
    host.append(this.list);
    this.count = 0;
    this.shown = new Set();
  }

  reset() { this.list.replaceChildren(); this.count = 0; this.shown = new Set(); }

  append(entries, sideNames = {}) {
    for (const entry of entries) {
      // Refreshes can overlap (an action's answer and the wait for changes), each asking
      // from where the log stood when it set out: an entry already shown is not shown again.
      if (this.shown.has(entry.index)) continue;
      this.shown.add(entry.index);
      const item = h("li", { class: "log-entry", dataset: { index: entry.index } });
      for (const line of entry.lines) {
        if (line.answers) this.answered(line.answers, item);
        const keys = Object.fromEntries(["awaits", "answers"].filter((k) => line[k]).map((k) => [k, line[k]]));
        const row = h("div", { class: `log-line kind-${line.kind}`, dataset: keys }, line.text);
        if (line.kind === "dice" || line.kind === "attack") {
          const dice = entry.dice.slice(0, 6).map((d) => dieFace(d.value, d.die));
          if (line.kind === "attack" && dice.length) row.prepend(h("span", { class: "log-dice" }, dice));
        }
        item.append(row);
      }
      if (entry.lines.length) this.list.append(item);
      this.count = Math.max(this.count, entry.index + 1);
    }
    this.host.scrollTop = this.host.scrollHeight;
  }

  // A choice made takes the place of the decision it answers, where only decisions were
  // told since (two may be awaited together), as the battle's narrative tells them: the
  // lines are walked back from the newest (the entry being built, then those shown).
  answered(key, item) {
    let entry = item;
    let row = item.lastElementChild;
    while (entry) {
      for (; row; row = row.previousElementSibling) {
        if (!row.classList.contains("kind-decision")) return;
        if (row.dataset.awaits === key) {
          row.remove();
          if (entry !== item && !entry.childElementCount) entry.remove();
          return;
        }
      }
      entry = entry === item ? this.list.lastElementChild : entry.previousElementSibling;
      row = entry && entry.lastElementChild;
    }
  }
}

// The dice of a roll, each face with what it was rolled for (the last eight of many).
export function diceFigures(dice) {
  return h("div", { class: "tray-dice" }, dice.slice(-8).map((d) => h("figure", { class: "tray-die", title: d.purpose },
    dieFace(d.value, d.die), h("figcaption", {}, d.purpose))));
}

// A tray over the map that shows the dice of the latest roll for a few seconds.
export class DiceTray {
  constructor(host) {
    this.node = h("div", { class: "dice-tray", hidden: true, "aria-live": "polite" });
    host.append(this.node);
    this.timer = null;
  }

  show(dice, headline = "") {
    if (!dice.length) return;
    this.node.replaceChildren(...(headline ? [h("div", { class: "tray-headline" }, headline)] : []), diceFigures(dice));
    this.node.hidden = false;
    this.node.classList.remove("rolling");
    void this.node.offsetWidth;
    this.node.classList.add("rolling");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.node.hidden = true; }, 6000);
  }

  // Put away at once, its dice with it.
  hide() {
    clearTimeout(this.timer);
    this.node.hidden = true;
    this.node.classList.remove("rolling");
    this.node.replaceChildren();
  }
}
