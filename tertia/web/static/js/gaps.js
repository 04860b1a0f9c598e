// How far apart two pieces stand, edge to edge, as the rules measure ranges: between the
// nearest edges of their bases (or of their separated stands, for a unit whose stands
// stand apart). The same corners as the engine's (``Base.corners``: facing in degrees
// clockwise from north, front-left first).

export function corners({ x, y, facing, width, depth }) {
  const r = (facing * Math.PI) / 180;
  const fx = Math.sin(r), fy = Math.cos(r);
  const rx = fy, ry = -fx;
  const hw = width / 2, hd = depth / 2;
  return [
    [x + fx * hd - rx * hw, y + fy * hd - ry * hw],
    [x + fx * hd + rx * hw, y + fy * hd + ry * hw],
    [x - fx * hd + rx * hw, y - fy * hd + ry * hw],
    [x - fx * hd - rx * hw, y - fy * hd - ry * hw],
  ];
}

// The bases a piece takes up: its separated stands in play, else its own base.
export function footprints(unit) {
  const apart = (unit.stands || []).filter((s) => !s.removed);
  return (apart.length ? apart : [unit]).map(corners);
}

function pointSegment([px, py], [ax, ay], [bx, by]) {
  const dx = bx - ax, dy = by - ay;
  const len = dx * dx + dy * dy;
  const t = len ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len)) : 0;
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function inside([px, py], poly) {
  let within = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > py) !== (yj > py) && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) within = !within;
  }
  return within;
}

function cross([ax, ay], [bx, by], [cx, cy]) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function edgesCross(a, b) {
  for (let i = 0; i < a.length; i++) {
    const p = a[i], q = a[(i + 1) % a.length];
    for (let j = 0; j < b.length; j++) {
      const r = b[j], s = b[(j + 1) % b.length];
      if (cross(p, q, r) * cross(p, q, s) < 0 && cross(r, s, p) * cross(r, s, q) < 0) return true;
    }
  }
  return false;
}

// The gap between two convex polygons: 0 where they touch or overlap (a corner inside
// the other, or edges crossing, as two bases laid crosswise do).
export function polygonGap(a, b) {
  if (a.some((p) => inside(p, b)) || b.some((p) => inside(p, a)) || edgesCross(a, b)) return 0;
  let best = Infinity;
  for (const [from, to] of [[a, b], [b, a]]) {
    for (const p of from) {
      for (let i = 0; i < to.length; i++) best = Math.min(best, pointSegment(p, to[i], to[(i + 1) % to.length]));
    }
  }
  return best;
}

// The gap between two pieces, nearest footprint to nearest footprint.
export function gapBetween(a, b) {
  let best = Infinity;
  for (const pa of footprints(a)) for (const pb of footprints(b)) best = Math.min(best, polygonGap(pa, pb));
  return best;
}
