/* Drawing a match view as readable tables.
 *
 * The base is a generic renderer of the view JSON any game returns: what belongs to each seat
 * (top-level lists with one entry per seat, or objects keyed "0".."n-1") goes into one table with a
 * column per seat; everything else (boards, decks, phases) into a key/value table. Hidden parts
 * ({"count": n}) show as "n hidden", lists of cards as chips. Every scalar shown carries its path
 * in the view as data-path (e.g. "seats.1.score"), so what is drawn can be checked against the API.
 * Small per-game renderers (GAMES) add a board where a table of numbers would not read well.
 */
(function () {
  "use strict";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  const isScalar = (v) => v === null || typeof v !== "object";
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const isHidden = (v) => isObject(v) && Object.keys(v).length >= 1 && typeof v.count === "number" &&
    Object.keys(v).every((k) => k === "count" || typeof v[k] === "number");

  /** How a scalar reads on the page (tests use the same rule). */
  function scalarText(v) {
    if (v === null || v === undefined) return "—";
    if (v === true) return "yes";
    if (v === false) return "no";
    return String(v);
  }

  function words(key) {
    return String(key).replace(/[_-]+/g, " ");
  }

  function scalar(v, path) {
    const cls = v === null || v === undefined ? "null" : "scalar";
    return el("span", { class: cls, "data-path": path, text: scalarText(v) });
  }

  function value(v, path, ctx) {
    if (isScalar(v)) return scalar(v, path);
    if (Array.isArray(v)) {
      if (v.length === 0) return el("span", { class: "empty", "data-path": path, text: "none" });
      if (v.every(isScalar)) {
        return el("span", { class: "chips", "data-path": path },
          v.map((x, i) => el("span", { class: "chip", "data-path": `${path}.${i}`, text: scalarText(x) })));
      }
      if (v.every((x) => isObject(x) && !isHidden(x)) && v.length <= 80) return objectsTable(v, path, ctx);
      return el("ol", { start: 0, class: "items" }, v.map((x, i) => el("li", {}, value(x, `${path}.${i}`, ctx))));
    }
    if (isHidden(v)) {
      const extra = Object.keys(v).filter((k) => k !== "count").map((k) => ` (${words(k)}: ${v[k]})`).join("");
      return el("span", { class: "hidden", "data-path": `${path}.count`, title: "hidden from this viewer",
        text: `${v.count} hidden${extra}` });
    }
    return kvTable(v, path, ctx);
  }

  function kvTable(obj, path, ctx) {
    const keys = Object.keys(obj);
    if (keys.length === 0) return el("span", { class: "empty", text: "none" });
    return el("table", { class: "kv" }, el("tbody", {}, keys.map((k) =>
      el("tr", {}, el("th", { text: words(k) }), el("td", {}, value(obj[k], path ? `${path}.${k}` : k, ctx))))));
  }

  function objectsTable(list, path, ctx) {
    const columns = [];
    for (const item of list) for (const k of Object.keys(item)) if (!columns.includes(k)) columns.push(k);
    return el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, el("th", { text: "#" }), columns.map((c) => el("th", { text: words(c) })))),
      el("tbody", {}, list.map((item, i) => el("tr", {}, el("td", { class: "muted", text: i }),
        columns.map((c) => el("td", {}, c in item ? value(item[c], `${path}.${i}.${c}`, ctx) : ""))))));
  }

  /** A top-level entry that holds one value per seat: a list of n, or an object keyed 0..n-1. */
  function perSeat(v, n) {
    if (n < 2) return null;
    if (Array.isArray(v) && v.length === n) return v.map((x, i) => [String(i), x]);
    if (isObject(v) && !isHidden(v)) {
      const keys = Object.keys(v);
      if (keys.length === n && keys.every((k) => /^\d+$/.test(k) && Number(k) < n)) {
        return keys.sort((a, b) => a - b).map((k) => [k, v[k]]);
      }
    }
    return null;
  }

  function seatLabel(ctx, i) {
    const seat = (ctx.seats || [])[i] || {};
    return seat.name || seat.player_id || (seat.bot ? `bot:${seat.bot}` : `seat ${i}`);
  }

  /** The rows of the per-seat table: [label, key path, per-seat entries]. */
  function seatRows(state, n) {
    const rows = [];
    for (const [key, v] of Object.entries(state)) {
      const entries = perSeat(v, n);
      if (!entries) continue;
      const objects = entries.every(([, x]) => isObject(x) && !isHidden(x));
      if (objects) {
        const sub = [];
        for (const [, x] of entries) for (const k of Object.keys(x)) if (!sub.includes(k)) sub.push(k);
        for (const k of sub) rows.push({ label: `${words(key)} · ${words(k)}`, cells: entries.map(([s, x]) => [`${key}.${s}.${k}`, x, k]) });
      } else {
        rows.push({ label: words(key), cells: entries.map(([s, x]) => [`${key}.${s}`, x, null]) });
      }
    }
    return rows;
  }

  function seatsTable(state, ctx) {
    const n = (ctx.seats || []).length;
    const rows = seatRows(state, n);
    const acting = new Set(ctx.toAct || []);
    const ranks = ctx.result ? ctx.result.ranks : null;
    const head = el("tr", {}, el("th", { text: "" }), Array.from({ length: n }, (_, i) => el("th", {
      class: "seathead" + (acting.has(i) ? " acting" : ""), "data-seat": i,
    }, `seat ${i} · ${seatLabel(ctx, i)}`, ctx.viewerSeat === i ? " (you)" : "",
      acting.has(i) ? " — to act" : "", ranks ? ` — rank ${ranks[i]}` : "")));
    const body = rows.map((row) => el("tr", {}, el("th", { text: row.label }),
      row.cells.map(([path, x, k]) => el("td", {}, k === null ? value(x, path, ctx) : (k in x ? value(x[k], path, ctx) : "")))));
    return { table: el("table", { class: "grid seats" }, el("thead", {}, head), el("tbody", {}, body)), keys: rows };
  }

  /** The whole view: the per-game board (if any), the per-seat table, then everything public. */
  function renderState(state, ctx) {
    const out = el("div", { class: "state" });
    if (state === null || state === undefined) {
      out.append(el("p", { class: "muted", text: "The match is created; the game is not set up yet at this version." }));
      return out;
    }
    const special = GAMES[ctx.game];
    if (special) {
      try { out.append(special(state, ctx)); } catch (err) { console.warn("board renderer failed", err); }
    }
    const n = (ctx.seats || []).length;
    const { table } = seatsTable(state, ctx);
    out.append(el("h2", { text: "Seats" }), table);
    const publicPart = {};
    for (const [key, v] of Object.entries(state)) if (!perSeat(v, n)) publicPart[key] = v;
    out.append(el("h2", { text: "Table" }), kvTable(publicPart, "", ctx));
    return out;
  }

  // ----- per-game boards (drawn in addition to the generic tables) --------------------------
  const GAMES = {
    "rise-of-tribes": function (state, ctx) {
      const n = state.n || (ctx.seats || []).length;
      const terrain = state.terrain || [];
      const rows = terrain.map((t, hex) => el("tr", {},
        el("td", { text: hex }), el("td", { class: `terrain-${t}`, text: t }),
        Array.from({ length: n }, (_, s) => el("td", { text: ((state.pop || [])[hex] || [])[s] || "" })),
        el("td", { text: (state.village || [])[hex] === null || (state.village || [])[hex] === undefined ? "" :
          `village of ${seatLabel(ctx, state.village[hex])}` })));
      return el("div", { class: "board" }, el("h2", { text: "Board" }), el("table", { class: "grid" },
        el("thead", {}, el("tr", {}, el("th", { text: "hex" }), el("th", { text: "terrain" }),
          Array.from({ length: n }, (_, s) => el("th", { text: seatLabel(ctx, s) })), el("th", { text: "village" }))),
        el("tbody", {}, rows)));
    },
    "duel": function (state, ctx) {
      const n = state.players || (ctx.seats || []).length;
      return el("div", { class: "board" }, el("h2", { text: `Round ${Math.min(state.round, state.rounds)} of ${state.rounds}` }),
        el("p", {}, "Last cards revealed: ", (state.last || []).length ? (state.last || []).map((c, s) =>
          `${seatLabel(ctx, s)} ${c}`).join(", ") : "none yet", ". Scores: ",
          Array.from({ length: n }, (_, s) => `${seatLabel(ctx, s)} ${(state.scores || [])[s]}`).join(", "), "."));
    },
  };

  // ----- events in words -------------------------------------------------------------------
  function compact(v) {
    const s = isScalar(v) ? scalarText(v) : JSON.stringify(v);
    return s.length > 80 ? s.slice(0, 77) + "…" : s;
  }

  function ordinal(r) {
    return r + (r === 1 ? "st" : r === 2 ? "nd" : r === 3 ? "rd" : "th");
  }

  function describeEvent(ev, ctx) {
    const d = ev.data || {};
    const who = (i) => `seat ${i} (${seatLabel(ctx, i)})`;
    switch (ev.type) {
      case "match.created":
        return `Match created: ${d.game}, ${(d.seats || []).map((s, i) => who(i)).join(", ")}`;
      case "match.seat_handed_over":
        return `${who(d.seat)} is played by a ${d.bot} bot from now on (${words(d.reason)})`;
      case "match.ended": {
        const ranks = (d.outcome || {}).ranks || [];
        const order = ranks.map((r, i) => [r, i]).sort((a, b) => a[0] - b[0]);
        return `Match over: ${order.map(([r, i]) => `${ordinal(r)} ${who(i)}`).join(", ")}`;
      }
      case "match.aborted":
        return `Match aborted: ${d.reason}`;
      default: {
        const actor = ev.cause && typeof ev.cause.seat === "number" ? ev.cause.seat :
          typeof d.seat === "number" ? d.seat : null;
        const parts = Object.entries(d).filter(([k]) => k !== "seat").map(([k, v]) => `${words(k)} ${compact(v)}`);
        return `${actor !== null ? who(actor) + ": " : ""}${words(ev.type)}${parts.length ? " — " + parts.join(", ") : ""}`;
      }
    }
  }

  window.Render = { el, renderState, describeEvent, scalarText, seatLabel, words, GAMES };
})();
