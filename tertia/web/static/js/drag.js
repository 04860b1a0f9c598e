// Moving a unit: drag a ghost of its base, turn it by its handle (or Q / E), and the
// server says, while you drag, whether the rules allow it and how far it has gone. The
// action is the offered one (a kind whose fields hold a path), its path and its facing
// at the end put in the fields the rule set's vocabulary declares.

import { api } from "./api.js";

const SNAP = 5; // degrees: turning snaps to this unless Shift is held
const VALIDATE_GAP = 90; // ms between validation requests while dragging

export class MoveTool {
  // ``offer``: the server's drag offer for the unit; ``kind``: its action kind.
  constructor({ map, gameId, token, unit, offer, kind, onVerdict, onDrop }) {
    const fields = (kind && kind.fields) || [];
    const path = fields.findIndex((f) => f.kind === "points");
    this.type = offer ? offer.action.type : "move";
    this.subject = (kind && kind.subject) || "unit";
    this.pathField = path >= 0 ? fields[path].name : "waypoints";
    const after = fields.slice(path + 1).filter((f) => f.kind === "facing").pop();
    this.turnField = after ? after.name : "face_after";
    this.map = map;
    this.gameId = gameId;
    this.token = token;
    this.unit = unit;
    this.onVerdict = onVerdict;
    this.onDrop = onDrop;
    this.ghost = null;
    this.verdict = null;
    this.mode = null;
    this.inflight = null;
    this.queued = false;
    this.lastSent = 0;
    this.down = (e) => this.pointerDown(e);
    this.move = (e) => this.pointerMove(e);
    this.up = (e) => this.pointerUp(e);
    this.key = (e) => this.keyDown(e);
    map.root.addEventListener("pointerdown", this.down);
    window.addEventListener("pointermove", this.move);
    window.addEventListener("pointerup", this.up);
    window.addEventListener("keydown", this.key);
  }

  destroy() {
    this.map.root.removeEventListener("pointerdown", this.down);
    window.removeEventListener("pointermove", this.move);
    window.removeEventListener("pointerup", this.up);
    window.removeEventListener("keydown", this.key);
    // A verdict already on its way (or a request waiting its turn) must not bring the
    // ghost or its move box back once the move is put away (Reset, another piece chosen).
    this.destroyed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queued = false;
    if (this.inflight) this.inflight.abort();
    this.map.drawGhost(null);
  }

  action() {
    const g = this.ghost;
    const u = this.unit;
    const a = { type: this.type, [this.subject]: u.id, [this.pathField]: [] };
    if (!g) return a;
    const last = (g.waypoints || []).slice(-1)[0] || [u.x, u.y];
    const moved = Math.hypot(g.x - last[0], g.y - last[1]) > 0.01;
    a[this.pathField] = [...(g.waypoints || []), ...(moved ? [[round(g.x), round(g.y)]] : [])];
    const turn = Math.abs(((g.facing - u.facing + 540) % 360) - 180);
    if (turn > 0.5) a[this.turnField] = round(((g.facing % 360) + 360) % 360);
    return a;
  }

  // Place the ghost (used by keyboard and by tests through the page).
  place(x, y, facing = null) {
    this.ghost = { x, y, facing: facing ?? (this.ghost ? this.ghost.facing : this.unit.facing), waypoints: [] };
    this.redraw();
    this.request(true);
  }

  // Put the ghost at the end of ``waypoints`` (the server's move ending in contact with an
  // enemy), the earlier ones kept as the corners of its path, and ask about it again.
  snapTo(waypoints) {
    if (!waypoints || !waypoints.length) return;
    const last = waypoints[waypoints.length - 1];
    const facing = this.ghost ? this.ghost.facing : this.unit.facing;
    this.ghost = { x: last[0], y: last[1], facing, waypoints: waypoints.slice(0, -1).map((p) => [p[0], p[1]]) };
    this.verdict = null;
    this.redraw();
    this.request(true);
  }

  pointerDown(e) {
    if (e.button !== 0) return;
    const onHandle = e.target.closest(".handle");
    const onGhost = e.target.closest(".ghost");
    const onUnit = e.target.closest(`.unit[data-unit="${CSS.escape(this.unit.id)}"]`);
    if (!onHandle && !onGhost && !onUnit) return;
    e.preventDefault();
    e.stopPropagation();
    if (!this.ghost) this.ghost = { x: this.unit.x, y: this.unit.y, facing: this.unit.facing, waypoints: [] };
    const p = this.map.toTable(e.clientX, e.clientY);
    this.mode = onHandle ? "turn" : "slide";
    this.grab = { dx: this.ghost.x - p.x, dy: this.ghost.y - p.y };
    this.map.root.classList.add("dragging");
  }

  pointerMove(e) {
    if (!this.mode) return;
    const p = this.map.toTable(e.clientX, e.clientY);
    if (this.mode === "slide") {
      this.ghost.x = p.x + this.grab.dx;
      this.ghost.y = p.y + this.grab.dy;
    } else {
      let bearing = (Math.atan2(p.x - this.ghost.x, p.y - this.ghost.y) * 180) / Math.PI;
      bearing = (bearing + 360) % 360;
      if (!e.shiftKey) bearing = Math.round(bearing / SNAP) * SNAP % 360;
      this.ghost.facing = bearing;
    }
    this.verdict = null;
    this.redraw();
    this.request(false);
  }

  pointerUp() {
    if (!this.mode) return;
    this.mode = null;
    this.map.root.classList.remove("dragging");
    this.request(true);
    this.onDrop(this);
  }

  keyDown(e) {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if ((e.key === "w" || e.key === "W") && this.ghost) {
      // Fix the ghost's place as a corner of the path; dragging on continues from there.
      const last = (this.ghost.waypoints || []).slice(-1)[0] || [this.unit.x, this.unit.y];
      if (Math.hypot(this.ghost.x - last[0], this.ghost.y - last[1]) > 0.05) {
        this.ghost.waypoints = [...(this.ghost.waypoints || []), [round(this.ghost.x), round(this.ghost.y)]];
        this.redraw();
        this.request(true);
      }
      return;
    }
    const step = e.shiftKey ? 1 : 15;
    if (e.key === "q" || e.key === "Q" || e.key === "e" || e.key === "E") {
      if (!this.ghost) this.ghost = { x: this.unit.x, y: this.unit.y, facing: this.unit.facing, waypoints: [] };
      const dir = e.key.toLowerCase() === "q" ? -step : step;
      this.ghost.facing = (this.ghost.facing + dir + 360) % 360;
      this.redraw();
      this.request(true);
      this.onDrop(this);
    }
  }

  redraw() { this.map.drawGhost(this.unit, this.ghost, this.verdict); }

  // Ask the server about the ghost's place: at most one request at a time, at most one
  // every VALIDATE_GAP ms while dragging; the last position always gets an answer.
  request(now) {
    if (this.destroyed) return;
    if (this.inflight) { this.queued = true; return; }
    const wait = now ? 0 : Math.max(0, VALIDATE_GAP - (performance.now() - this.lastSent));
    if (wait > 0) {
      if (!this.timer) this.timer = setTimeout(() => { this.timer = null; this.request(true); }, wait);
      return;
    }
    const action = this.action();
    const ctrl = new AbortController();
    this.inflight = ctrl;
    this.lastSent = performance.now();
    api.validate(this.gameId, this.token, action, ctrl.signal).then((verdict) => {
      if (this.destroyed) return;
      if (JSON.stringify(action) === JSON.stringify(this.action())) {
        this.verdict = verdict;
        this.redraw();
        this.onVerdict(verdict, action);
      }
    }).catch((err) => {
      if (err.name !== "AbortError" && !this.destroyed) this.onVerdict({ legal: false, violations: [{ code: err.code, message: err.message, rule: err.rule }] }, action);
    }).finally(() => {
      this.inflight = null;
      if (this.queued) { this.queued = false; this.request(true); }
    });
  }
}

function round(v) { return Math.round(v * 100) / 100; }
