/* The match index (#/): filters, pages, games by title — and a form that creates a table of the
 * person against bots of a chosen level (a player registered in the page, its token kept in this
 * browser's localStorage) and opens it to play. */
import { h, fill } from "./dom.js";
import { api, fmtTime, mm, viewerConfig } from "./api.js";
import { errorBox, tokenKey } from "./match.js";
import { seatName } from "./words.js";

const PLAYER_KEY = "viewer-player";

function winners(item) {
  if (!item.result || !item.result.ranks) return "";
  return item.result.ranks.map((r, i) => (r === 1 ? seatName(item.seats[i], i) : null)).filter(Boolean).join(", ");
}

/** The person playing in this browser: {player_id, name, token} registered once by name. */
async function me(name) {
  const kept = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
  if (kept && kept.token && (!name || kept.name === name)) return kept;
  const made = await mm("/v1/players", null, { method: "POST", json: { name } });
  localStorage.setItem(PLAYER_KEY, JSON.stringify(made));
  return made;
}

function newTableForm(games, bots) {
  const kept = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
  const game = h("select", { id: "new-game", name: "game" }, games.map((g) => h("option", { value: g.id, text: g.title })));
  const players = h("select", { id: "new-players", name: "players" });
  const syncPlayers = () => {
    const g = games.find((x) => x.id === game.value);
    fill(players, Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => g.min_players + i)
      .map((n) => h("option", { value: n, text: `${n} players` })));
  };
  game.addEventListener("change", syncPlayers);
  syncPlayers();
  const bot = h("select", { id: "new-bot", name: "bot" }, bots.map((b) => h("option", { value: b, text: `${b} bots` })));
  const name = h("input", { id: "new-name", name: "name", placeholder: "your name", required: true, maxlength: 40 });
  name.value = kept ? kept.name : "";
  const status = h("span", { id: "new-status", class: "muted" });
  return h("form", { class: "panel row", id: "new-table", onsubmit: async (e) => {
    e.preventDefault();
    status.textContent = "creating…";
    try {
      const player = await me(name.value.trim());
      const seats = [{ player_id: player.player_id }];
      for (let i = 1; i < Number(players.value); i++) seats.push({ bot: bot.value });
      const table = await mm("/v1/tables", player.token, { method: "POST", json: { game: game.value, seats, options: {} } });
      sessionStorage.setItem(tokenKey(table.match_id), player.token);
      location.hash = `#/match/${encodeURIComponent(table.match_id)}`;
    } catch (err) {
      status.replaceChildren(errorBox(err));
    }
  } }, h("b", { text: "Play against bots" }), h("label", {}, "Game ", game), h("label", {}, "Table ", players),
  h("label", {}, "Level ", bot), h("label", {}, "Your name ", name),
  h("button", { class: "primary", type: "submit", id: "create-table", text: "Create and play" }), status);
}

export async function showIndex(app, query, current = () => true) {
  const cfg = await viewerConfig();
  if (!current()) return;
  const titles = Object.fromEntries(cfg.games.map((g) => [g.id, g.title]));
  const filters = { game: query.get("game") || "", status: query.get("status") || "", player: query.get("player") || "" };
  const cursors = [null];
  const gameSelect = h("select", { name: "game" }, h("option", { value: "", text: "any game" }),
    cfg.games.map((g) => h("option", { value: g.id, text: g.title })));
  gameSelect.value = filters.game;
  const statusSelect = h("select", { name: "status" }, ["", "active", "finished", "aborted"].map((x) => h("option", { value: x, text: x || "any status" })));
  statusSelect.value = filters.status;
  const playerInput = h("input", { name: "player", placeholder: "player id" });
  playerInput.value = filters.player;
  const form = h("form", { class: "filters panel", onsubmit: (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    if (gameSelect.value) q.set("game", gameSelect.value);
    if (statusSelect.value) q.set("status", statusSelect.value);
    if (playerInput.value.trim()) q.set("player", playerInput.value.trim());
    location.hash = `#/?${q}`;
  } }, h("label", {}, "Game ", gameSelect), h("label", {}, "Status ", statusSelect),
  h("label", {}, "Player ", playerInput), h("button", { class: "primary", type: "submit", text: "Find" }));
  const body = h("tbody");
  const older = h("button", { id: "older", type: "button", text: "Older →" });
  const newer = h("button", { id: "newer", type: "button", text: "← Newer" });
  const status = h("span", { class: "muted" });
  fill(app, h("h1", { text: "Matches" }), newTableForm(cfg.games, cfg.bots), form,
    h("table", { class: "list", id: "match-list" }, h("thead", {}, h("tr", {},
      ["match", "game", "seats", "status", "version", "created", "finished", "winner"].map((x) => h("th", { text: x })))), body),
    h("div", { class: "row pager" }, newer, older, status));

  async function load(page) {
    status.textContent = "loading…";
    try {
      const res = await api("/v1/matches", null, { ...filters, cursor: cursors[page], limit: 20 });
      fill(body, res.matches.map((m) => h("tr", { "data-match": m.match_id, "data-game": m.game },
        h("td", {}, h("a", { href: `#/match/${encodeURIComponent(m.match_id)}` }, h("code", { class: "id", text: m.match_id }))),
        h("td", { text: titles[m.game] || m.game }),
        h("td", { text: m.seats.map((x, i) => seatName(x, i)).join(", ") }),
        h("td", {}, h("span", { class: `status ${m.status}`, text: m.status })),
        h("td", { text: m.version }), h("td", { text: fmtTime(m.created_at) }),
        h("td", { text: fmtTime(m.finished_at) }), h("td", { text: winners(m) }))));
      if (!res.matches.length) fill(body, h("tr", {}, h("td", { colspan: 8, class: "muted", text: "No matches." })));
      cursors[page + 1] = res.next_cursor;
      older.disabled = !res.next_cursor;
      newer.disabled = page === 0;
      older.onclick = () => load(page + 1);
      newer.onclick = () => load(page - 1);
      status.textContent = `page ${page + 1}`;
    } catch (err) {
      fill(body, h("tr", {}, h("td", { colspan: 8 }, errorBox(err))));
      status.textContent = "";
    }
  }
  await load(0);
}
