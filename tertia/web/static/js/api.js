// The HTTP API, with the side's token as a bearer token. Refusals become ApiError.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `request failed (${status})`);
    this.status = status;
    this.code = body && body.code ? body.code : "HTTP_" + status;
    this.rule = body ? body.rule : null;
    this.violations = (body && body.violations) || [];
    // A refusal of odds too dear to walk: the chances its walked branches bound, and estimate.
    this.told = (body && body.told) || null;
  }
}

export async function request(method, path, { token = null, body = undefined, signal, version = null } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  // The game version the page last saw: a doubled click or a retried request applies once.
  if (version !== null && version !== undefined) headers["If-Match"] = `"${version}"`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method, headers, signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, { code: "OFFLINE", message: "The server cannot be reached. Is `tertia serve` running?" });
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  catalogue: () => request("GET", "/api/catalogue"),
  // A rule set's options and vocabulary (its action kinds, decisions and panels).
  rules: (id) => request("GET", `/api/rules/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/games", { body }),
  summary: (id, token) => request("GET", `/api/games/${id}`, { token }),
  view: (id, token, { side = null, logFrom = 0 } = {}) => {
    const q = new URLSearchParams({ log_from: String(logFrom) });
    if (side) q.set("side", side);
    return request("GET", `/api/games/${id}/view?${q}`, { token });
  },
  table: (id, token) => request("GET", `/api/games/${id}/table`, { token }),
  act: (id, token, action, version) =>
    request("POST", `/api/games/${id}/actions`, { token, body: action, version }),
  validate: (id, token, action, signal) =>
    request("POST", `/api/games/${id}/validate`, { token, body: action, signal }),
  odds: (id, token, action) => request("POST", `/api/games/${id}/odds`, { token, body: action }),
  // ``body``: {question, attacker, target}: odds of a question in the rule set's words.
  question: (id, token, body) => request("POST", `/api/games/${id}/question`, { token, body }),
  undo: (id, token, version) => request("POST", `/api/games/${id}/undo`, { token, version }),
  // ``planned``: attacks the player means to declare with this unit's (larger-battles).
  unit: (id, token, unitId, side = null, planned = null) => {
    const p = new URLSearchParams();
    if (side) p.set("side", side);
    if (planned && planned.length) p.set("planned", JSON.stringify(planned));
    const q = p.toString() ? `?${p}` : "";
    return request("GET", `/api/games/${id}/units/${encodeURIComponent(unitId)}${q}`, { token });
  },
  replay: (id, token, step, side = null) => {
    const q = new URLSearchParams({ step: String(step) });
    if (side) q.set("side", side);
    return request("GET", `/api/games/${id}/replay?${q}`, { token });
  },
  wait: (id, token, version, signal) =>
    request("GET", `/api/games/${id}/wait?version=${version}&timeout=20`, { token, signal }),
};
