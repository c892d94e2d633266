/* The seat's controls: its legal moves (from GET /turn) turned into buttons by the game's
 * renderer (grouped and labelled in the game's words), each marked data-move (its index in the
 * legal list); a control that names a card also makes that card clickable where the seat's own
 * area (data-seat) draws it. A click posts the
 * move with expected_version and an Idempotency-Key; the caller is told what happened. */
import { h, fill } from "./dom.js";
import { postMove } from "./api.js";
import { call } from "./renderers.js";

/** Draw the controls for `turn` into `box`; onDone({ok, version, status, error}) after a posted move
 * (version: the match's version the accepted move made). */
export function drawControls(box, { matchId, token, turn, renderer, ctx, stateNode, onDone }) {
  const moves = turn.moves || [];
  box.dataset.turnVersion = String(turn.version);
  if (!moves.length) {
    box.dataset.ready = "0";
    fill(box);
    return;
  }
  const made = call(renderer, "controls", moves, turn.state, ctx);
  const groups = new Map();
  made.forEach((c, i) => {
    const index = moves.indexOf(c.move) >= 0 ? moves.indexOf(c.move) : i;
    if (!groups.has(c.group)) groups.set(c.group, []);
    groups.get(c.group).push({ ...c, index });
  });
  let busy = false;
  const buttons = [];
  const send = async (index) => {
    if (busy) return;
    busy = true;
    buttons.forEach((b) => { b.disabled = true; });
    box.dataset.ready = "0";
    message.textContent = "sending…";
    try {
      const answer = await postMove(matchId, token, moves[index], turn.version);
      message.textContent = "";
      onDone({ ok: true, version: answer && answer.version });
    } catch (err) {
      busy = false;
      if (err.status === 409) {
        message.textContent = "The match moved on meanwhile; showing it as it is now.";
      } else {
        message.textContent = `That move was refused${err.status ? ` (${err.status})` : ""}: ${err.message}`;
        buttons.forEach((b) => { b.disabled = false; });
        box.dataset.ready = "1";
      }
      onDone({ ok: false, status: err.status, error: err });
    }
  };
  const message = h("div", { id: "play-message", class: "play-message", role: "status" });
  fill(box, h("h2", { text: "Your move" }), [...groups].map(([group, items]) => h("div", { class: "move-group" },
    h("span", { class: "move-group-label", text: group }),
    items.map((c) => {
      const b = h("button", { class: "move", "data-move": c.index, type: "button", text: c.label, onclick: () => send(c.index) });
      buttons.push(b);
      return b;
    }))), message);
  // choose a card by clicking it where it is drawn (the first control that names it)
  // (a control with `zone` — an extension — only from the drawn area marked data-zone with that name)
  const byCard = new Map();
  const key = (cardId, zone) => `${cardId}|${zone || ""}`;
  for (const items of groups.values()) {
    for (const c of items) if (c.card && !byCard.has(key(c.card, c.zone))) byCard.set(key(c.card, c.zone), c);
  }
  if (stateNode) {
    for (const node of stateNode.querySelectorAll("[data-card]")) {
      const area = node.closest("[data-zone]");
      const zone = area ? area.dataset.zone : "";
      const c = [node.dataset.instance, node.dataset.card].filter(Boolean).map((id) => byCard.get(key(id, zone)) || byCard.get(key(id, "")))
        .find(Boolean);
      const owner = node.closest("[data-seat]");  // only the acting seat's own cards choose its move
      if (!c || !owner || owner.dataset.seat !== String(ctx.seat)) continue;
      node.classList.add("playable");
      node.title = `${c.group}: ${c.label} (click)`;
      node.addEventListener("click", () => send(c.index));
    }
  }
  // ...and a hex of a map (a control with `hex`, an extension of the interface) by clicking it
  const byHex = new Map();
  for (const items of groups.values()) for (const c of items) if (c.hex !== undefined && !byHex.has(String(c.hex))) byHex.set(String(c.hex), c);
  if (stateNode) {
    for (const node of stateNode.querySelectorAll("[data-hex]")) {
      const c = byHex.get(node.dataset.hex);
      if (!c) continue;
      node.classList.add("playable");
      node.addEventListener("click", () => send(c.index));
    }
  }
  box.dataset.ready = "1";
}
