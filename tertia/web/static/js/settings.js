// The page's own settings (not the game's), kept in this browser's localStorage.

const KEY = "tertia.settings";

function load() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { return {}; }
}

export function setting(name, fallback) {
  const all = load();
  return name in all ? all[name] : fallback;
}

export function setSetting(name, value) {
  const all = load();
  all[name] = value;
  localStorage.setItem(KEY, JSON.stringify(all));
}
