/* One tournament (#/tournament/<id>): its info, the standings table (points, played, tie-breaks in
 * words), the rounds with each pairing's entrants and result linking to the match's page, byes,
 * and the export link. Polled every few seconds while not finished (redrawn only when the
 * tournament's log has grown); the poll stops at the end or when the route changes. */
import { h, fill } from "./dom.js";
import { fmtTime, mm, viewerConfig } from "./api.js";
import { errorBox } from "./match.js";
import { list } from "./words.js";
import { entrantName, formatName, points, resultWords } from "./tournament_words.js";

const POLL_MS = 2000;

function standingsTable(t, nameOf) {
  const head = ["rank", "entrant", "kind", "points", "played", "Buchholz", "Sonneborn–Berger", "rating before"];
  return h("table", { class: "list", id: "standings" },
    h("thead", {}, h("tr", {}, head.map((x) => h("th", { text: x })))),
    h("tbody", {}, t.standings.map((row) => h("tr", { "data-standing": row.entrant_id },
      h("td", { class: "rank", text: row.rank }),
      h("td", { class: "name" }, nameOf(row.entrant_id), row.withdrawn ? h("span", { class: "muted", text: " (withdrawn)" }) : null),
      h("td", { class: "kind", text: row.bot ? `bot (${row.bot})` : "player" }),
      h("td", { class: "points", text: points(row.points) }), h("td", { class: "played", text: row.played }),
      h("td", { class: "buchholz", text: points(row.tiebreaks && row.tiebreaks.buchholz) }),
      h("td", { class: "sonneborn-berger", text: points(row.tiebreaks && row.tiebreaks.sonneborn_berger) }),
      h("td", { class: "rating", text: row.tiebreaks && row.tiebreaks.rating ? points(row.tiebreaks.rating) : "—" })))));
}

function roundsPanel(t, nameOf) {
  if (!t.rounds.length) return h("p", { class: "muted", text: "No round paired yet." });
  return t.rounds.map((r) => h("section", { class: "panel round", "data-round": r.round },
    h("h3", { text: `Round ${r.round}` }),
    h("ul", { class: "pairings" }, r.matches.map((m) => h("li", { "data-pairing": m.match_id },
      h("a", { href: `#/match/${encodeURIComponent(m.match_id)}` }, list(m.entrants.map(nameOf))),
      " — ", h("span", { class: `status ${m.status}`, text: resultWords(m, nameOf) })))),
    r.byes.length ? h("p", { class: "byes" }, `Bye: ${list(r.byes.map(nameOf))}`) : null));
}

function infoPanel(t, title, exportUrl) {
  const planned = t.format === "swiss" && t.rounds_planned ? `, ${t.rounds_planned} rounds` : "";
  return h("div", { class: "panel row", id: "tournament-info" },
    h("span", {}, h("b", { text: title }), ` · ${formatName(t.format)}${planned} · ${t.players_per_match} players per match`),
    h("span", {}, "Status ", h("span", { class: `status ${t.status}`, id: "tournament-status", text: t.status })),
    h("span", { text: `${t.entrants} entrants` }),
    h("span", { class: "muted", text: `started ${fmtTime(t.started_at)} · finished ${fmtTime(t.finished_at)}` }),
    t.status !== "finished" ? h("span", { class: "live", text: "live" }) : null,
    h("a", { id: "export", href: exportUrl, text: "export (NDJSON)" }));
}

export async function showTournament(app, tid, setTeardown, current = () => true) {
  const cfg = await viewerConfig();
  if (!current()) return;
  const titles = Object.fromEntries(cfg.games.map((g) => [g.id, g.title]));
  const path = `/v1/tournaments/${encodeURIComponent(tid)}`;
  let timer = null;
  let stopped = false;
  let drawn = null;  // the log length drawn: a poll that finds the same one leaves the page alone
  setTeardown(() => { stopped = true; clearTimeout(timer); });

  async function draw() {
    const t = await mm(path);
    if (stopped || !current()) return null;
    if (t.version === drawn) return t;
    drawn = t.version;
    const names = Object.fromEntries(t.standings.map((row) => [row.entrant_id, entrantName(row.name)]));
    const nameOf = (e) => names[e] || "unknown entrant";
    fill(app, h("h1", {}, "Tournament ", h("code", { class: "id", text: tid })),
      infoPanel(t, titles[t.game] || t.game, `${cfg.matchmaking}${path}/export`),
      h("div", { class: "panel" }, h("h2", { text: "Standings" }), standingsTable(t, nameOf),
        h("p", { class: "muted", text: "Ties are broken by Buchholz (the opponents' points), then Sonneborn–Berger (the points of the opponents beaten, half of those drawn), then the rating before the event." })),
      h("div", { id: "rounds", "data-version": t.version, "data-status": t.status }, h("h2", { text: "Rounds" }), roundsPanel(t, nameOf)));
    return t;
  }

  async function poll() {
    try {
      const t = await draw();
      if (t && t.status !== "finished" && !stopped) timer = setTimeout(poll, POLL_MS);
    } catch (err) {
      if (!stopped && current()) timer = setTimeout(poll, POLL_MS);  // a failed poll is tried again
    }
  }
  const t = await draw();  // the first read's error is the page's (an unknown tournament says so)
  if (t && t.status !== "finished") timer = setTimeout(poll, POLL_MS);
}
