/* The renderer of a game that has no module of its own: the view as readable tables. What
 * belongs to each seat (a top-level list with one entry per seat, or an object keyed "0".."n-1")
 * goes into one table with a column per seat, everything else into a key/value table; hidden parts
 * ({"count": n}) read "n hidden", card ids are drawn as cards (their printed names when the
 * catalog knows them). Every scalar carries its path in the view as data-path ("seats.1.score"),
 * so what is drawn can be checked against the API. Events and moves are said with their
 * parameters in words — never as JSON. */
import { h } from "./dom.js";
import { card, lookup } from "./cards.js";
import { who, words, isHidden } from "./words.js";

const isScalar = (v) => v === null || typeof v !== "object";
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** How a scalar reads on the page (the tests use the same rule). */
export function scalarText(v) {
  if (v === null || v === undefined) return "—";
  if (v === true) return "yes";
  if (v === false) return "no";
  return String(v);
}

function scalar(v, path, ctx) {
  if (typeof v === "string" && lookup(ctx, v).def) {
    const c = card(ctx, v);
    c.setAttribute("data-path", path);
    return c;
  }
  return h("span", { class: v === null || v === undefined ? "null" : "scalar", "data-path": path, text: scalarText(v) });
}

function value(v, path, ctx) {
  if (isScalar(v)) return scalar(v, path, ctx);
  if (Array.isArray(v)) {
    if (v.length === 0) return h("span", { class: "empty", "data-path": path, text: "none" });
    if (v.every(isScalar)) return h("span", { class: "chips", "data-path": path }, v.map((x, i) => scalar(x, `${path}.${i}`, ctx)));
    if (v.every((x) => isObject(x) && !isHidden(x)) && v.length <= 80) return objectsTable(v, path, ctx);
    return h("ol", { start: 0, class: "items" }, v.map((x, i) => h("li", {}, value(x, `${path}.${i}`, ctx))));
  }
  if (isHidden(v)) {
    const extra = Object.keys(v).filter((k) => k !== "count").map((k) => ` (${words(k)}: ${v[k]})`).join("");
    return h("span", { class: "hidden", "data-path": `${path}.count`, title: "hidden from this viewer", text: `${v.count} hidden${extra}` });
  }
  return kvTable(v, path, ctx);
}

function kvTable(obj, path, ctx) {
  const keys = Object.keys(obj);
  if (!keys.length) return h("span", { class: "empty", text: "none" });
  return h("table", { class: "kv" }, h("tbody", {}, keys.map((k) =>
    h("tr", {}, h("th", { text: words(k) }), h("td", {}, value(obj[k], path ? `${path}.${k}` : k, ctx))))));
}

function objectsTable(items, path, ctx) {
  const columns = [];
  for (const item of items) for (const k of Object.keys(item)) if (!columns.includes(k)) columns.push(k);
  return h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", { text: "#" }), columns.map((c) => h("th", { text: words(c) })))),
    h("tbody", {}, items.map((item, i) => h("tr", {}, h("td", { class: "muted", text: i }),
      columns.map((c) => h("td", {}, c in item ? value(item[c], `${path}.${i}.${c}`, ctx) : ""))))));
}

function perSeat(v, n) {
  if (n < 2) return null;
  if (Array.isArray(v) && v.length === n) return v.map((x, i) => [String(i), x]);
  if (isObject(v) && !isHidden(v)) {
    const keys = Object.keys(v);
    if (keys.length === n && keys.every((k) => /^\d+$/.test(k) && Number(k) < n)) return keys.sort((a, b) => a - b).map((k) => [k, v[k]]);
  }
  return null;
}

function seatsTable(state, ctx) {
  const n = ctx.seatNames.length;
  const rows = [];
  for (const [key, v] of Object.entries(state)) {
    const entries = perSeat(v, n);
    if (!entries) continue;
    if (entries.every(([, x]) => isObject(x) && !isHidden(x))) {
      const sub = [];
      for (const [, x] of entries) for (const k of Object.keys(x)) if (!sub.includes(k)) sub.push(k);
      for (const k of sub) rows.push({ label: `${words(key)} · ${words(k)}`, cells: entries.map(([s, x]) => [`${key}.${s}.${k}`, x, k]) });
    } else {
      rows.push({ label: words(key), cells: entries.map(([s, x]) => [`${key}.${s}`, x, null]) });
    }
  }
  const head = h("tr", {}, h("th", { text: "" }), ctx.seatNames.map((_, i) => h("th", { class: "seathead", "data-seat": i },
    who(ctx, i), ctx.seat === i ? " (you)" : "")));
  const body = rows.map((r) => h("tr", {}, h("th", { text: r.label }),
    r.cells.map(([path, x, k]) => h("td", {}, k === null ? value(x, path, ctx) : (k in x ? value(x[k], path, ctx) : "")))));
  return h("table", { class: "grid seats" }, h("thead", {}, head), h("tbody", {}, body));
}

function render(state, ctx) {
  const n = ctx.seatNames.length;
  const publicPart = {};
  for (const [key, v] of Object.entries(state)) if (!perSeat(v, n)) publicPart[key] = v;
  return h("div", { class: "generic" }, h("h2", { text: "Seats" }), seatsTable(state, ctx),
    h("h2", { text: "Table" }), kvTable(publicPart, "", ctx));
}

/** A parameter in words: a seat by name, a card by its printed name, lists joined, objects summarised. */
export function paramText(key, v, ctx) {
  if (v === null || v === undefined) return "none";
  if ((key === "seat" || key === "target" || key === "winner") && typeof v === "number") return who(ctx, v);
  if (typeof v === "string") return lookup(ctx, v).def ? lookup(ctx, v).def.name : words(v);
  if (isScalar(v)) return scalarText(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => paramText("", x, ctx)).join(", ") : "none";
  if (isHidden(v)) return `${v.count} hidden`;
  return `${Object.keys(v).length} details`;
}

function describe(ev, ctx) {
  const d = ev.data || {};
  const actor = ev.cause && typeof ev.cause.seat === "number" ? ev.cause.seat : typeof d.seat === "number" ? d.seat : null;
  const parts = Object.entries(d).filter(([k]) => k !== "seat").map(([k, v]) => `${words(k)} ${paramText(k, v, ctx)}`);
  return `${actor !== null ? who(ctx, actor) + ": " : ""}${words(ev.type)}${parts.length ? " — " + parts.join(", ") : ""}`;
}

function awaited(turn, ctx) {
  const acting = (turn.to_act || []).map((i) => who(ctx, i));
  return acting.length ? `Waiting for ${acting.join(", ")}` : "Nobody is to act";
}

/** A move in words: its type and parameters ("Move to: hex 3"). */
export function moveLabel(move, ctx) {
  const parts = Object.entries(move).filter(([k]) => k !== "type").map(([k, v]) => `${words(k)} ${paramText(k, v, ctx)}`);
  return parts.length ? parts.join(", ") : words(move.type);
}

function controls(moves, view, ctx) {
  return moves.map((m) => ({ group: words(m.type), label: moveLabel(m, ctx), move: m,
    card: typeof m.card === "string" && lookup(ctx, m.card).def ? m.card : undefined }));
}

export default { title: null, render, describe, awaited, controls };
