/* The tournament list (#/tournaments): filters by game, status and format; pages followed by the
 * API's next_cursor (`limit` in the hash sets the page size); each row the game's title, the
 * format, players per match, status and entrants. */
import { h, fill } from "./dom.js";
import { fmtTime, mm, viewerConfig } from "./api.js";
import { errorBox } from "./match.js";
import { formatName } from "./tournament_words.js";

const STATUSES = ["", "open", "running", "finished"];
const FORMATS = ["", "swiss", "round-robin", "arena"];

function select(name, values, blank, label, chosen) {
  const s = h("select", { name }, values.map((v) => h("option", { value: v, text: v ? label(v) : blank })));
  s.value = chosen;
  return s;
}

export async function showTournaments(app, query, current = () => true) {
  const cfg = await viewerConfig();
  if (!current()) return;
  const titles = Object.fromEntries(cfg.games.map((g) => [g.id, g.title]));
  const filters = { game: query.get("game") || "", status: query.get("status") || "", format: query.get("format") || "" };
  const gameSelect = select("game", ["", ...cfg.games.map((g) => g.id)], "any game", (v) => titles[v], filters.game);
  const statusSelect = select("status", STATUSES, "any status", (v) => v, filters.status);
  const formatSelect = select("format", FORMATS, "any format", formatName, filters.format);
  const form = h("form", { class: "filters panel", id: "tournament-filters", onsubmit: (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, s] of [["game", gameSelect], ["status", statusSelect], ["format", formatSelect]]) if (s.value) q.set(k, s.value);
    if (query.get("limit")) q.set("limit", query.get("limit"));
    location.hash = `#/tournaments?${q}`;
  } }, h("label", {}, "Game ", gameSelect), h("label", {}, "Status ", statusSelect),
  h("label", {}, "Format ", formatSelect), h("button", { class: "primary", type: "submit", text: "Find" }));
  const body = h("tbody");
  const next = h("button", { id: "next", type: "button", text: "Next →" });
  const prev = h("button", { id: "prev", type: "button", text: "← Previous" });
  const status = h("span", { class: "muted" });
  const cursors = [null];
  const limit = query.get("limit") || "20";  // the page size (the API allows up to 200)
  fill(app, h("h1", { text: "Tournaments" }), form,
    h("table", { class: "list", id: "tournament-list" }, h("thead", {}, h("tr", {},
      ["tournament", "game", "format", "players per match", "status", "entrants", "created"].map((x) => h("th", { text: x })))), body),
    h("div", { class: "row pager" }, prev, next, status));

  async function load(page) {
    status.textContent = "loading…";
    const q = new URLSearchParams({ limit });
    for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
    if (cursors[page]) q.set("cursor", cursors[page]);
    try {
      const res = await mm(`/v1/tournaments?${q}`);
      if (!current()) return;
      fill(body, res.tournaments.map((t) => h("tr", { "data-tournament": t.tournament_id, "data-game": t.game },
        h("td", {}, h("a", { href: `#/tournament/${encodeURIComponent(t.tournament_id)}` }, h("code", { class: "id", text: t.tournament_id }))),
        h("td", { text: titles[t.game] || t.game }), h("td", { text: formatName(t.format) }),
        h("td", { text: t.players_per_match }), h("td", {}, h("span", { class: `status ${t.status}`, text: t.status })),
        h("td", { text: t.entrants }), h("td", { text: fmtTime(t.created_at) }))));
      if (!res.tournaments.length) fill(body, h("tr", {}, h("td", { colspan: 7, class: "muted", text: "No tournaments." })));
      cursors[page + 1] = res.next_cursor;
      next.disabled = !res.next_cursor;
      prev.disabled = page === 0;
      next.onclick = () => load(page + 1);
      prev.onclick = () => load(page - 1);
      status.textContent = `page ${page + 1}`;
    } catch (err) {
      fill(body, h("tr", {}, h("td", { colspan: 7 }, errorBox(err))));
      status.textContent = "";
    }
  }
  await load(0);
}
