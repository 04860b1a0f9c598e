// The table in SVG at true scale: one SVG user unit is one inch, north at the top.
// Draws terrain once, then units, markers and overlays on demand; zooms and pans.

import { baseMarks, factLine, hiddenFact } from "./facts.js";
import { possessive } from "./ui.js";

const SAME_PLACE = 6; // inches within which two marks of one name are one place

const NS = "http://www.w3.org/2000/svg";
const MARGIN = 3;

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const f = (v) => Math.round(v * 1000) / 1000;

export class TableMap {
  constructor(host, table) {
    this.table = table;
    this.host = host;
    this.colours = Object.fromEntries(table.sides.map((s) => [s.id, s.colour]));
    this.sideNames = Object.fromEntries(table.sides.map((s) => [s.id, s.name]));
    this.sy = (y) => table.depth - y;
    this.root = svg("svg", {
      class: "table-map", xmlns: NS, role: "img",
      "aria-label": `Map of ${table.title}`, preserveAspectRatio: "xMidYMid meet",
    });
    this.defs = svg("defs");
    this.root.append(this.defs);
    this.layers = {};
    for (const name of ["paper", "terrain", "grid", "names", "deploy", "objectives", "supplies", "overlays",
      "traces", "units", "pins", "labels", "sight", "ghost", "ruler"]) {
      this.layers[name] = svg("g", { class: `layer-${name}` });
      this.root.append(this.layers[name]);
    }
    host.append(this.root);
    this.drawPatterns();
    this.drawTable();
    this.fit();
    this.installZoomPan();
    this.installPeek();
    this.viewer = null; // the side whose pieces' names come first
    if (window.ResizeObserver) new ResizeObserver(() => this.relayout()).observe(this.root);
  }

  // --- coordinates ---------------------------------------------------------------------

  toTable(clientX, clientY) {
    const pt = this.root.createSVGPoint();
    pt.x = clientX; pt.y = clientY;
    const m = this.root.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = pt.matrixTransform(m.inverse());
    return { x: p.x, y: this.table.depth - p.y };
  }

  setViewBox(x, y, w, h) {
    const zoomed = !this.view || Math.abs(this.view.w - w) > 1e-6;
    this.view = { x, y, w, h };
    this.root.setAttribute("viewBox", `${f(x)} ${f(y)} ${f(w)} ${f(h)}`);
    if (zoomed) this.relayout();
  }

  // Lay the names out again once the zoom has settled (names keep their size on screen).
  relayout() {
    if (this.relayoutPending) return;
    this.relayoutPending = true;
    requestAnimationFrame(() => { this.relayoutPending = false; this.layoutLabels(); });
  }

  fit() {
    const t = this.table;
    this.setViewBox(-MARGIN, -MARGIN, t.width + 2 * MARGIN, t.depth + 2 * MARGIN);
  }

  zoom(factor, cx = null, cy = null) {
    const v = this.view;
    const t = this.table;
    const w = Math.min(Math.max(v.w * factor, 6), (t.width + 2 * MARGIN) * 1.6);
    const h = v.h * (w / v.w);
    const ax = cx === null ? v.x + v.w / 2 : cx;
    const ay = cy === null ? v.y + v.h / 2 : cy;
    this.setViewBox(ax - (ax - v.x) * (w / v.w), ay - (ay - v.y) * (h / v.h), w, h);
  }

  installZoomPan() {
    this.root.addEventListener("wheel", (e) => {
      e.preventDefault();
      const pt = this.toTable(e.clientX, e.clientY);
      this.zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, pt.x, this.sy(pt.y));
    }, { passive: false });
    let pan = null;
    this.root.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || e.target.closest(".unit, .ghost, .handle")) return;
      pan = { x: e.clientX, y: e.clientY, view: { ...this.view }, dragged: false, id: e.pointerId };
    });
    this.root.addEventListener("pointermove", (e) => {
      if (!pan || e.pointerId !== pan.id) return;
      const rect = this.root.getBoundingClientRect();
      const scale = Math.max(pan.view.w / rect.width, pan.view.h / rect.height);
      const dx = (e.clientX - pan.x) * scale;
      const dy = (e.clientY - pan.y) * scale;
      if (Math.abs(e.clientX - pan.x) + Math.abs(e.clientY - pan.y) > 4) {
        pan.dragged = true;
        this.root.classList.add("panning");
      }
      if (pan.dragged) this.setViewBox(pan.view.x - dx, pan.view.y - dy, pan.view.w, pan.view.h);
    });
    const end = (e) => {
      if (pan && pan.dragged) {
        this.suppressClick = true;
        setTimeout(() => { this.suppressClick = false; }, 0);
      }
      pan = null;
      this.root.classList.remove("panning");
    };
    this.root.addEventListener("pointerup", end);
    this.root.addEventListener("pointercancel", end);
  }

  // --- the table and its terrain ----------------------------------------------------------

  drawPatterns() {
    const woods = svg("pattern", { id: "pat-woods", width: 1.6, height: 1.4, patternUnits: "userSpaceOnUse" },
      svg("circle", { cx: 0.4, cy: 0.4, r: 0.32, fill: "#3f5a30", "fill-opacity": 0.75 }),
      svg("circle", { cx: 1.2, cy: 1.05, r: 0.28, fill: "#46653a", "fill-opacity": 0.75 }));
    const field = svg("pattern", { id: "pat-field", width: 0.6, height: 0.6, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(35)" },
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 0.6, stroke: "#c9b474", "stroke-width": 0.07 }));
    const marsh = svg("pattern", { id: "pat-marsh", width: 1.2, height: 0.8, patternUnits: "userSpaceOnUse" },
      svg("path", { d: "M0.2,0.5 h0.5 M0.35,0.5 v-0.25 M0.5,0.5 v-0.32", stroke: "#4f7a6a",
        "stroke-width": 0.07, fill: "none" }));
    const ford = svg("pattern", { id: "pat-ford", width: 0.5, height: 0.5, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(90)" },
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 0.5, stroke: "#e9f1f4", "stroke-width": 0.1 }));
    const broken = svg("pattern", { id: "pat-broken", width: 1, height: 1, patternUnits: "userSpaceOnUse" },
      svg("circle", { cx: 0.25, cy: 0.3, r: 0.09, fill: "#8f7d56" }),
      svg("circle", { cx: 0.7, cy: 0.75, r: 0.07, fill: "#8f7d56" }));
    const deploy = svg("pattern", { id: "pat-deploy", width: 1.2, height: 1.2, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(-45)" },
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 1.2, stroke: "#b8860b", "stroke-width": 0.16, "stroke-opacity": 0.5 }));
    this.defs.append(woods, field, marsh, ford, broken, deploy);
  }

  path(points) {
    return "M" + points.map(([x, y]) => `${f(x)},${f(this.sy(y))}`).join(" L") + " Z";
  }

  polyline(points) {
    return points.map(([x, y]) => `${f(x)},${f(this.sy(y))}`).join(" ");
  }

  drawTable() {
    const t = this.table;
    const pal = t.palette;
    this.layers.paper.append(
      svg("rect", { x: -50, y: -50, width: t.width + 100, height: t.depth + 100, fill: "#d8ccb0" }),
      svg("rect", { x: 0, y: 0, width: t.width, height: t.depth, fill: pal.table, filter: null }),
    );
    const order = ["field", "broken", "hill", "marsh", "lake", "woods", "town", "river", "ford", "bridge",
      "road", "hedge", "entrenchment"];
    const terrain = [...t.terrain].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.height - b.height);
    for (const feat of terrain) this.layers.terrain.append(this.feature(feat));
    for (const feat of terrain) if (feat.name) this.layers.names.append(this.featureName(feat));
    // A faint 6" grid, inch labels every 12", and the table edge.
    const lines = [];
    for (let x = 6; x < t.width; x += 6) lines.push(`M${x},0 V${t.depth}`);
    for (let y = 6; y < t.depth; y += 6) lines.push(`M0,${f(this.sy(y))} H${t.width}`);
    this.layers.grid.append(svg("path", { d: lines.join(" "), stroke: pal.ink, "stroke-opacity": 0.07,
      "stroke-width": 0.06, fill: "none" }));
    for (let x = 0; x <= t.width; x += 12) {
      this.layers.grid.append(svg("text", { x, y: t.depth + 1.3, class: "edge-label", "text-anchor": "middle" }, `${x}"`));
    }
    for (let y = 0; y <= t.depth; y += 12) {
      this.layers.grid.append(svg("text", { x: -0.5, y: f(this.sy(y) + 0.25), class: "edge-label", "text-anchor": "end" }, `${y}"`));
    }
    this.layers.grid.append(svg("rect", { x: 0, y: 0, width: t.width, height: t.depth, fill: "none",
      stroke: pal.ink, "stroke-width": 0.12 }));
    // The north arrow, beside the table's south-east corner: the zoom buttons stand over
    // the map's top right corner, and the dice tray over its top left.
    this.layers.grid.append(svg("g", { transform: `translate(${t.width + 1.6},${f(t.depth - 0.8)})`, class: "compass" },
      svg("path", { d: "M0,-0.9 L0.4,0.55 L0,0.25 L-0.4,0.55 Z", fill: pal.ink }),
      svg("text", { x: 0, y: -1.1, "text-anchor": "middle", class: "edge-label strong" }, "N")));
    // Each side's table edge.
    for (const s of t.sides) {
      const y = s.edge === "south" ? t.depth + 2.4 : -1.6;
      this.layers.grid.append(svg("text", { x: t.width / 2, y, "text-anchor": "middle", class: "edge-side",
        fill: s.colour }, `${possessive(s.name)} edge`));
    }
  }

  feature(feat) {
    const st = this.table.styles[feat.kind] || { fill: "#ccc", stroke: "#888" };
    const cls = `terrain ${feat.kind}`;
    if (feat.line && feat.line.length) {
      const pts = this.polyline(feat.line);
      const w = Math.max(0.15, feat.width);
      const g = svg("g", { class: cls });
      const common = { points: pts, fill: "none", "stroke-linejoin": "round" };
      if (feat.kind === "river") {
        g.append(svg("polyline", { ...common, stroke: st.stroke, "stroke-width": w + 0.25 }),
          svg("polyline", { ...common, stroke: st.fill, "stroke-width": w }),
          svg("polyline", { ...common, stroke: "#b9d4e6", "stroke-width": w * 0.12, "stroke-dasharray": "0.6 0.9" }));
      } else if (feat.kind === "road") {
        g.append(svg("polyline", { ...common, stroke: st.stroke, "stroke-width": w + 0.15 }),
          svg("polyline", { ...common, stroke: st.fill, "stroke-width": w }));
      } else if (feat.kind === "hedge") {
        g.append(svg("polyline", { ...common, stroke: st.fill, "stroke-width": Math.max(0.3, w),
          "stroke-linecap": "round", "stroke-dasharray": "0.3 0.2" }));
      } else {
        g.append(svg("polyline", { ...common, stroke: st.stroke, "stroke-width": w + 0.15 }),
          svg("polyline", { ...common, stroke: st.fill, "stroke-width": w }));
      }
      g.append(svg("title", {}, feat.name ? `${feat.name} (${st.label || feat.kind})` : st.label || feat.kind));
      return g;
    }
    const d = this.path(feat.outline);
    const g = svg("g", { class: cls });
    const overlay = { woods: "pat-woods", field: "pat-field", marsh: "pat-marsh", ford: "pat-ford", broken: "pat-broken" }[feat.kind];
    if (feat.kind === "hill") {
      const fills = ["#ddcb9e", "#cfb98a", "#c1a877", "#b39766", "#a58757"];
      g.append(svg("path", { d, fill: fills[Math.min(feat.height, fills.length) - 1], stroke: st.stroke, "stroke-width": 0.1 }));
      // An inner contour per level, drawn by shrinking the outline towards its centre.
      const cx = feat.outline.reduce((a, p) => a + p[0], 0) / feat.outline.length;
      const cy = feat.outline.reduce((a, p) => a + p[1], 0) / feat.outline.length;
      for (let k = 1; k <= feat.height; k++) {
        const s = 1 - k * 0.22;
        if (s <= 0.1) break;
        const inner = feat.outline.map(([x, y]) => [cx + (x - cx) * s, cy + (y - cy) * s]);
        g.append(svg("path", { d: this.path(inner), fill: "none", stroke: st.stroke, "stroke-width": 0.06,
          "stroke-opacity": 0.7 }));
      }
    } else if (feat.kind === "field" && feat.hedged) {
      g.append(svg("path", { d, fill: st.fill }),
        svg("path", { d, fill: "url(#pat-field)", stroke: (this.table.styles.hedge || st).fill, "stroke-width": 0.3,
          "stroke-dasharray": "0.2 0.25", "stroke-linecap": "round", "stroke-linejoin": "round" }));
    } else if (feat.kind === "town") {
      g.append(svg("path", { d, fill: st.fill, stroke: st.stroke, "stroke-width": 0.1 }));
      g.append(this.townBlocks(feat.outline));
    } else {
      const dash = { broken: "0.4 0.2", marsh: "0.2 0.2", ford: "0.3 0.2" }[feat.kind];
      g.append(svg("path", { d, fill: st.fill, stroke: st.stroke, "stroke-width": 0.1, "stroke-dasharray": dash }));
      if (overlay) g.append(svg("path", { d, fill: `url(#${overlay})` }));
    }
    g.append(svg("title", {}, feat.name ? `${feat.name} (${st.label || feat.kind})` : st.label || feat.kind));
    return g;
  }

  townBlocks(outline) {
    const xs = outline.map((p) => p[0]);
    const ys = outline.map((p) => p[1]);
    const [minx, maxx, miny, maxy] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const g = svg("g", { fill: "#7d6650", stroke: "#5a4636", "stroke-width": 0.04 });
    const inside = (x, y) => {
      let ok = false;
      for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
        const [xi, yi] = outline[i];
        const [xj, yj] = outline[j];
        if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) ok = !ok;
      }
      return ok;
    };
    let row = 0;
    for (let y = miny + 0.45; y + 0.8 <= maxy; y += 1.25, row++) {
      for (let x = minx + 0.45 + (row % 2 ? 0.6 : 0); x + 1.1 <= maxx; x += 1.55) {
        if (inside(x, y) && inside(x + 1.1, y + 0.8) && inside(x + 1.1, y) && inside(x, y + 0.8)) {
          g.append(svg("rect", { x: f(x), y: f(this.sy(y + 0.8)), width: 1.1, height: 0.8 }));
        }
      }
    }
    return g;
  }

  featureName(feat) {
    let x;
    let y;
    if (feat.line && feat.line.length) {
      const mid = Math.floor(feat.line.length / 2);
      const a = feat.line[Math.max(0, mid - 1)];
      const b = feat.line[mid];
      x = (a[0] + b[0]) / 2;
      y = (a[1] + b[1]) / 2 + feat.width / 2 + 0.8;
    } else {
      x = feat.outline.reduce((s, p) => s + p[0], 0) / feat.outline.length;
      y = feat.outline.reduce((s, p) => s + p[1], 0) / feat.outline.length;
    }
    return svg("text", { x: f(x), y: f(this.sy(y)), class: "terrain-name", "text-anchor": "middle",
      "data-x": f(x), "data-y": f(this.sy(y)) }, feat.name);
  }

  // --- pieces ------------------------------------------------------------------------------

  // ``pieces``: what each piece shows the viewing side (the server's cards, by id);
  // ``book``: the rule set's fact declarations (a FactBook). The map reads a piece's
  // rule-set values only from its card's facts, and nothing of the turn's marks.
  drawState(state, { selected = null, targets = [], focus = null, tableMarkers = [], points = [],
    pieces = {}, book = null } = {}) {
    this.state = state;
    this.pieces = pieces || {};
    this.book = book;
    const units = this.layers.units;
    const labels = this.layers.labels;
    units.replaceChildren();
    labels.replaceChildren();
    this.layers.objectives.replaceChildren();
    this.layers.pins.replaceChildren();
    this.layers.supplies.replaceChildren();
    for (const o of state.objectives || []) this.layers.objectives.append(this.objective(o));
    for (const m of tableMarkers) this.layers.supplies.append(this.tableMarker(m));
    for (const p of points) {
      this.layers.objectives.append(this.point(p));
      this.layers.pins.append(this.pin(p));
    }
    const ordered = [...state.units].filter((u) => !u.removed)
      .sort((a, b) => (a.kind === "commander") - (b.kind === "commander"));
    const names = labelNames(ordered);
    this.labelItems = [];
    const own = this.viewer;
    for (const u of ordered) {
      const card = this.pieces[u.id] || null;
      for (const stand of this.strayStands(u)) units.append(this.stand(u, stand));
      units.append(this.unit(u, card, u.id === selected, targets.includes(u.id), u.id === focus));
      const node = this.label(u, names.get(u.id));
      labels.append(node);
      const order = u.id === selected || u.id === focus ? 0 : targets.includes(u.id) ? 1 : u.kind === "commander" ? 3 : 2;
      this.labelItems.push({ u, node, order: order + (own && u.side !== own ? 0.5 : 0) });
    }
    this.layoutLabels();
  }

  objective(o) {
    const colour = o.taken_by ? this.colours[o.taken_by] : "#7a5c12";
    const y = this.sy(o.y);
    return svg("g", { class: "objective" },
      svg("circle", { cx: o.x, cy: y, r: o.radius, fill: o.taken_by ? colour : "none", "fill-opacity": 0.12,
        stroke: colour, "stroke-width": 0.12, "stroke-dasharray": "0.5 0.35" }),
      svg("text", { x: o.x, y: y - o.radius - 0.3, "text-anchor": "middle", class: "objective-name", fill: colour },
        o.name + (o.taken_by ? " ★" : "")),
      svg("title", {}, `Objective: ${o.name}${o.taken_by ? ` (held by ${this.sideNames[o.taken_by] || o.taken_by})` : ""}`));
  }

  // An objective or vital point of a side (the rule set's summary "points"): its ring, in
  // the colour of the side holding it, its name and its title; its mark is a pin.
  point(p) {
    const held = p.held_by ? this.colours[p.held_by] || "#555" : null;
    const y = this.sy(p.y);
    const what = p.kind === "vital" ? "Vital point" : "Objective";
    const holder = p.held_by ? `held by ${this.sideNames[p.held_by] || p.held_by}` : "held by neither side";
    return svg("g", { class: `point ${p.kind}`, "data-test": "point", "data-held": p.held_by || "",
      transform: `translate(${f(p.x)},${f(y)})` },
    // the whole ring answers a hover with the title, the pin above it taking none
    svg("circle", { r: 1.1, fill: held || "none", "fill-opacity": held ? 0.25 : 0, stroke: held || "#7a5c12",
      "stroke-width": 0.14, "stroke-dasharray": held ? "none" : "0.4 0.3", "pointer-events": "visible" }),
    svg("text", { y: 1.75, "text-anchor": "middle", class: "objective-name", fill: held || "#7a5c12" }, p.name),
    svg("title", {}, `${what} of ${this.sideNames[p.side] || p.side}: ${p.name}, ${holder}`));
  }

  // A point's mark, a flag (objective) or a diamond (vital point) of its side's colour,
  // drawn above the pieces so that a piece standing on the point never hides it; it takes
  // no clicks, which go to the piece (or, off the pieces, to the point's title below).
  pin(p) {
    const colour = this.colours[p.side] || "#555";
    return svg("g", { class: `pin ${p.kind}`, "data-test": "pin", transform: `translate(${f(p.x)},${f(this.sy(p.y))})` },
      p.kind === "vital"
        ? svg("rect", { x: -0.45, y: -0.45, width: 0.9, height: 0.9, transform: "rotate(45)", fill: colour, stroke: "#2b2620", "stroke-width": 0.06 })
        : svg("path", { d: "M-0.1,0.6 V-0.7 L0.6,-0.45 L-0.1,-0.2", fill: colour, stroke: "#2b2620", "stroke-width": 0.06 }));
  }

  // A marker the rule set keeps on the table (a supply base ...), crossed out once taken;
  // its title names it as players call it (the server's ``name``, else its kind and side)
  // and whoever took it, a side or a piece, by the battle's names.
  tableMarker(m) {
    const colour = this.colours[m.side] || "#555";
    const w = m.width || 2;
    const d = m.depth || 1;
    const g = svg("g", { class: `table-marker ${m.kind}`, opacity: m.taken_by ? 0.45 : 1,
      transform: `translate(${f(m.x)},${f(this.sy(m.y))})` },
      svg("rect", { x: -w / 2, y: -d / 2, width: w, height: d, fill: "#f6edd5", stroke: colour, "stroke-width": 0.15 }),
      svg("circle", { cx: 0, cy: 0, r: Math.min(w, d) * 0.22, fill: colour }),
      svg("title", {}, `${this.markerName(m)}${m.taken_by ? `, taken by ${this.takerName(m.taken_by)}` : ""}`));
    if (m.taken_by) g.append(svg("path", { d: `M${-w / 2},${-d / 2} L${w / 2},${d / 2} M${w / 2},${-d / 2} L${-w / 2},${d / 2}`,
      stroke: "#2b2620", "stroke-width": 0.1 }));
    return g;
  }

  // A table marker's name, for words a player reads: the one the server gives it, else
  // its kind and whose it is.
  markerName(m) {
    if (m.name) return m.name;
    return m.side ? `${m.label} of ${this.sideNames[m.side] || m.side}` : m.label;
  }

  // Who took a table marker, by id: a side by the battle's name for it, else a piece.
  takerName(id) {
    return this.sideNames[id] || this.pieceName(id);
  }

  // A piece's name by its id, for words a player reads (its id only if it has none).
  pieceName(id) {
    const piece = (this.state?.units || []).find((u) => u.id === id);
    return piece?.name || id;
  }

  baseTransform(u) { return `translate(${f(u.x)},${f(this.sy(u.y))}) rotate(${f(u.facing)})`; }

  // The stands of a unit whose stands have scattered (a rout), but the first still in
  // play: the unit itself is drawn there, at its flag.
  strayStands(u) {
    const left = (u.stands || []).filter((s) => !s.removed);
    return left.slice(1);
  }

  stand(u, s) {
    const colour = this.colours[u.side] || "#555";
    return svg("g", { class: "unit stand troop", "data-unit": u.id, "data-side": u.side,
      transform: this.baseTransform(s) },
    svg("rect", { class: "base", x: -s.width / 2, y: -s.depth / 2, width: s.width, height: s.depth, fill: colour,
      "fill-opacity": 0.75, stroke: "#2b2620", "stroke-width": 0.07 }),
    svg("line", { class: "front", x1: -s.width / 2, y1: -s.depth / 2 + 0.09, x2: s.width / 2, y2: -s.depth / 2 + 0.09,
      stroke: "#f1d27a", "stroke-width": 0.14 }),
    svg("title", {}, `${u.name || u.id}: a stand apart from its colours`));
  }

  unit(u, card, selected, targeted, focused = false) {
    const colour = this.colours[u.side] || "#555";
    const w = u.width;
    const d = u.depth;
    const hidden = hiddenFact(card);
    const cls = ["unit", u.kind === "commander" ? "commander" : "troop", selected ? "selected" : "",
      targeted ? "targeted" : "", focused ? "focus" : "", hidden ? "hidden-piece" : ""].join(" ");
    const g = svg("g", { class: cls, "data-unit": u.id, "data-side": u.side, transform: this.baseTransform(u),
      tabindex: 0, role: "button", "aria-label": u.name || u.id });
    if (selected || targeted || focused) {
      g.append(svg("rect", { class: "halo", x: -w / 2 - 0.35, y: -d / 2 - 0.35, width: w + 0.7, height: d + 0.7, rx: 0.35 }));
    }
    if (u.kind === "commander") {
      g.append(svg("rect", { class: "shadow", x: -w / 2 + 0.12, y: -d / 2 + 0.15, width: w, height: d }));
      g.append(svg("rect", { class: "base", x: -w / 2, y: -d / 2, width: w, height: d, fill: "#f6edd5", stroke: colour,
        "stroke-width": 0.14 }));
      g.append(this.star(0, 0, Math.min(w, d) * 0.42, colour));
    } else {
      g.append(svg("rect", { class: "shadow", x: -w / 2 + 0.12, y: -d / 2 + 0.15, width: w, height: d }));
      g.append(svg("rect", { class: "base", x: -w / 2, y: -d / 2, width: w, height: d, fill: colour, stroke: "#2b2620",
        "stroke-width": 0.07 }));
      g.append(this.kindMark(u, card));
    }
    g.append(svg("line", { class: "front", x1: -w / 2, y1: -d / 2 + 0.09, x2: w / 2, y2: -d / 2 + 0.09, stroke: "#f1d27a",
      "stroke-width": 0.18 }));
    const { pips, marks } = baseMarks(card, this.book);
    if (pips.length) g.append(this.pipRow(u, pips));
    if (marks.length) g.append(this.marks(u, marks));
    const kind = (card && card.kind_label) || u.kind.replace(/_/g, " ");
    const tip = [u.name || u.id, kind, factLine(card)].filter(Boolean).join(" · ");
    g.append(svg("title", {}, tip));
    return g;
  }

  // The marks a piece's facts put on its base (badges, a formation's mark, a number),
  // upright whatever the unit's facing, in a row just behind the base.
  marks(u, marks) {
    const g = svg("g", { class: "badges", "data-test": "unit-badges", transform: `rotate(${f(-u.facing)})` });
    const y = Math.max(u.width, u.depth) / 2 + 0.1;
    const place = u.facing % 180 === 0 ? (u.depth / 2 + 0.55) : y;
    const wide = (m) => Math.max(1, 0.36 * [...m.mark].length + 0.3);
    const total = marks.reduce((s, m) => s + wide(m) + 0.1, -0.1);
    let x = -total / 2;
    for (const m of marks) {
      const w = wide(m);
      g.append(svg("g", { class: `badge fact-${m.kind}`, "data-fact": m.key, "data-test": "base-mark",
        transform: `translate(${f(x + w / 2)},${f(place)})` },
      svg("rect", { x: f(-w / 2), y: -0.34, width: f(w), height: 0.68, rx: 0.15 }),
      svg("text", { x: 0, y: 0.19, "text-anchor": "middle" }, m.mark),
      svg("title", {}, m.words)));
      x += w + 0.1;
    }
    return g;
  }

  // A count's pips on the base (hits taken ...), along its rear edge.
  pipRow(u, pips) {
    const g = svg("g", { class: "hits", "data-test": "base-pips" });
    const r = 0.2;
    let row = 0;
    for (const p of pips) {
      const n = Math.min(p.n, 8);
      const cy = u.depth / 2 - 0.38 - row * 0.5;
      const one = svg("g", { class: "pip-row", "data-fact": p.key }, svg("title", {}, p.words));
      for (let i = 0; i < n; i++) {
        one.append(svg("circle", { cx: f((i - (n - 1) / 2) * 0.52), cy: f(cy), r, fill: "#fffaf0",
          stroke: "#2b2620", "stroke-width": 0.05 }));
      }
      g.append(one);
      row += 1;
    }
    return g;
  }

  // The mark of the piece's kind; a piece its rule set draws as a wagon is not a gun.
  kindMark(u, card) {
    const w = u.width / 2 * 0.86;
    const d = u.depth / 2 * 0.7;
    const stroke = { stroke: "#fffaf0", "stroke-opacity": 0.4, "stroke-width": 0.08, fill: "none" };
    if (card && card.mark === "wagon") {
      const r = Math.min(u.width, u.depth) * 0.14;
      return svg("g", { "data-test": "baggage-mark" },
        svg("rect", { x: -w * 0.7, y: -d * 0.7, width: w * 1.4, height: d, fill: "#fffaf0", "fill-opacity": 0.45 }),
        svg("circle", { cx: -w * 0.45, cy: d * 0.45, r, fill: "#fffaf0", "fill-opacity": 0.6 }),
        svg("circle", { cx: w * 0.45, cy: d * 0.45, r, fill: "#fffaf0", "fill-opacity": 0.6 }));
    }
    switch (u.kind) {
      case "foot": return svg("path", { d: `M${-w},${d} L${w},${-d} M${-w},${-d} L${w},${d}`, ...stroke });
      case "horse": return svg("path", { d: `M${-w},${d} L${w},${-d}`, ...stroke });
      case "dragoons": return svg("path", { d: `M${-w},${d} L${w},${-d} M${-w},${-d} L${w},${d} M${-w},${d} L${w},${d}`, ...stroke });
      case "commanded_shot": return svg("path", { d: `M${-w / 2},${d / 2} L${w / 2},${-d / 2} M${-w / 2},${-d / 2} L${w / 2},${d / 2}`, ...stroke });
      case "artillery": return svg("g", {}, svg("circle", { cx: 0, cy: 0.15, r: Math.min(u.width, u.depth) * 0.2, fill: "#fffaf0", "fill-opacity": 0.5 }),
        svg("line", { x1: 0, y1: 0.15, x2: 0, y2: -u.depth / 2 + 0.25, stroke: "#fffaf0", "stroke-opacity": 0.6, "stroke-width": 0.16 }));
      default: return svg("g");
    }
  }

  star(cx, cy, r, colour) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const rad = i % 2 === 0 ? r : r * 0.45;
      const a = (Math.PI / 5) * i - Math.PI / 2;
      pts.push(`${f(cx + rad * Math.cos(a))},${f(cy + rad * Math.sin(a))}`);
    }
    return svg("polygon", { points: pts.join(" "), fill: colour });
  }

  label(u, name) {
    const g = svg("g", { class: `unit-label${u.kind === "commander" ? " commander-label" : ""}`, "data-unit": u.id,
      "data-test": "unit-label" },
    svg("text", { x: f(u.x), y: f(this.sy(u.y)), class: `name${u.kind === "commander" ? " commander-name" : ""}`,
      "text-anchor": "middle", "dominant-baseline": "central" }, name));
    g.append(svg("title", {}, u.name || u.id));
    return g;
  }

  // Inches per screen pixel at the present zoom.
  inchesPerPixel() {
    const rect = this.root.getBoundingClientRect();
    if (!rect.width || !rect.height || !this.view) return 0.1;
    return Math.max(this.view.w / rect.width, this.view.h / rect.height);
  }

  // Lay the names out at a steady size on the screen, whatever the zoom: each on its base
  // (a commander's beside it) or just off it, never over another name or another base; a
  // name with no room is shown when its piece is pointed at. Terrain names give way to the
  // pieces and their names.
  layoutLabels() {
    if (!this.labelItems) return;
    const ipp = this.inchesPerPixel();
    const size = LABEL_PX * ipp;
    const high = size * 1.25;
    const tsize = size * 0.95; // the names of places
    const places = [...this.layers.objectives.querySelectorAll("text.objective-name"),
      ...this.layers.names.querySelectorAll("text.terrain-name")];
    // Every name at its size first, then every width read at once (one layout, not one a
    // name): the width a name is drawn at, in whatever font the browser has.
    for (const { node } of this.labelItems) sizeName(node.querySelector("text"), size, node);
    for (const t of places) sizeName(t, tsize, t);
    const widths = new Map([...this.labelItems.map(({ node }) => node.querySelector("text")), ...places]
      .map((t) => [t, drawnWidth(t)]));
    const boxes = [];
    const bases = this.labelItems.map(({ u }) => ({ id: u.id, ...extent(u, this.sy) }));
    const clear = (b, own) => !boxes.some((o) => overlap(b, o))
      && !bases.some((o) => o.id !== own && overlap(b, o));
    const onTable = (b) => b.x0 >= -MARGIN && b.x1 <= this.table.width + MARGIN && b.y0 >= -MARGIN && b.y1 <= this.table.depth + MARGIN;
    const items = [...this.labelItems].sort((a, b) => a.order - b.order);
    for (const item of items) {
      const { u, node } = item;
      const text = node.querySelector("text");
      const wide = widths.get(text) || textWidth(text.textContent, size);
      const e = extent(u, this.sy);
      const cx = u.x;
      const cy = this.sy(u.y);
      const gap = size * 0.35;
      const spots = u.kind === "commander"
        ? [[cx, e.y1 + gap + high / 2, u.id], [cx, e.y0 - gap - high / 2, u.id], [e.x1 + gap + wide / 2, cy, u.id],
          [e.x0 - gap - wide / 2, cy, u.id]]
        : [[cx, cy, u.id], [cx, e.y1 + gap + high / 2, u.id], [cx, e.y0 - gap - high / 2, u.id]];
      let placed = false;
      for (const [x, y, own] of spots) {
        const pad = size * 0.4; // room between two names, so that they never read as one
        const b = { x0: x - wide / 2 - pad, x1: x + wide / 2 + pad, y0: y - high / 2, y1: y + high / 2 };
        // On its own base a troop's name may cover the base; it must still fit the others.
        const ownBase = (o) => o.id === own;
        const free = !boxes.some((o) => overlap(b, o)) && !bases.some((o) => !ownBase(o) && overlap(b, o));
        if (free && onTable(b)) {
          text.setAttribute("x", f(x));
          text.setAttribute("y", f(y));
          boxes.push(b);
          placed = true;
          break;
        }
      }
      node.classList.toggle("crowded", !placed);
      node.classList.toggle("off-base", placed && Number(text.getAttribute("y")) !== f(cy));
    }
    // The names of objectives and points, then of the ground: only where they cover no
    // piece and no name (the flag, the diamond and the ground keep their titles). A place
    // both sides mark (one's objective, the other's vital point) is named once.
    const named = [];
    for (const t of this.layers.objectives.querySelectorAll("text.objective-name")) {
      const wide = widths.get(t) || textWidth(t.textContent, tsize);
      // A point's name sits under its flag (in the flag's frame); an objective's above its ring.
      const at = /translate\(([-\d.]+),([-\d.]+)\)/.exec(t.parentNode.getAttribute("transform") || "");
      if (at) t.setAttribute("y", f(1.25 + tsize * 0.8));
      const x = at ? Number(at[1]) : Number(t.getAttribute("x"));
      const y = (at ? Number(at[2]) : 0) + Number(t.getAttribute("y"));
      const b = { x0: x - wide / 2, x1: x + wide / 2, y0: y - tsize * 0.8, y1: y + tsize * 0.3 };
      const twice = named.some((n) => n.text === t.textContent && Math.hypot(n.x - x, n.y - y) <= SAME_PLACE);
      const free = !twice && clear(b, null);
      t.classList.toggle("crowded", !free);
      if (free) {
        boxes.push(b);
        named.push({ text: t.textContent, x, y });
      }
    }
    for (const t of this.layers.names.querySelectorAll("text.terrain-name")) {
      const wide = widths.get(t) || textWidth(t.textContent, tsize);
      // Kept on the table: a name by the edge is moved in rather than cut by it.
      const x = Math.min(Math.max(Number(t.dataset.x), wide / 2), this.table.width - wide / 2);
      t.setAttribute("x", f(x));
      const y = Number(t.dataset.y);
      const b = { x0: x - wide / 2, x1: x + wide / 2, y0: y - tsize * 0.7, y1: y + tsize * 0.5 };
      const free = clear(b, null);
      t.classList.toggle("crowded", !free);
      if (free) boxes.push(b);
    }
  }

  // Show a crowded name while its piece is pointed at.
  installPeek() {
    const peek = (e, on) => {
      const node = e.target.closest && e.target.closest(".unit");
      if (!node) return;
      const label = this.layers.labels.querySelector(`.unit-label[data-unit="${CSS.escape(node.dataset.unit)}"]`);
      if (label) label.classList.toggle("peek", on);
    };
    this.layers.units.addEventListener("pointerover", (e) => peek(e, true));
    this.layers.units.addEventListener("pointerout", (e) => peek(e, false));
  }

  // --- overlays ---------------------------------------------------------------------------

  // The band along a side's own table edge where its pieces deploy; none when inches is null.
  deploymentZone(edge, inches) {
    const t = this.table;
    if (inches === null) { this.layers.deploy.replaceChildren(); return; }
    const top = edge === "south" ? this.sy(inches) : 0;
    this.layers.deploy.replaceChildren(svg("g", { class: "deploy-zone" },
      svg("rect", { x: 0, y: f(top), width: t.width, height: inches }),
      svg("text", { x: t.width / 2, y: f(top + inches / 2), "text-anchor": "middle", class: "overlay-label" },
        `deployment zone (${inches}")`)));
  }

  // Where a side deploying on its own half may place its pieces (Charge yr Pikes!' secret
  // deployment, the rule set's summary "deploy_zone"): its half but the inches nearest the
  // centre line, and there only the towns and woods of its half. None when zone is null.
  deployArea(zone) {
    const layer = this.layers.deploy;
    if (!zone) { layer.replaceChildren(); return; }
    const t = this.table;
    const mid = t.depth / 2;
    const clear = Math.min(zone.centre_clear, mid);
    const south = zone.edge === "south";
    const [y0, y1] = south ? [0, mid - clear] : [mid + clear, t.depth]; // anywhere
    const [c0, c1] = south ? [mid - clear, mid] : [mid, mid + clear]; // towns and woods only
    const band = (a, b, attrs = {}) => svg("rect", { x: 0, y: f(this.sy(b)), width: t.width, height: f(b - a), ...attrs });
    const clip = `deploy-cover-${south ? "south" : "north"}`;
    const cover = t.terrain.filter((feat) => zone.cover.includes(feat.kind) && feat.outline && feat.outline.length >= 3);
    const words = `${possessive(this.sideNames[zone.side] || zone.side)} deployment zone: its own half, not within ` +
      `${zone.centre_clear}" of the centre line but in ${zone.cover.join(" or ")}`;
    layer.replaceChildren(svg("g", { class: "deploy-zone deploy-area", "data-test": "deploy-zone", "data-side": zone.side,
      "data-edge": zone.edge },
    svg("clipPath", { id: clip }, band(c0, c1)),
    band(y0, y1, { class: "deploy-open" }),
    cover.map((feat) => svg("path", { class: "deploy-cover", "data-test": "deploy-cover", d: this.path(feat.outline),
      "clip-path": `url(#${clip})` })),
    svg("line", { class: "deploy-limit", x1: 0, x2: t.width, y1: f(this.sy(south ? y1 : y0)), y2: f(this.sy(south ? y1 : y0)) }),
    svg("text", { x: t.width / 2, y: f(this.sy((y0 + y1) / 2)), "text-anchor": "middle", class: "overlay-label" },
      "deployment zone"),
    svg("title", {}, words)));
  }

  clearOverlays() {
    this.layers.overlays.replaceChildren();
    this.layers.sight.replaceChildren();
  }

  // A zone "within r inches" of a base, edge to edge: the base grown by r, corners rounded.
  // A point given in a unit's own frame (inches right of and ahead of its centre), on the map.
  local(u, right, forward) {
    const r = (u.facing * Math.PI) / 180;
    const fx = Math.sin(r);
    const fy = Math.cos(r);
    return { x: u.x + fy * right + fx * forward, y: u.y - fx * right + fy * forward };
  }

  overlayLabel(u, forward, label) {
    const p = this.local(u, 0, forward);
    return svg("text", { x: f(p.x), y: f(this.sy(p.y) + 0.2), "text-anchor": "middle", class: "overlay-label" }, label);
  }

  zone(u, radius, kind, label) {
    const w = u.width + 2 * radius;
    const d = u.depth + 2 * radius;
    return svg("g", { class: `zone zone-${kind}` },
      svg("g", { transform: this.baseTransform(u) },
        svg("rect", { x: -w / 2, y: -d / 2, width: w, height: d, rx: radius, ry: radius })),
      this.overlayLabel(u, -d / 2 + 0.45, label));
  }

  arc(u, halfAngle, reach, label) {
    const w = u.width / 2;
    const y0 = -u.depth / 2;
    const spread = Math.tan((halfAngle * Math.PI) / 180) * reach;
    const pts = [[-w, y0], [w, y0], [w + spread, y0 - reach], [-w - spread, y0 - reach]];
    return svg("g", { class: `arc ${halfAngle === 0 ? "arc-straight" : "arc-45"}` },
      svg("g", { transform: this.baseTransform(u) },
        svg("polygon", { points: pts.map((p) => p.map(f).join(",")).join(" ") })),
      this.overlayLabel(u, u.depth / 2 + reach + 0.5, label));
  }

  drawOverlays(u, overlays, { zones = true, arcs = true, sight = true } = {}) {
    this.clearOverlays();
    if (!u || !overlays) return;
    if (zones) for (const z of overlays.zones || []) this.layers.overlays.append(this.zone(u, z.radius, z.kind, z.label));
    if (arcs) for (const a of overlays.arcs || []) this.layers.overlays.append(this.arc(u, a.half_angle, a.reach, a.label));
    if (sight) {
      const front = this.frontCentre(u);
      for (const s of overlays.sight || []) {
        const t = (this.state.units || []).find((v) => v.id === s.target);
        if (!t) continue;
        this.layers.sight.append(svg("line", { class: `sight ${s.clear ? "clear" : "blocked"}`,
          x1: f(front.x), y1: f(this.sy(front.y)), x2: f(t.x), y2: f(this.sy(t.y)) },
          svg("title", {}, `${s.clear ? "Clear line of sight" : "Line of sight blocked"} to ${t.name || t.id}`)));
      }
    }
  }

  frontCentre(u) {
    const r = (u.facing * Math.PI) / 180;
    return { x: u.x + Math.sin(r) * u.depth / 2, y: u.y + Math.cos(r) * u.depth / 2 };
  }

  // --- the move ghost and ruler -------------------------------------------------------------

  drawGhost(u, ghost, verdict) {
    const layer = this.layers.ghost;
    layer.replaceChildren();
    this.layers.ruler.replaceChildren();
    if (!ghost) return;
    const state = verdict ? (verdict.legal ? "legal" : "illegal") : "pending";
    const pose = { ...u, x: ghost.x, y: ghost.y, facing: ghost.facing };
    const g = svg("g", { class: `ghost ${state}`, transform: this.baseTransform(pose) },
      svg("rect", { x: -u.width / 2, y: -u.depth / 2, width: u.width, height: u.depth }),
      svg("line", { x1: -u.width / 2, y1: -u.depth / 2, x2: u.width / 2, y2: -u.depth / 2, class: "ghost-front" }));
    const handle = svg("g", { class: "handle", transform: `translate(0,${f(-u.depth / 2 - 1.1)})` },
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 1.1, class: "handle-stem" }),
      svg("circle", { cx: 0, cy: 0, r: 0.45 }),
      svg("title", {}, "Drag to turn (Q / E turn by 15°)"));
    g.append(handle);
    layer.append(g);
    // The ruler: start, each waypoint, the ghost's centre.
    const pts = [[u.x, u.y], ...(ghost.waypoints || []), [ghost.x, ghost.y]];
    const ruler = this.layers.ruler;
    ruler.append(svg("polyline", { class: `ruler ${state}`, points: this.polyline(pts) }));
    for (const p of pts) ruler.append(svg("circle", { class: "ruler-dot", cx: f(p[0]), cy: f(this.sy(p[1])), r: 0.18 }));
    const measure = verdict && verdict.measure;
    let length = 0;
    for (let i = 1; i < pts.length; i++) length += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
    const used = measure ? measure.length : length;
    const text = measure ? `${used.toFixed(1)}" of ${measure.allowance}"${measure.ground ? ` ${measure.ground}` : ""}` : `${used.toFixed(1)}"`;
    const a = pts[pts.length - 2];
    const b = pts[pts.length - 1];
    const tx = (a[0] + b[0]) / 2 + Math.max(3.2, text.length * 0.17 + 0.9);
    const ty = this.sy((a[1] + b[1]) / 2) + 0.25;
    const wide = Math.max(4.6, text.length * 0.34); // the caption's width, near enough
    const tag = svg("g", { class: `ruler-tag ${state}` },
      svg("rect", { x: f(tx - wide / 2), y: f(ty - 0.75), width: f(wide), height: 1.05, rx: 0.25 }),
      svg("text", { x: f(tx), y: f(ty), "text-anchor": "middle" }, text));
    ruler.append(tag);
    if (verdict && !verdict.legal && verdict.violations.length) {
      const reason = verdict.violations[0].message;
      ruler.append(svg("text", { x: f(tx), y: f(ty + 1.1), "text-anchor": "middle", class: "ruler-reason" }, reason));
    }
  }

  // --- traces of the last moves ---------------------------------------------------------------

  drawTraces(paths) {
    const layer = this.layers.traces;
    layer.replaceChildren();
    // Each path as a trace, and a marker that runs along it: moves made and moves forced
    // on a piece (pushed back, routed, pursuing, stands scattering or gathering) alike.
    for (const { side, path, reason = "move" } of paths) {
      if (path.length < 2) continue;
      const kind = ["move", "charge"].includes(reason) ? "made" : "forced"; // by the player, or on the piece
      const points = this.polyline(path);
      const line = svg("polyline", { class: `trace ${kind}`, points, stroke: this.colours[side] || "#555", "data-reason": reason },
        svg("title", {}, reason));
      // An SVG animation's clock starts with the document: begun by hand, it runs from now.
      const run = svg("animateMotion", { dur: "0.9s", fill: "freeze", begin: "indefinite",
        path: `M${points.replace(/ /g, " L")}` });
      const dot = svg("circle", { class: `trace-runner ${kind}`, r: 0.35, fill: this.colours[side] || "#555" }, run);
      layer.append(line, dot);
      if (run.beginElement) run.beginElement();
    }
  }
}

// --- names on the table ---------------------------------------------------------------------

const LABEL_PX = 10.5; // a name's height on the screen, whatever the zoom

// A piece's bounding box on the map (SVG coordinates, y down).
function extent(u, sy) {
  const r = (u.facing * Math.PI) / 180;
  const hw = (Math.abs(Math.cos(r)) * u.width + Math.abs(Math.sin(r)) * u.depth) / 2;
  const hd = (Math.abs(Math.sin(r)) * u.width + Math.abs(Math.cos(r)) * u.depth) / 2;
  const y = sy(u.y);
  return { x0: u.x - hw, x1: u.x + hw, y0: y - hd, y1: y + hd };
}

function overlap(a, b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// A name set at its size and shown, so that its drawn width may be read (a crowded name
// is not drawn at all); the layout hides it again if it finds it no room.
function sizeName(text, size, node) {
  text.setAttribute("font-size", f(size));
  text.setAttribute("stroke-width", f(size * 0.22));
  node.classList.remove("crowded");
}

// A name's width as drawn, in inches (the map's units); 0 where it is not drawn (a map not
// on the page yet).
function drawnWidth(text) {
  try {
    return text.getComputedTextLength();
  } catch {
    return 0;
  }
}

// A name's width in inches at a font size in inches, near enough: where it cannot be
// read from the page.
function textWidth(text, size) {
  let em = 0;
  for (const ch of text) em += /[A-Z]/.test(ch) ? 0.68 : /[ .,'’()]/.test(ch) ? 0.3 : /[mw]/.test(ch) ? 0.8 : 0.56;
  return em * size;
}

// A short name for each piece, no two alike: titles and the words in brackets dropped,
// then, where two pieces would read the same, the word of its full name that tells it
// from the others (Ramsay's (left), Ramsay's (right)), and at last a number.
const TITLES = new Set(["prince", "sir", "lord", "earl", "duke", "marquess", "colonel", "general",
  "major", "captain", "lieutenant", "king", "the", "of", "and", "regiment", "lt", "col", "sgt"]);
const MAX_LABEL = 16;
const ARMS = new Set(["foot", "horse", "dragoons", "brigade", "battalion", "wing", "tertia", "lifeguard",
  "lifeguards", "guards", "musketeers", "cornets", "troop", "troops", "division"]);

const wordsOf = (text) => text.split(/[\s,/]+/).map((w) => w.replace(/^[("'‘]+|[)"'’.:;]+$/g, "")).filter(Boolean);

export function shortName(name, person = false, max = MAX_LABEL) {
  name = (name || "").trim();
  const main = name.replace(/\s*\([^)]*\)?/g, " ").replace(/\s+/g, " ").trim() || name;
  if (main.length <= max && !person) return main;
  const words = wordsOf(main).filter((w) => !TITLES.has(w.toLowerCase()));
  if (!words.length) return wordsUpTo(wordsOf(main), max);
  if (person) {
    // "Robert Devereux, Earl of Essex": Essex; "Prince Rupert of the Rhine": Rupert.
    const titled = /,\s*(?:[A-Z][a-z]+\s+)+of\s+(?:the\s+)?([A-Z][\w'’-]+)/.exec(name);
    const plain = wordsOf(name.replace(/,.*$/, "").replace(/\s+of\s+.*$/, "")).filter((w) => !TITLES.has(w.toLowerCase()));
    let last = titled ? titled[1] : plain[plain.length - 1] || words[words.length - 1];
    // "King Charles I": Charles I, not I.
    if (/^[IVX]+$/.test(last) && plain.length > 1) last = `${plain[plain.length - 2]} ${last}`;
    return last.length <= max ? last : wordsUpTo([last], max);
  }
  const owner = words.find((w) => /'s$|s'$|’s$/.test(w)) || words[0];
  const arm = words[words.length - 1];
  // A thing named for its owner reads by the thing when both will not fit ("Baggage",
  // not "General's"); a regiment by its colonel ("Rainsborough's", not "Foot").
  const baggage = words.find((w) => w.toLowerCase() === "baggage"); // a baggage train is its baggage
  const thing = baggage || (owner !== arm && !ARMS.has(arm.toLowerCase()) ? arm : null);
  for (const c of [words.join(" "), baggage ? null : owner === arm ? owner : `${owner} ${arm}`, thing, owner]) {
    if (c && c.length <= max) return c;
  }
  return wordsUpTo([owner], max);
}

// Whole words up to ``max`` letters; a single long word is cut with an ellipsis.
function wordsUpTo(words, max) {
  let out = "";
  for (const w of words) {
    const next = out ? `${out} ${w}` : w;
    if (next.length > max) break;
    out = next;
  }
  return out || `${words[0].slice(0, max - 1)}…`;
}

export function labelNames(units) {
  const out = new Map();
  for (const u of units) out.set(u.id, shortName(u.name || u.id, u.kind === "commander"));
  const groups = new Map();
  for (const [id, name] of out) groups.set(name.toLowerCase(), [...(groups.get(name.toLowerCase()) || []), id]);
  const byId = new Map(units.map((u) => [u.id, u]));
  for (const ids of groups.values()) {
    if (ids.length < 2) continue;
    const sets = ids.map((id) => new Set(wordsOf(byId.get(id).name || id).map((w) => w.toLowerCase())));
    const base = out.get(ids[0]);
    const taken = new Set();
    ids.forEach((id, i) => {
      const mine = wordsOf(byId.get(id).name || id);
      // The word of its own name missing from most of the others' names.
      let best = null;
      let score = 0;
      for (const w of mine) {
        const lw = w.toLowerCase();
        if (base.toLowerCase().split(" ").includes(lw) || TITLES.has(lw)) continue;
        const missing = sets.filter((s, j) => j !== i && !s.has(lw)).length;
        if (missing > score) { best = w; score = missing; }
      }
      let name = best ? `${base} (${best})` : base;
      if (taken.has(name.toLowerCase())) name = `${base} ${i + 1}`;
      let n = i + 1;
      while (taken.has(name.toLowerCase())) name = `${base} ${++n}`;
      taken.add(name.toLowerCase());
      out.set(id, name);
    });
  }
  // A name made unique may now read as another piece's: number what is left alike.
  const seen = new Map();
  for (const [id, name] of out) {
    const key = name.toLowerCase();
    if (seen.has(key)) out.set(id, `${name} ${seen.get(key) + 1}`);
    seen.set(key, (seen.get(key) || 1) + (seen.has(key) ? 1 : 0));
  }
  return out;
}

