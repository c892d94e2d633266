/* The analysis panel of a finished match (issue 22): a graph of each seat's estimated value over
 * the versions, the played and best move of every judged decision with its loss, and the worst
 * decisions as buttons that jump the replay to them.
 *
 * A module of its own, outside the viewer's shell: the shell mounts it with
 *   TabletopAnalysis.mount(container, {matchId, onJump(version)})
 * It reads GET /v1/matches/{id}/analysis; when the analysis was never asked for it offers a button
 * that POSTs it; while it is queued or running it shows the progress and reads again every second.
 * Everything drawn carries data- attributes (data-version, data-seat, data-loss) for the tests.
 */
(function () {
  "use strict";

  const W = 640, H = 180, PAD = 24, WORST = 5;
  const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, attrs, ...children) {
    const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null) continue;
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k === "className" ? "class" : k, v);
    }
    for (const c of children.flat()) {
      if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  /** A move in words when the page gives no label for it: its type, then its fields (lists joined). */
  const words = (v) => (Array.isArray(v) ? (v.length ? v.map(words).join(", ") : "none")
    : v !== null && typeof v === "object" ? Object.entries(v).map(([k, x]) => `${k.replace(/_/g, " ")} ${words(x)}`).join(", ")
    : String(v));
  const plainMove = (m) => Object.entries(m || {}).map(([k, v]) => (k === "type" ? String(v).replace(/_/g, " ")
    : `${k.replace(/_/g, " ")} ${words(v)}`)).join(", ");
  let moveText = plainMove;
  let seatText = (seat) => `seat ${seat}`;

  function graph(doc) {
    const ds = doc.decisions;
    const maxV = Math.max(1, ...ds.map((d) => d.version));
    const x = (v) => PAD + (W - 2 * PAD) * (v / maxV);
    const y = (p) => H - PAD - (H - 2 * PAD) * p;
    const svg = el("svg:svg", {width: W, height: H, viewBox: `0 0 ${W} ${H}`, "data-role": "value-graph"},
      el("svg:line", {x1: PAD, y1: y(0), x2: W - PAD, y2: y(0), stroke: "#999"}),
      el("svg:line", {x1: PAD, y1: y(1), x2: W - PAD, y2: y(1), stroke: "#ddd"}));
    for (const s of doc.seats) {
      const mine = ds.filter((d) => d.seat === s.seat);
      if (!mine.length) continue;
      svg.append(el("svg:polyline", {fill: "none", stroke: COLOURS[s.seat % COLOURS.length], "stroke-width": 2,
        "data-seat": s.seat, points: mine.map((d) => `${x(d.version)},${y(d.value_played)}`).join(" ")}));
    }
    return svg;
  }

  function seatsTable(doc) {
    const cols = ["seat", "decisions", "mean_loss", "accuracy", "inaccuracies", "mistakes", "blunders"];
    return el("table", {"data-role": "seat-figures"},
      el("tr", {}, cols.map((c) => el("th", {text: c.replace("_", " ")}))),
      doc.seats.map((s) => el("tr", {"data-seat": s.seat}, cols.map((c) => el("td", {text: String(s[c])})))));
  }

  function worstList(doc, onJump) {
    const worst = [...doc.decisions].filter((d) => d.loss > 0).sort((a, b) => b.loss - a.loss).slice(0, WORST);
    return el("ol", {"data-role": "worst"}, worst.map((d) => el("li", {},
      el("button", {"data-version": d.version, "data-loss": d.loss, onclick: () => onJump && onJump(d.version),
        text: `version ${d.version}, ${seatText(d.seat)}: lost ${d.loss}`}),
      ` played ${moveText(d.played)}, best ${moveText(d.best)}`)));
  }

  function decisionsTable(doc, onJump) {
    return el("table", {"data-role": "decisions"},
      el("tr", {}, ["version", "seat", "played", "best", "value played", "value best", "loss"].map((c) => el("th", {text: c}))),
      doc.decisions.map((d) => el("tr", {"data-version": d.version, "data-seat": d.seat, "data-loss": d.loss},
        el("td", {}, el("a", {href: "#", onclick: (e) => { e.preventDefault(); if (onJump) onJump(d.version); },
          text: String(d.version)})),
        el("td", {text: seatText(d.seat)}), el("td", {text: moveText(d.played)}), el("td", {text: moveText(d.best)}),
        el("td", {text: String(d.value_played)}), el("td", {text: String(d.value_best)}), el("td", {text: String(d.loss)}))));
  }

  /** Show the analysis of ``matchId`` in ``container``; ``label(move)`` and ``seatName(seat)``, when
   * given, say moves and seats in the game's words (the viewer passes its renderer's). */
  function mount(container, {matchId, onJump, base = "", label, seatName}) {
    if (label) moveText = (m) => { try { return label(m) || plainMove(m); } catch (err) { return plainMove(m); } };
    if (seatName) seatText = (seat) => seatName(seat);
    const url = `${base}/v1/matches/${encodeURIComponent(matchId)}/analysis`;
    let timer = null;
    const show = (...nodes) => { container.replaceChildren(...nodes); };

    async function load() {
      const r = await fetch(url);
      if (r.status === 404) {
        show(el("p", {"data-role": "status", "data-status": "none"}, "Not analysed yet. ",
          el("button", {"data-role": "ask", text: "Analyse this match", onclick: ask})));
        return;
      }
      const doc = await r.json();
      if (!r.ok) { show(el("p", {"data-role": "status", "data-status": "error", text: doc.detail || r.statusText})); return; }
      const status = el("p", {"data-role": "status", "data-status": doc.status,
        text: `Analysis ${doc.status} (budget ${doc.budget}, engine ${doc.engine}): ${Math.round(doc.progress * 100)}%`});
      if (doc.status === "queued" || doc.status === "running") {
        show(status, graph(doc));
        timer = setTimeout(load, 1000);
        return;
      }
      show(status, graph(doc), seatsTable(doc), el("h3", {text: "Worst decisions"}), worstList(doc, onJump),
        el("h3", {text: "Every decision"}), decisionsTable(doc, onJump));
    }

    async function ask() {
      const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"});
      if (!r.ok && r.status !== 202) {
        const doc = await r.json().catch(() => ({}));
        show(el("p", {"data-role": "status", "data-status": "error", text: doc.detail || r.statusText}));
        return;
      }
      load();
    }

    load();
    return {stop() { if (timer) clearTimeout(timer); }, reload: load};
  }

  window.TabletopAnalysis = {mount};
})();
