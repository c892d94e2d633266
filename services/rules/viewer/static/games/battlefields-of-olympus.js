/* Battlefields of Olympus: the battle line (each Warrior played, whose and how it fared), the
 * Land Trophy pile and Ares, the Action chain being answered, the decks and discards, and for each
 * player their Warriors in hand (face down unless theirs, the ones everyone saw named), Actions,
 * Reserve and Land Trophies with their points. */
import { card, cardName, hidden, lookup, pile, row } from "../shell/cards.js";
import { cap, count, list, who, words, size } from "../shell/words.js";

function points(ctx, lands) {
  let total = 0;
  const byName = {};
  for (const l of lands || []) {
    const { def } = lookup(ctx, l);
    total += def && def.values ? def.values.points || 0 : 0;
    const name = def ? def.name : l;
    byName[name] = (byName[name] || 0) + 1;
  }
  const sets = Object.values(byName).reduce((n, k) => n + Math.floor(k / 3), 0);
  return total + sets * (ctx.catalog.set_bonus_points || 2);
}

function seatArea(state, ctx, s) {
  const { h } = ctx;
  const p = state.seats[s];
  const acting = state.actor === s;
  return h("div", { class: `seat-area${acting ? " acting" : ""}`, "data-seat": s },
    h("h3", { text: `${who(ctx, s)}${ctx.seat === s ? " (you)" : ""}${acting ? " — to act" : ""}` }),
    h("div", {}, h("span", { class: "stat" }, "Land Trophy points ", h("b", { class: "land-points", text: points(ctx, p.lands) })),
      h("span", { class: "stat" }, "Warriors in hand ", h("b", { text: size(p.hand) })),
      h("span", { class: "stat" }, "Actions ", h("b", { text: size(p.actions) })),
      h("span", { class: "stat" }, "Reserve ", h("b", { text: size(p.reserve) }))),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Warriors in hand" }),
      Array.isArray(p.hand) ? row(ctx, p.hand, { empty: "none" }) : h("span", {}, hidden(ctx, "Warriors", size(p.hand)),
        (p.known || []).length ? h("span", { class: "muted" }, " — known to be among them: ", row(ctx, p.known)) : null)),
    (p.revealed || []).length ? h("div", { class: "area" }, h("span", { class: "area-label", text: "Revealed" }), row(ctx, p.revealed)) : null,
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Actions" }),
      Array.isArray(p.actions) ? row(ctx, p.actions, { empty: "none" }) : hidden(ctx, "Actions", size(p.actions))),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Reserve" }),
      Array.isArray(p.reserve) ? row(ctx, p.reserve, { empty: "none" }) : hidden(ctx, "Warriors", size(p.reserve))),
    p.bonus ? h("div", { class: "area" }, h("span", { class: "area-label", text: "Bonus Warrior" }), card(ctx, p.bonus)) : null,
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Land Trophies" }), row(ctx, p.lands, { empty: "none yet" })));
}

function battleLine(state, ctx) {
  const { h } = ctx;
  const b = state.battle;
  if (!b) return h("p", { class: "muted", text: "No battle is being fought." });
  return h("div", { class: "battle" },
    h("p", {}, `Battle for `, b.land ? card(ctx, b.land) : "a Land", ` — ${who(ctx, b.attacker)} attacks, ${who(ctx, b.defender)} defends`,
      b.owner !== null && b.owner !== undefined ? ` (held by ${who(ctx, b.owner)})` : "", b.ares ? `, with ${count(b.ares, "Ares card")}` : ""),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Battle line" }),
      b.line.length ? h("span", { class: "cards" }, b.line.map((w) => card(ctx, w.card, {
        detail: `${who(ctx, w.seat)}${w.from && w.from !== "hand" ? `, from ${words(w.from)}` : ""}${w.result ? `: ${words(w.result)}` : ""}${w.overturned ? " (overturned)" : ""}` })))
        : h("span", { class: "muted", text: "no Warrior played yet" })),
    (b.actions || []).length || (b.used || []).length ? h("div", { class: "area" }, h("span", { class: "area-label", text: "Actions in the battle" }),
      row(ctx, [...(b.actions || []), ...(b.used || [])].map((a) => a.card))) : null,
    b.leader !== null && b.leader !== undefined ? h("p", { text: `${who(ctx, b.leader)} leads the battle` }) : null);
}

function chainArea(state, ctx) {
  const { h } = ctx;
  const c = state.chain;
  if (!c) return null;
  return h("div", { class: "area" }, h("span", { class: "area-label", text: "Being answered" }),
    h("span", { class: "cards" }, c.cards.map((x) => card(ctx, x.card, { detail: `${who(ctx, x.seat)}${x.effect ? `, ${words(x.effect)}s` : ""}${x.removed ? " (cancelled)" : ""}` }))),
    h("span", { class: "muted", text: ` ${who(ctx, c.responder)} may respond` }));
}

const PHASES = { action: "choose a turn action", post: "play Actions after the turn action", battle: "play a Warrior or pass",
  respond: "respond to an Action", discard: "discard", restock: "restock the Reserve", swap: "swap a Warrior", resolving: "resolve" };

function describe(ev, ctx) {
  const d = ev.data || {};
  const s = d.seat;
  switch (ev.type) {
    case "setup": return `${who(ctx, d.first)} plays first; the first to ${d.target_points} Land Trophy points wins`;
    case "warrior_drawn": return `${who(ctx, s)} draws a Warrior${d.card ? ` (${cardName(ctx, d.card)})` : ""}${d.to && d.to !== "hand" ? ` into the ${words(d.to)}` : ""}`;
    case "turn_started": return `${who(ctx, s)}'s turn begins`;
    case "fate_drawn": return `${who(ctx, s)} draws a Fate card${d.card ? `: ${cardName(ctx, d.card)}` : d.kind ? ` (${words(d.kind)})` : ""}`;
    case "post_started": return `${who(ctx, s)} may play Actions`;
    case "action_played": return `${who(ctx, s)} plays ${cardName(ctx, d.card)}${d.land ? ` on ${cardName(ctx, d.land)}` : ""}`;
    case "action_responded": return `${who(ctx, s)} answers with ${cardName(ctx, d.card)}${d.effect ? ` (${words(d.effect)})` : ""}`;
    case "chain_resolved": return `${cardName(ctx, d.card)} ${d.effective ? "takes effect" : "has no effect"}`;
    case "hand_revealed": return `${who(ctx, s)} shows their Warriors: ${list((d.cards || []).map((c) => cardName(ctx, c)))}`;
    case "discard_started": return `${who(ctx, s)} is to discard ${words(d.kind || "cards")}`;
    case "warrior_discarded": return `${who(ctx, s)} discards ${d.card ? cardName(ctx, d.card) : "a Warrior"}`;
    case "action_discarded": return `${who(ctx, s)} discards ${d.card ? cardName(ctx, d.card) : "an Action"}`;
    case "discard_done": return `${who(ctx, s)} is done discarding`;
    case "battle_started": return `A battle for ${d.land ? cardName(ctx, d.land) : "a Land"} begins: ${who(ctx, d.attacker)} attacks, ${who(ctx, d.first)} plays first`;
    case "warrior_played": return `${who(ctx, s)} plays ${cardName(ctx, d.card)}${d.from && d.from !== "hand" ? ` from the ${words(d.from)}` : ""}${d.result ? ` (${words(d.result)})` : ""}`;
    case "lead_taken": return `${who(ctx, s)} takes the lead`;
    case "battle_passed": return `${who(ctx, s)} passes`;
    case "battle_ended": return `${d.winner === null || d.winner === undefined ? "Nobody" : who(ctx, d.winner)} wins the battle${d.land ? ` for ${cardName(ctx, d.land)}` : ""}`;
    case "battle_cleared": return `The battle is cleared away; ${who(ctx, d.next)} is next`;
    case "restock_started": return `${who(ctx, s)} restocks the Reserve`;
    case "restocked": return `${who(ctx, s)} puts a Warrior in the Reserve`;
    case "swap_started": return `${who(ctx, s)} may swap a Warrior`;
    case "warrior_swapped": return `${who(ctx, s)} swaps a Warrior`;
    case "bonus_drawn": return `${who(ctx, s)} takes a bonus Warrior${d.card ? `: ${cardName(ctx, d.card)}` : ""}`;
    case "bonus_lost": return `${who(ctx, s)} loses the bonus Warrior`;
    case "warrior_deck_reshuffled": return `The Warrior discards are shuffled into a new deck of ${d.count}`;
    case "game_ended": return `The game ends: ${d.reason}`;
    default: return null;
  }
}

const GROUPS = { draw_fate: "Turn action", battle: "Turn action", end_turn: "End", play_action: "Play an Action",
  play_warrior: "Play a Warrior", pass: "Pass", respond: "Respond", no_response: "Respond", discard_warrior: "Discard a Warrior",
  discard_action: "Discard an Action", discard_excess: "Discard", discard_done: "Done", restock: "Restock the Reserve with",
  restock_done: "Done", swap: "Swap" };

function moveLabel(m, state, ctx) {
  switch (m.type) {
    case "draw_fate": return "Draw a Fate card";
    case "battle": return "Start a battle";
    case "end_turn": return "End the turn";
    case "pass": return "Pass";
    case "no_response": return "Let it resolve";
    case "discard_done": case "restock_done": return "Done";
    case "play_action": return `${cardName(ctx, m.card)}${m.land ? ` on ${cardName(ctx, m.land)}` : ""}`;
    case "play_warrior": return `${cardName(ctx, m.card)}${m.from && m.from !== "hand" ? ` from the ${words(m.from)}` : ""}`;
    case "respond": {
      const target = state.chain && state.chain.cards[m.target] ? cardName(ctx, state.chain.cards[m.target].card) : "";
      return `${cardName(ctx, m.card)}${target ? ` against ${target}` : ""}`;
    }
    default: return m.card ? cardName(ctx, m.card) : cap(words(m.type));
  }
}

export default {
  title: "Battlefields of Olympus",
  render(state, ctx) {
    const { h } = ctx;
    if (!state || !state.seats) return h("p", { class: "muted", text: "The game is being set up." });
    return h("div", { class: "boo" },
      h("div", { class: "row" },
        h("span", { class: "stat" }, "phase ", h("b", { text: words(state.phase || "") })),
        state.actor !== null && state.actor !== undefined ? h("span", { class: "stat" }, "to act ", h("b", { text: who(ctx, state.actor) })) : null,
        h("span", { class: "stat" }, "wins at ", h("b", { text: `${state.target_points} points` }))),
      h("h2", { text: "The battle" }), battleLine(state, ctx), chainArea(state, ctx),
      h("h2", { text: "The table" }),
      h("div", { class: "area" }, h("span", { class: "area-label", text: "Land Trophy pile" }), row(ctx, state.land_pile, { empty: "empty" })),
      h("div", { class: "area" }, h("span", { class: "area-label", text: "Ares" }), row(ctx, state.ares_pile, { empty: "none in play" }),
        h("span", { class: "muted", text: ` ${count(size(state.ares_disc), "Ares card")} discarded` })),
      h("div", { class: "area" }, h("span", { class: "area-label", text: "Decks" }), pile(ctx, "Warriors", size(state.wdeck)), pile(ctx, "Fate", size(state.fdeck))),
      h("div", { class: "area" }, h("span", { class: "area-label", text: "Warrior discards" }), row(ctx, state.wdisc, { empty: "none" })),
      h("div", { class: "area" }, h("span", { class: "area-label", text: "Action discards" }), row(ctx, state.adisc, { empty: "none" })),
      h("h2", { text: "Players" }), state.seats.map((_, s) => seatArea(state, ctx, s)));
  },
  describe,
  awaited(turn, ctx) {
    const st = turn.state || {};
    if (st.actor === null || st.actor === undefined) return turn.to_act.length ? `Waiting for ${list(turn.to_act.map((s) => who(ctx, s)))}` : "Nobody is to act";
    return `${who(ctx, st.actor)} is to ${PHASES[st.phase] || words(st.phase || "act")}`;
  },
  controls(moves, state, ctx) {
    return moves.map((m) => ({ group: GROUPS[m.type] || cap(words(m.type)), label: moveLabel(m, state, ctx), move: m,
      card: ["play_warrior", "play_action", "discard_warrior", "discard_action", "restock", "swap"].includes(m.type) ? m.card : undefined }));
  },
};
