// The secret tokens this browser holds, per game and role, kept in localStorage.

const KEY = "tertia.games";

function load() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { return {}; }
}

function save(all) { localStorage.setItem(KEY, JSON.stringify(all)); }

export function savedGames() {
  return Object.entries(load())
    .map(([id, entry]) => ({ id, ...entry }))
    .sort((a, b) => (b.touched || 0) - (a.touched || 0));
}

export function remember(id, roles, extra = {}) {
  const all = load();
  const entry = all[id] || { tokens: {} };
  entry.tokens = { ...entry.tokens, ...roles };
  Object.assign(entry, extra, { touched: Date.now() });
  all[id] = entry;
  save(all);
}

export function forget(id) {
  const all = load();
  delete all[id];
  save(all);
}

export function tokensFor(id) {
  const entry = load()[id];
  return entry ? entry.tokens : {};
}

// The token to use for a role, or any token of the game when the role is not held.
export function tokenFor(id, role = null) {
  const tokens = tokensFor(id);
  if (role && tokens[role]) return tokens[role];
  const first = Object.values(tokens)[0];
  return first || null;
}
