/* The public API from the browser: the rules service (this page's origin), the matchmaking
 * service (the URL config.json names; it allows this origin by CORS), the live stream over fetch
 * (so a seat's token can go in the Authorization header). Errors are ApiProblem (status + the
 * problem document's detail). */

export class ApiProblem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export async function api(path, token, params, init = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
  const headers = { ...(init.headers || {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (init.json !== undefined) headers["Content-Type"] = "application/json";
  const resp = await fetch(url, { method: init.method || "GET", headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined });
  const body = await resp.json().catch(() => null);
  if (!resp.ok) throw new ApiProblem(resp.status, body);
  return body;
}

let config = null;
/** The viewer's config.json: games (id, title, seats), the matchmaking URL, bot levels. */
export async function viewerConfig() {
  if (!config) config = api("/viewer/config.json");
  return config;
}

const catalogs = new Map();
/** A game's public content (names, values, texts; boards), cached per game. */
export function catalog(gameId) {
  if (!catalogs.has(gameId)) {
    catalogs.set(gameId, api(`/v1/games/${encodeURIComponent(gameId)}/catalog`).catch(() => ({ game: gameId, cards: {} })));
  }
  return catalogs.get(gameId);
}

/** A request to the matchmaking service. */
export async function mm(path, token, init) {
  const { matchmaking } = await viewerConfig();
  return api(`${matchmaking}${path}`, token, null, init);
}

function randomKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Post a move with the version it was chosen at and a fresh Idempotency-Key. */
export function postMove(matchId, token, move, expectedVersion) {
  return api(`/v1/matches/${encodeURIComponent(matchId)}/moves`, token, null, {
    method: "POST", json: { move, expected_version: expectedVersion }, headers: { "Idempotency-Key": randomKey() } });
}

/** Server-sent events of a match; onEvent(record) for each; returns when the stream ends. */
export async function followStream(matchId, token, lastId, onEvent, signal) {
  const headers = { Accept: "text/event-stream" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lastId) headers["Last-Event-ID"] = String(lastId);
  const resp = await fetch(`/v1/matches/${encodeURIComponent(matchId)}/stream`, { headers, signal });
  if (!resp.ok) throw new ApiProblem(resp.status, await resp.json().catch(() => null));
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const i = line.indexOf(":");
        const field = i < 0 ? line : line.slice(0, i);
        const val = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
        if (field === "data") data += (data ? "\n" : "") + val;
      }
      if (data) onEvent(JSON.parse(data));
    }
  }
}

export function fmtTime(t) {
  if (t === null || t === undefined) return "—";
  return new Date(t * 1000).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}
