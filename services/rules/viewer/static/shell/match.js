/* One match (#/match/<id>): its info row, stepping through its versions (buttons, slider,
 * keyboard), following it live over its stream, the table drawn by the game's renderer as the
 * viewer's seat may see it (a spectator, or a seat with its token), the events in sentences, the
 * audit with the seed commitment — and, for the seat to act, its moves as controls. */
import { h, fill } from "./dom.js";
import { api, catalog, followStream, viewerConfig } from "./api.js";
import { rendererFor, call } from "./renderers.js";
import { describeEvent } from "./events.js";
import { drawControls } from "./play.js";
import { seatName, who } from "./words.js";
import "../analysis.js"; // window.TabletopAnalysis: the analysis panel of a finished match

export function errorBox(err) {
  return h("p", { class: "error", role: "alert", text: `${err.status ? err.status + ": " : ""}${err.message}` });
}

export const tokenKey = (matchId) => `viewer-token:${matchId}`;

export async function showMatch(app, matchId, setTeardown) {
  const enc = encodeURIComponent(matchId);
  const s = { token: sessionStorage.getItem(tokenKey(matchId)) || "", summary: null, version: 1, head: 1, events: [],
    views: new Map(), follow: true, stream: null, renderSeq: 0, seat: null, renderer: null, catalog: null, title: "" };
  const title = h("h1", {}, h("span", { id: "game-title" }), " ", h("code", { class: "id", text: matchId }));
  const info = h("div", { class: "panel", id: "match-info" });
  const auditBox = h("div", { class: "panel", id: "audit" }, h("span", { class: "muted", text: "audit: loading…" }));
  const analysisBox = h("div", { class: "panel", id: "analysis", hidden: true });
  const tokenInput = h("input", { id: "token", type: "password", placeholder: "paste a seat's token to see and play what it may",
    size: 40, autocomplete: "off" });
  tokenInput.value = s.token;
  const asLabel = h("span", { id: "viewer-as", class: "muted" });
  const tokenProblem = h("span", { id: "token-problem", class: "error" });
  const tokenForm = h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); useToken(tokenInput.value.trim()); } },
    h("label", { for: "token", text: "Play or view as" }), tokenInput,
    h("button", { type: "submit", id: "apply-token", text: "Apply" }),
    h("button", { type: "button", id: "clear-token", text: "Spectate", onclick: () => { tokenInput.value = ""; useToken(""); } }),
    asLabel, tokenProblem);
  const slider = h("input", { type: "range", id: "slider", min: 1, max: 1, value: 1, "aria-label": "version" });
  const label = h("span", { id: "version-label" });
  const btn = (id, text, tip, fn) => h("button", { id, text, title: tip, type: "button", onclick: fn });
  const stepper = h("div", { class: "controls panel" },
    btn("first", "«", "first version (Home)", () => show(1)), btn("prev", "◀", "previous version (←)", () => show(s.version - 1)),
    slider, btn("next", "▶", "next version (→)", () => show(s.version + 1)), btn("last", "»", "latest version (End)", () => show(s.head)),
    label, h("span", { id: "live", class: "live" }));
  const awaitedLine = h("div", { id: "awaited", class: "awaited" });
  const playBox = h("div", { id: "play", class: "play", "data-ready": "0" });
  const stateBox = h("div", { id: "state", class: "panel table-view" });
  const eventsBox = h("ol", { class: "events", id: "events" });
  const detail = h("div", { id: "card-detail", class: "panel card-detail", hidden: true });
  fill(app, title, info, h("div", { class: "panel" }, tokenForm), stepper,
    h("div", { class: "columns" }, h("div", { class: "main-column" }, h("div", { class: "panel" }, awaitedLine, playBox), stateBox),
      h("div", { class: "side-column" }, detail, auditBox, analysisBox, h("div", { class: "panel" }, h("h2", { text: "Last events" }), eventsBox))));

  slider.addEventListener("input", () => show(Number(slider.value)));
  const onKey = (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const steps = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (e.key in steps) { e.preventDefault(); show(s.version + steps[e.key]); }
    else if (e.key === "Home") { e.preventDefault(); show(1); }
    else if (e.key === "End") { e.preventDefault(); show(s.head); }
  };
  document.addEventListener("keydown", onKey);
  const abort = new AbortController();
  setTeardown(() => { document.removeEventListener("keydown", onKey); abort.abort(); if (s.stream) s.stream.abort(); });

  const ctx = (version) => ({ catalog: s.catalog, seat: s.seat, h, game: s.summary.game, version,
    seatNames: s.summary.seats.map((seat, i) => seatName(seat, i)), status: s.summary.status });

  function drawLabel() {
    asLabel.textContent = s.seat === null ? "as a spectator" : `as seat ${s.seat} (${who(ctx(), s.seat)})`;
  }

  /** Take a token (or none); a refused one is said, dropped, and the match shown as a spectator. */
  async function useToken(token) {
    s.token = token;
    s.seat = null;
    tokenProblem.textContent = "";
    if (token) sessionStorage.setItem(tokenKey(matchId), token); else sessionStorage.removeItem(tokenKey(matchId));
    s.views.clear();
    try {
      await loadEvents();
    } catch (err) {
      if (err.status === 401 || err.status === 403) return refuseToken(err);
      throw err;
    }
    drawLabel();
    restartStream();
    await show(s.version === s.head ? s.head : s.version);
  }

  async function refuseToken(err) {
    s.token = "";
    tokenInput.value = "";
    s.seat = null;
    sessionStorage.removeItem(tokenKey(matchId));
    s.views.clear();
    tokenProblem.textContent = `That token was refused (${err.status}: ${err.message}); showing the match as a spectator.`;
    drawLabel();
    await loadEvents();
    restartStream();
    await show(s.head);
  }

  function drawInfo() {
    const m = s.summary;
    fill(title.querySelector("#game-title"), s.title);
    fill(info, h("div", { class: "row" },
      h("span", {}, h("b", { text: s.title })),
      h("span", {}, "status ", h("span", { class: `status ${m.status}`, id: "status", text: m.status })),
      h("span", {}, "version ", h("b", { id: "head-version", text: s.head })),
      h("span", { class: "grow" }, "seats: ", m.seats.map((seat, i) => `${i} ${seatName(seat, i)}${seat.controller && seat.controller !== "human" && !seat.bot ? ` (now a ${seat.controller} bot)` : ""}`).join(" · ")),
      m.status !== "active" ? h("a", { id: "export", href: `/v1/matches/${enc}/export`, download: `match-${matchId}.ndjson`, text: "export (NDJSON)" }) : null),
    m.result ? h("div", { id: "result" }, "Result: ", m.result.ranks.map((r, i) =>
      `${seatName(m.seats[i], i)}: rank ${r}, score ${m.result.scores[i]}`).join(" · ")) : null);
  }

  async function drawAudit() {
    try {
      const a = await api(`/v1/matches/${enc}/audit`);
      const badge = (name, v, pending) => h("span", { class: `verdict ${v === true ? "ok" : v === false ? "bad" : "pending"}`,
        "data-check": name, text: `${name} ${v === true ? "✓" : v === false ? "✗" : pending}` });
      fill(auditBox, h("h2", { text: "Audit" }),
        badge("chain", a.chain_valid), badge("replay", a.replay_valid),
        badge("chance", a.chance_valid, "— checked once the seed is revealed at the end"),
        a.problems && a.problems.length ? h("div", { class: "problem", id: "audit-problem", text: `First problem: ${a.problems[0]}` })
          : h("div", { class: "muted", id: "audit-problem", text: "No problem found." }),
        h("div", { class: "hash" }, "seed commitment ", h("code", { id: "seed-commitment", text: a.seed_commitment || "—" })),
        h("div", { class: "hash" }, "seed ", a.seed ? h("code", { id: "seed", text: a.seed })
          : h("span", { class: "muted", id: "seed", text: "revealed when the match ends" })),
        h("div", { class: "hash muted" }, "head ", h("code", { text: a.head_hash || "—" })));
    } catch (err) {
      fill(auditBox, errorBox(err));
    }
  }

  /** Once the match is over: the analysis panel (ask for it, watch it progress, jump to the worst
   * decisions), moves said in the game's words by its renderer, seats by name. */
  let analysisMounted = false;
  async function drawAnalysis() {
    if (analysisMounted || s.summary.status === "active" || !window.TabletopAnalysis) return;
    analysisMounted = true;
    let final = null;
    try { final = await viewAt(s.head); } catch (err) { final = null; }
    const label = (move) => {
      const made = call(s.renderer, "controls", [move], final ? final.state : {}, ctx(s.head));
      return made && made[0] ? `${made[0].group ? made[0].group + ": " : ""}${made[0].label}` : null;
    };
    analysisBox.hidden = false;
    fill(analysisBox, h("h2", { text: "Analysis" }));
    const body = h("div", { id: "analysis-body" });
    analysisBox.append(body);
    window.TabletopAnalysis.mount(body, { matchId, onJump: (v) => show(v), label,
      seatName: (seat) => seatName(s.summary.seats[seat], seat) });
  }

  function drawEvents() {
    const shown = s.events.filter((e) => e.seq <= s.version).slice(-14).reverse();
    const c = ctx(s.version);
    fill(eventsBox, shown.map((e) => h("li", { class: e.seq === s.version ? "current" : "", "data-seq": e.seq },
      h("span", { class: "seq", text: `v${e.seq}` }), h("span", { class: "sentence", text: describeEvent(e, s.renderer, c) }))));
    if (!shown.length) fill(eventsBox, h("li", { class: "muted", text: "no events yet" }));
  }

  async function loadEvents() {
    let after = 0;
    const all = [];
    for (;;) {
      const page = await api(`/v1/matches/${enc}/events`, s.token, { after, limit: 1000 });
      all.push(...page.events);
      if (page.events.length < 1000) break;
      after = page.next_after;
    }
    s.events = all;
    s.head = Math.max(s.head, all.length ? all[all.length - 1].seq : 1);
  }

  function viewAt(v) {
    if (!s.views.has(v) || (s.summary.status === "active" && v === s.head)) {
      s.views.set(v, api(`/v1/matches/${enc}/view`, s.token, { at: v }));
    }
    return s.views.get(v);
  }

  async function show(v) {
    v = Math.max(1, Math.min(s.head, v));
    s.version = v;
    s.follow = v === s.head;
    slider.max = s.head;
    slider.value = v;
    label.textContent = `version ${v} of ${s.head}`;
    const headLabel = document.getElementById("head-version");
    if (headLabel) headLabel.textContent = String(s.head);
    label.setAttribute("data-version", v);
    for (const [id, off] of [["first", v <= 1], ["prev", v <= 1], ["next", v >= s.head], ["last", v >= s.head]]) {
      document.getElementById(id).disabled = off;
    }
    drawEvents();
    const seq = ++s.renderSeq;
    if (s.summary.status === "active" && over(s.events[s.events.length - 1])) {
      // the log says the match is over: wait for the summary to say so too
      for (let i = 0; i < 20 && s.summary.status === "active"; i++) {
        await refreshSummary();
        if (s.summary.status === "active") await new Promise((r) => setTimeout(r, 250));
      }
    }
    if (seq !== s.renderSeq) return;
    let view;
    try {
      view = await viewAt(v);
    } catch (err) {
      s.views.delete(v);
      if (seq !== s.renderSeq) return;
      if ((err.status === 401 || err.status === 403) && s.token) return refuseToken(err);
      fill(stateBox, errorBox(err));
      stateBox.dataset.version = "error";
      return;
    }
    if (seq !== s.renderSeq) return;
    if (s.follow && v < s.head) return show(s.head);  // more came meanwhile: follow it
    s.seat = view.seat === undefined ? null : view.seat;
    drawLabel();
    const c = ctx(v);
    const turn = { to_act: view.to_act || [], state: view.state, seat: s.seat, version: v, status: v === s.head ? s.summary.status : "active" };
    const finishedHere = v === s.head && s.summary.status !== "active";
    awaitedLine.textContent = finishedHere ? outcomeLine() : view.state ? call(s.renderer, "awaited", turn, c) : "Setting up the game";
    const board = view.state === null || view.state === undefined
      ? h("p", { class: "muted", text: "The match is created; the game is not set up yet at this version." })
      : call(s.renderer, "render", view.state, c);
    fill(stateBox, board);
    stateBox.dataset.version = String(v);
    await drawPlay(v, seq);
  }

  function outcomeLine() {
    const m = s.summary;
    if (m.status === "aborted") return "The match was aborted.";
    if (!m.result) return "The match is over.";
    const first = m.result.ranks.map((r, i) => (r === 1 ? seatName(m.seats[i], i) : null)).filter(Boolean);
    return `The match is over: ${first.join(" and ")} ${first.length > 1 ? "share the win" : "wins"}.`;
  }

  async function drawPlay(v, seq) {
    if (!s.token || s.seat === null || v !== s.head || s.summary.status !== "active") {
      playBox.dataset.ready = "0";
      playBox.dataset.turnVersion = "";
      fill(playBox, s.token && s.seat !== null && v !== s.head && s.summary.status === "active"
        ? h("p", { class: "muted" }, "You are looking at an earlier version. ", h("button", { type: "button", text: "Back to now", onclick: () => show(s.head) }))
        : null);
      return;
    }
    let turn;
    try {
      turn = await api(`/v1/matches/${enc}/turn`, s.token);
    } catch (err) {
      if (seq === s.renderSeq) fill(playBox, errorBox(err));
      return;
    }
    if (seq !== s.renderSeq) return;
    if (turn.version > s.head) {  // the stream has not brought it yet
      s.head = turn.version;
      await loadEvents();
      return show(s.head);
    }
    drawControls(playBox, { matchId, token: s.token, turn, renderer: s.renderer, ctx: ctx(turn.version), stateNode: stateBox,
      onDone: async (r) => {
        if (!r.ok && r.status !== 409) return;  // an illegal move: its reason stays on screen
        if (r.version) s.head = Math.max(s.head, r.version);
        await catchUp();
      } });
  }

  /** The summary and the log again, then the head drawn; a failed read (the service busy or
   * restarting, a rate limit) is retried with a growing delay, so the page never stays on a
   * version the match has left. */
  async function catchUp() {
    for (let delay = 250; !abort.signal.aborted; delay = Math.min(delay * 2, 4000)) {
      try {
        await refreshSummary();
        await loadEvents();
        break;
      } catch (err) {
        const msg = document.getElementById("play-message");
        if (msg) msg.textContent = `Reading the match again (${err.status || err.message})…`;
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    drawInfo();
    await show(s.head);
  }

  let redraw = null;
  function scheduleRedraw() {
    if (redraw) return;
    redraw = setTimeout(async () => {
      redraw = null;
      drawInfo();
      if (s.follow) await show(s.head);
      else show(s.version);
    }, 30);
  }

  function restartStream() {
    if (s.stream) s.stream.abort();
    if (s.summary.status !== "active") { document.getElementById("live").textContent = ""; return; }
    const ctrl = new AbortController();
    s.stream = ctrl;
    abort.signal.addEventListener("abort", () => ctrl.abort());
    const onEvent = async (rec) => {
      if (rec.seq <= (s.events.length ? s.events[s.events.length - 1].seq : 0)) return;
      s.events.push(rec);
      s.head = Math.max(s.head, rec.seq);
      if (rec.type === "match.seat_handed_over") await refreshSummary();
      scheduleRedraw();
    };
    (async () => {
      let delay = 500;
      while (!ctrl.signal.aborted) {
        document.getElementById("live").textContent = "● live";
        try {
          await followStream(matchId, s.token, s.events.length ? s.events[s.events.length - 1].seq : 0, onEvent, ctrl.signal);
          delay = 500;
        } catch (err) {
          if (ctrl.signal.aborted) return;
          delay = Math.min(delay * 2, 8000);
        }
        if (s.summary.status !== "active") break;
        await new Promise((r) => setTimeout(r, delay));
      }
      const live = document.getElementById("live");
      if (live) live.textContent = "";
    })();
  }

  /** The match's summary again; when it has just ended: its audit (the seed is revealed) and no stream. */
  async function refreshSummary() {
    const before = s.summary ? s.summary.status : null;
    const got = await api(`/v1/matches/${enc}`);
    // answers can cross: never step back to an older summary, nor from an ended match to an active one
    if (s.summary && (got.version < s.summary.version || (before !== "active" && got.status === "active"))) return;
    s.summary = got;
    s.head = Math.max(s.head, s.summary.version);
    if (before === "active" && s.summary.status !== "active") {
      if (s.stream) s.stream.abort();
      const live = document.getElementById("live");
      if (live) live.textContent = "";
      drawInfo();
      drawAudit();
      drawAnalysis();
    }
  }

  const over = (e) => e && (e.type === "match.ended" || e.type === "match.aborted");

  try {
    await refreshSummary();
    const [renderer, cat, cfg] = await Promise.all([rendererFor(s.summary.game), catalog(s.summary.game), viewerConfig()]);
    s.renderer = renderer;
    s.catalog = cat;
    const entry = cfg.games.find((g) => g.id === s.summary.game);
    s.title = (renderer && renderer.title) || (entry && entry.title) || s.summary.game;
    try {
      await loadEvents();
    } catch (err) {
      if (!(s.token && (err.status === 401 || err.status === 403))) throw err;
      s.token = "";
      sessionStorage.removeItem(tokenKey(matchId));
      tokenInput.value = "";
      tokenProblem.textContent = `That token was refused (${err.status}: ${err.message}); showing the match as a spectator.`;
      await loadEvents();
    }
  } catch (err) {
    fill(app, title, errorBox(err), h("p", {}, h("a", { href: "#/", text: "back to the matches" })));
    return;
  }
  if (abort.signal.aborted) return;
  drawInfo();
  drawLabel();
  drawAudit();
  await show(s.head);
  drawAnalysis();
  restartStream();
}
