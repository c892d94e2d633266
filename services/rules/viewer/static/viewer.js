/* The match viewer: the match index (#/), one match (#/match/<id>), stepping through its versions,
 * following it live over its SSE stream, and its audit verdict. Everything goes through the public
 * rules API of the server that serves this page. */
(function () {
  "use strict";
  const { el, renderState, describeEvent } = window.Render;
  const app = document.getElementById("app");
  let teardown = () => {};

  // ----- the API -------------------------------------------------------------------------------
  class ApiProblem extends Error {
    constructor(status, body) {
      super((body && (body.detail || body.title)) || `HTTP ${status}`);
      this.status = status;
      this.body = body;
    }
  }

  async function api(path, token, params) {
    const url = new URL(path, location.origin);
    for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    const resp = await fetch(url, { headers });
    const body = await resp.json().catch(() => null);
    if (!resp.ok) throw new ApiProblem(resp.status, body);
    return body;
  }

  /** Server-sent events over fetch (so a seat's token can go in the Authorization header). */
  async function followStream(matchId, token, lastId, onEvent, signal) {
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
        const msg = { data: "" };
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) continue;
          const i = line.indexOf(":");
          const field = i < 0 ? line : line.slice(0, i);
          const val = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
          if (field === "data") msg.data += (msg.data ? "\n" : "") + val;
          else msg[field] = val;
        }
        if (msg.data) onEvent(JSON.parse(msg.data));
      }
    }
  }

  function fmtTime(t) {
    if (t === null || t === undefined) return "—";
    return new Date(t * 1000).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
  }

  function errorBox(err) {
    return el("p", { class: "error", role: "alert", text: `${err.status ? err.status + ": " : ""}${err.message}` });
  }

  function winners(item) {
    if (!item.result || !item.result.ranks) return "";
    return item.result.ranks.map((r, i) => (r === 1 ? (item.seats[i] || {}).name || `seat ${i}` : null))
      .filter(Boolean).join(", ");
  }

  // ----- the index -----------------------------------------------------------------------------
  let gamesCache = null;
  async function games() {
    if (!gamesCache) gamesCache = (await api("/viewer/config.json")).games;
    return gamesCache;
  }

  async function showIndex(query) {
    const filters = { game: query.get("game") || "", status: query.get("status") || "", player: query.get("player") || "" };
    const cursors = [null];
    const gameSelect = el("select", { name: "game" }, el("option", { value: "", text: "any game" }),
      (await games()).map((g) => el("option", { value: g.id, text: g.title })));
    gameSelect.value = filters.game;
    const statusSelect = el("select", { name: "status" }, ["", "active", "finished", "aborted"].map((s) =>
      el("option", { value: s, text: s || "any status" })));
    statusSelect.value = filters.status;
    const playerInput = el("input", { name: "player", placeholder: "player id", value: filters.player });
    const form = el("form", { class: "filters panel", onsubmit: (e) => {
      e.preventDefault();
      const q = new URLSearchParams();
      if (gameSelect.value) q.set("game", gameSelect.value);
      if (statusSelect.value) q.set("status", statusSelect.value);
      if (playerInput.value.trim()) q.set("player", playerInput.value.trim());
      location.hash = `#/?${q}`;
    } }, el("label", {}, "Game ", gameSelect), el("label", {}, "Status ", statusSelect),
      el("label", {}, "Player ", playerInput), el("button", { class: "primary", type: "submit", text: "Find" }));
    const body = el("tbody");
    const older = el("button", { id: "older", text: "Older →" });
    const newer = el("button", { id: "newer", text: "← Newer" });
    const status = el("span", { class: "muted" });
    app.replaceChildren(el("h1", { text: "Matches" }), form,
      el("table", { class: "list", id: "match-list" }, el("thead", {}, el("tr", {},
        ["match", "game", "seats", "status", "version", "created", "finished", "winner"].map((h) => el("th", { text: h })))), body),
      el("div", { class: "row", style: "margin-top:8px" }, newer, older, status));

    async function load(page) {
      status.textContent = "loading…";
      try {
        const res = await api("/v1/matches", null, { ...filters, cursor: cursors[page], limit: 20 });
        body.replaceChildren(...res.matches.map((m) => el("tr", { "data-match": m.match_id },
          el("td", {}, el("a", { href: `#/match/${encodeURIComponent(m.match_id)}` }, el("code", { class: "id", text: m.match_id }))),
          el("td", { text: m.game }),
          el("td", { text: m.seats.map((s) => s.name || s.player_id || `bot:${s.bot}`).join(", ") }),
          el("td", {}, el("span", { class: `status ${m.status}`, text: m.status })),
          el("td", { text: m.version }), el("td", { text: fmtTime(m.created_at) }),
          el("td", { text: fmtTime(m.finished_at) }), el("td", { text: winners(m) }))));
        if (!res.matches.length) body.replaceChildren(el("tr", {}, el("td", { colspan: 8, class: "muted", text: "No matches." })));
        cursors[page + 1] = res.next_cursor;
        older.disabled = !res.next_cursor;
        newer.disabled = page === 0;
        older.onclick = () => load(page + 1);
        newer.onclick = () => load(page - 1);
        status.textContent = `page ${page + 1}`;
      } catch (err) {
        body.replaceChildren(el("tr", {}, el("td", { colspan: 8 }, errorBox(err))));
        status.textContent = "";
      }
    }
    await load(0);
  }

  // ----- one match -----------------------------------------------------------------------------
  async function showMatch(matchId) {
    const tokenKey = `viewer-token:${matchId}`;
    const s = {
      token: sessionStorage.getItem(tokenKey) || "", summary: null, version: 1, head: 1, events: [],
      views: new Map(), follow: true, stream: null, renderSeq: 0,
    };
    const title = el("h1", {}, "Match ", el("code", { class: "id", text: matchId }));
    const info = el("div", { class: "panel", id: "match-info" });
    const auditBox = el("div", { class: "panel", id: "audit" }, el("span", { class: "muted", text: "audit: loading…" }));
    const tokenInput = el("input", { id: "token", type: "password", placeholder: "paste a seat's token to see what it sees",
      size: 40, value: s.token });
    const tokenForm = el("form", { class: "row", onsubmit: async (e) => {
      e.preventDefault();
      s.token = tokenInput.value.trim();
      if (s.token) sessionStorage.setItem(tokenKey, s.token); else sessionStorage.removeItem(tokenKey);
      s.views.clear();
      try { await loadEvents(); } catch (err) { /* the view below shows why (a bad token) */ }
      restartStream();
      show(s.version);
    } }, el("label", { for: "token", text: "View as" }), tokenInput,
      el("button", { type: "submit", id: "apply-token", text: "Apply" }),
      el("span", { id: "viewer-as", class: "muted" }));
    const slider = el("input", { type: "range", id: "slider", min: 1, max: 1, value: 1, "aria-label": "version" });
    const label = el("span", { id: "version-label" });
    const btn = (id, text, title, fn) => el("button", { id, text, title, onclick: fn });
    const controls = el("div", { class: "controls panel" },
      btn("first", "«", "first version (Home)", () => show(1)),
      btn("prev", "◀", "previous version (←)", () => show(s.version - 1)),
      slider,
      btn("next", "▶", "next version (→)", () => show(s.version + 1)),
      btn("last", "»", "latest version (End)", () => show(s.head)),
      label, el("span", { id: "live", class: "live" }));
    const stateBox = el("div", { id: "state", class: "panel" });
    const eventsBox = el("ol", { class: "events", id: "events" });
    app.replaceChildren(title, info, el("div", { class: "panel" }, tokenForm), controls,
      el("div", { class: "columns" }, stateBox,
        el("div", {}, auditBox, el("div", { class: "panel" }, el("h2", { text: "Last events" }), eventsBox))));

    slider.addEventListener("input", () => show(Number(slider.value)));
    const onKey = (e) => {
      if (e.target instanceof HTMLInputElement) return;  // typing a token; the slider steps by itself
      const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
      if (e.key in moves) { e.preventDefault(); show(s.version + moves[e.key]); }
      else if (e.key === "Home") { e.preventDefault(); show(1); }
      else if (e.key === "End") { e.preventDefault(); show(s.head); }
    };
    document.addEventListener("keydown", onKey);
    const abort = new AbortController();
    teardown = () => { document.removeEventListener("keydown", onKey); abort.abort(); if (s.stream) s.stream.abort(); };

    function drawInfo() {
      const m = s.summary;
      info.replaceChildren(el("div", { class: "row" },
        el("span", {}, el("b", { text: m.game })),
        el("span", {}, "status ", el("span", { class: `status ${m.status}`, id: "status", text: m.status })),
        el("span", {}, "version ", el("b", { id: "head-version", text: s.head })),
        el("span", { class: "grow" }, "seats: ", m.seats.map((seat, i) =>
          `${i} ${seat.name || seat.player_id || "bot:" + seat.bot}${seat.controller && seat.controller !== "human" && !seat.bot ? ` (now ${seat.controller} bot)` : ""}`).join(" · ")),
        m.status !== "active" ? el("a", { id: "export", href: `/v1/matches/${encodeURIComponent(matchId)}/export`,
          download: `match-${matchId}.ndjson`, text: "export (NDJSON)" }) : null,
        el("a", { href: `/v1/matches/${encodeURIComponent(matchId)}`, text: "JSON" })),
        m.result ? el("div", { id: "result" }, "Result: ", m.result.ranks.map((r, i) =>
          `${m.seats[i].name || "seat " + i}: rank ${r}, score ${m.result.scores[i]}`).join(" · ")) : null);
    }

    async function drawAudit() {
      try {
        const a = await api(`/v1/matches/${encodeURIComponent(matchId)}/audit`);
        const badge = (name, v, pending) => el("span", { class: `verdict ${v === true ? "ok" : v === false ? "bad" : "pending"}`,
          "data-check": name, text: `${name} ${v === true ? "✓" : v === false ? "✗" : pending}` });
        auditBox.replaceChildren(el("h2", { text: "Audit" }),
          badge("chain", a.chain_valid), badge("replay", a.replay_valid),
          badge("chance", a.chance_valid, "— checked once the seed is revealed at the end"),
          a.problems && a.problems.length ? el("div", { class: "problem", id: "audit-problem", text: `First problem: ${a.problems[0]}` })
            : el("div", { class: "muted", id: "audit-problem", text: "No problem found." }),
          el("div", { class: "muted", text: `head ${a.head_hash.slice(0, 16)}…` }));
      } catch (err) {
        auditBox.replaceChildren(errorBox(err));
      }
    }

    function drawEvents() {
      const shown = s.events.filter((e) => e.seq <= s.version).slice(-12).reverse();
      eventsBox.replaceChildren(...shown.map((e) => el("li", { class: e.seq === s.version ? "current" : "", "data-seq": e.seq },
        el("span", { class: "seq", text: `v${e.seq}` }), describeEvent(e, { seats: s.summary.seats }))));
      if (!shown.length) eventsBox.replaceChildren(el("li", { class: "muted", text: "no events yet" }));
    }

    async function loadEvents() {
      let after = 0;
      const all = [];
      for (;;) {
        const page = await api(`/v1/matches/${encodeURIComponent(matchId)}/events`, s.token, { after, limit: 1000 });
        all.push(...page.events);
        if (page.events.length < 1000) break;
        after = page.next_after;
      }
      s.events = all;
    }

    async function viewAt(v) {
      const key = `${v}`;
      if (!s.views.has(key)) s.views.set(key, api(`/v1/matches/${encodeURIComponent(matchId)}/view`, s.token, { at: v }));
      return s.views.get(key);
    }

    async function show(v) {
      v = Math.max(1, Math.min(s.head, v));
      s.version = v;
      s.follow = v === s.head;
      slider.max = s.head;
      slider.value = v;
      label.textContent = `version ${v} of ${s.head}`;
      label.setAttribute("data-version", v);
      for (const [id, off] of [["first", v <= 1], ["prev", v <= 1], ["next", v >= s.head], ["last", v >= s.head]]) {
        document.getElementById(id).disabled = off;
      }
      drawEvents();
      const seq = ++s.renderSeq;
      try {
        const view = await viewAt(v);
        if (seq !== s.renderSeq) return;  // a later step won the race
        const viewerAs = document.getElementById("viewer-as");
        viewerAs.textContent = view.seat === null || view.seat === undefined ? "as a spectator" : `as seat ${view.seat}`;
        const ctx = { game: s.summary.game, seats: view.seats || s.summary.seats, toAct: view.to_act, viewerSeat: view.seat,
          result: v === s.head ? s.summary.result : null };
        stateBox.replaceChildren(el("div", { class: "row" },
          el("span", {}, "to act: ", el("b", { id: "to-act", text: view.to_act.length ? view.to_act.map((i) =>
            `seat ${i} (${window.Render.seatLabel(ctx, i)})`).join(", ") : "nobody" })),
          el("span", { class: "muted", text: `showing version ${view.version}` })),
          renderState(view.state, ctx));
        stateBox.setAttribute("data-version", view.version);
      } catch (err) {
        if (seq !== s.renderSeq) return;
        stateBox.replaceChildren(errorBox(err));
        stateBox.setAttribute("data-version", "error");
        if (err.status === 401 || err.status === 403) s.views.delete(`${v}`);
      }
    }

    function onEvent(ev) {
      if (ev.seq <= s.head && s.events.some((e) => e.seq === ev.seq)) return;
      s.events.push(ev);
      const atHead = s.follow;
      s.head = Math.max(s.head, ev.seq);
      document.getElementById("head-version").textContent = s.head;
      if (ev.type === "match.ended" || ev.type === "match.aborted") {
        refreshSummary().then(() => { drawInfo(); drawAudit(); s.views.clear(); show(atHead ? s.head : s.version); });
        return;
      }
      show(atHead ? s.head : s.version);
    }

    function restartStream() {
      if (s.stream) s.stream.abort();
      if (s.summary.status !== "active") { document.getElementById("live").textContent = ""; return; }
      const ctrl = new AbortController();
      s.stream = ctrl;
      document.getElementById("live").textContent = "● live";
      (async () => {
        let delay = 500;
        while (!ctrl.signal.aborted && s.summary.status === "active") {
          try {
            await followStream(matchId, s.token, s.head, onEvent, ctrl.signal);
            delay = 500;
          } catch (err) {
            if (ctrl.signal.aborted) return;
            delay = Math.min(delay * 2, 8000);
          }
          await new Promise((r) => setTimeout(r, delay));
        }
        document.getElementById("live").textContent = "";
      })();
    }

    async function refreshSummary() {
      s.summary = await api(`/v1/matches/${encodeURIComponent(matchId)}`);
      s.head = Math.max(s.head, s.summary.version);
    }

    try {
      await refreshSummary();
      await loadEvents();
    } catch (err) {
      app.replaceChildren(title, errorBox(err), el("p", {}, el("a", { href: "#/", text: "back to the matches" })));
      return;
    }
    if (abort.signal.aborted) return;
    s.head = Math.max(s.summary.version, s.events.length ? s.events[s.events.length - 1].seq : 1);
    drawInfo();
    drawAudit();
    await show(s.head);
    restartStream();
  }

  // ----- routing -------------------------------------------------------------------------------
  async function route() {
    teardown();
    teardown = () => {};
    const hash = location.hash.replace(/^#/, "") || "/";
    const [path, qs] = hash.split("?");
    const query = new URLSearchParams(qs || "");
    const m = path.match(/^\/match\/(.+)$/);
    try {
      if (m) await showMatch(decodeURIComponent(m[1]));
      else await showIndex(query);
    } catch (err) {
      app.replaceChildren(errorBox(err));
    }
  }
  window.addEventListener("hashchange", route);
  route();
})();
