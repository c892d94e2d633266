/* Arkon drawn as the table looks: the deck and the discard pile in the centre; per player the
 * clans in play (with the influence they add to every bid), the role card, the hand (counts for
 * other players, with the cards everyone saw go in); the action card being resolved and its
 * response window; the bid in progress — the clan up for bidding, each bidder's face-down cards
 * as counts (one's own by name), then the revealed bids and totals. Names, influence values and
 * texts come from the catalog (shared/games/arkon/catalog.py).
 */
import { card, pile } from "../shell/cards.js";
import {
  cardName, cardsWords, count, idWords, listWords, matchEvent, moveFields, seatLabel, seatName, sentence,
  uniqueCards, waitingFor,
} from "./lib/words.js";
import { stylesheet } from "./lib/style.js";

/** The state to draw: a seat's or a spectator's view as it is; a finished match's whole state
 *  (every hand, the deck, each bid's cards open) put in the same shape, marked ``open``. */
function stateOf(view, ctx) {
  const s = (view && view.state) || view || {};
  if (!Array.isArray(s.hands)) return s;
  const out = { ...s, open: true, hand_sizes: s.hands.map((hand) => hand.length), deck_size: (s.deck || []).length,
    remembered: null, hand: ctx && ctx.seat !== null && ctx.seat !== undefined ? s.hands[ctx.seat] : null, peek: null };
  if (s.bid && s.bid.commit && s.bid.commit.values) {
    const values = s.bid.commit.values;
    const counts = Object.fromEntries(Object.entries(values).map(([seat, cards]) => [seat, cards.length]));
    out.bid = { ...s.bid, counts: s.bid.counts || counts, commit: { ...s.bid.commit, committed: Object.keys(values).map(Number) } };
  }
  if (s.look && Array.isArray(s.look.cards)) out.look = { ...s.look, size: s.look.cards.length };
  return out;
}
const info = (ctx, id) => (ctx.catalog.cards || {})[id] || {};
const phaseName = (ctx, phase) => (ctx.catalog.phases || {})[phase] || idWords(phase);
const isMine = (ctx, seat) => ctx.seat !== null && ctx.seat !== undefined && Number(ctx.seat) === Number(seat);
const byKey = (obj, seat) => (obj ? obj[String(seat)] : undefined);

/** The passive influence a seat's clans add to each of its bids. */
function passive(ctx, clans) {
  return (clans || []).reduce((n, id) => n + ((info(ctx, id).values || {})["Passive influence"] || 0), 0);
}

/** "Ben's Orc" / "Ben" — the target an action card declared. */
function targetWords(ctx, d) {
  if (d.target === undefined || d.target === null) return "";
  return d.clan ? `${seatName(ctx, d.target)}'s ${cardName(ctx, d.clan)}` : seatName(ctx, d.target);
}

function cards(ctx, ids) {
  return ctx.h("div", { class: "ark-cards" }, (ids || []).map((id) => card(ctx, id)));
}

function zone(ctx, label, content) {
  return ctx.h("div", { class: "ark-zone" }, ctx.h("div", { class: "ark-zone-label" }, label), content);
}

const empty = (ctx, text) => ctx.h("div", { class: "ark-empty" }, text);

// ----- the table -------------------------------------------------------------------------------

function centre(ctx, s) {
  const { h } = ctx;
  const discard = s.discard || [];
  const top = discard[discard.length - 1];
  return h("section", { class: "ark-centre" },
    h("h3", {}, s.phase === "over" ? "The game is over" : `${seatName(ctx, s.turn)}'s turn — ${phaseName(ctx, s.phase)}`),
    h("div", { class: "ark-row" },
      pile(ctx, "Deck", s.deck_size),
      h("div", { class: "ark-discard" }, pile(ctx, "Discard pile", discard.length),
        top ? h("div", {}, h("div", { class: "ark-note" }, "on top:"), card(ctx, top)) : null)),
    s.winners && s.winners.length ? h("p", { class: "ark-winner" },
      `${listWords(s.winners.map((w) => seatName(ctx, w)))} ${s.winners.length > 1 ? "win" : "wins"} with four clans.`) : null);
}

function actionArea(ctx, s) {
  const a = s.action;
  if (!a) return null;
  const status = { window: "waiting for counters and responses", effect: "resolving" }[a.status] || idWords(a.status || "");
  const target = targetWords(ctx, a);
  return ctx.h("section", { class: "ark-action" },
    ctx.h("h3", {}, "Action card in play"),
    ctx.h("div", { class: "ark-row" }, card(ctx, a.card),
      ctx.h("p", {}, `${seatName(ctx, a.seat)} plays ${cardName(ctx, a.card)}${target ? ` targeting ${target}` : ""} — ${status}.`)));
}

function windowArea(ctx, s) {
  const w = s.window;
  if (!w) return null;
  const order = w.order || [];
  const now = order[w.pos];
  const what = w.kind === "sabotage" ? `${seatName(ctx, w.source)}'s won bid (Sabotage)`
    : s.action ? `${seatName(ctx, w.source)}'s ${cardName(ctx, s.action.card)}` : `${seatName(ctx, w.source)}'s action`;
  const later = order.slice((w.pos || 0) + 1).map((x) => seatName(ctx, x));
  return ctx.h("section", { class: "ark-window" },
    ctx.h("h3", {}, "Response window"),
    ctx.h("p", {}, `Answering ${what}: ${now === undefined ? "closed" : w.kind === "sabotage" ? `${seatLabel(ctx, now)} may play Sabotage or pass` : `${seatLabel(ctx, now)} may counter, respond or pass`}` +
      `${later.length ? `; then ${listWords(later)}` : ""}.`));
}

function bidArea(ctx, s) {
  const { h } = ctx;
  const b = s.bid;
  if (!b) return null;
  const commit = b.commit || {};
  const order = commit.seats || Object.keys(b.counts || {}).map(Number);
  const rows = order.map((seat) => {
    const revealed = b.revealed ? byKey(b.revealed, seat) : undefined;
    const n = byKey(b.counts, seat);
    const mine = isMine(ctx, seat) && commit.mine;
    const total = b.totals ? byKey(b.totals, seat) : undefined;
    let shown;
    if (revealed !== undefined) shown = revealed.length ? cards(ctx, revealed) : empty(ctx, "bid nothing");
    else if (n === undefined) shown = empty(ctx, "has not bid yet");
    else if (mine) shown = h("div", {}, h("div", { class: "ark-note" }, `${count(n, "card")} face down (your bid):`), cards(ctx, commit.mine));
    else if (s.open && commit.values && byKey(commit.values, seat)) shown = byKey(commit.values, seat).length ? cards(ctx, byKey(commit.values, seat)) : empty(ctx, "bid nothing");
    else shown = n ? pile(ctx, "Face down", n) : empty(ctx, "bid nothing");
    const label = `${seatLabel(ctx, seat)}${seat === b.bidder ? " (bidder, +2)" : ""}${total !== undefined ? ` — total ${total}` : ""}`;
    return h("div", { class: `ark-bidder${seat === b.winner ? " ark-winner" : ""}`, "data-bidder": String(seat) }, zone(ctx, label, shown));
  });
  const draft = !b.draft || (s.open && !b.draft.length) ? null
    : zone(ctx, s.open ? "Bid being gathered" : "Your bid being gathered", b.draft.length ? cards(ctx, b.draft) : empty(ctx, "nothing picked yet"));
  const putBack = b.put_back && b.put_back.length ? h("p", { class: "ark-note" }, `Put back (cannot be picked again): ${cardsWords(ctx, b.put_back)}.`) : null;
  const result = b.winner !== null && b.winner !== undefined
    ? h("p", {}, `${seatName(ctx, b.winner)} wins the bid${b.saboteur !== null && b.saboteur !== undefined ? `; ${seatName(ctx, b.saboteur)} sabotages it` : ""}.`) : null;
  const choosing = (b.choosing || []).length
    ? h("p", {}, `Over the hand limit, choosing which lost cards to take back: ${listWords(b.choosing.map((x) => seatName(ctx, x)))}.`) : null;
  return h("section", { class: "ark-bid" },
    h("h3", {}, `Bidding for ${cardName(ctx, b.clan)}`),
    h("div", { class: "ark-row" }, card(ctx, b.clan), h("div", { class: "ark-row" }, rows)),
    draft, putBack, result, choosing);
}

function pendingArea(ctx, s) {
  const top = (s.pending || [])[s.pending ? s.pending.length - 1 : 0];
  const look = s.look;
  const peek = s.peek;
  if (!top && !look && !peek) return null;
  const { h } = ctx;
  return h("section", { class: "ark-pending" },
    top ? h("p", {}, `${seatLabel(ctx, top.seat)}: ${decisionWords(ctx, top)}.`) : null,
    peek ? zone(ctx, `${seatName(ctx, peek.seat)}'s hand, seen with Thievery`, cards(ctx, peek.hand)) : null,
    look ? zone(ctx, `${seatName(ctx, look.seat)} looks at the top ${count(look.size, "card")} (Iverion)`,
      look.cards ? cards(ctx, look.cards) : pile(ctx, "Looked at", look.size)) : null);
}

function roleArea(ctx, s, seat) {
  const roles = s.roles;
  const id = Array.isArray(roles) ? roles[seat] : roles && roles[String(seat)];
  const role = id && (ctx.catalog.roles || {})[id];
  if (!role) return null;
  return ctx.h("div", { class: "ark-role", title: role.text, "data-role": id },
    ctx.h("strong", {}, role.name), ctx.h("div", { class: "ark-note" }, role.text));
}

function seatArea(ctx, s, seat) {
  const { h } = ctx;
  const clans = (s.clans || [])[seat] || [];
  const size = (s.hand_sizes || [])[seat] || 0;
  const own = (isMine(ctx, seat) && Array.isArray(s.hand)) || s.open;
  const known = (s.known || [])[seat] || [];
  const remembered = isMine(ctx, seat) || !s.remembered ? [] : (s.remembered[seat] || []);
  const shownHand = s.open ? s.hands[seat] : s.hand;
  const hand = own
    ? (shownHand.length ? cards(ctx, shownHand) : empty(ctx, "empty"))
    : h("div", { class: "ark-row" }, pile(ctx, "Face down", size),
      known.length ? h("div", {}, h("div", { class: "ark-note" }, "seen by all:"), cards(ctx, known)) : null,
      remembered.length ? h("div", {}, h("div", { class: "ark-note" }, "you remember:"), cards(ctx, remembered)) : null);
  const types = new Set(clans.map((id) => info(ctx, id).clan));
  return h("section", { class: `ark-seat${s.turn === seat ? " ark-turn" : ""}${isMine(ctx, seat) ? " ark-mine" : ""}`, "data-seat": String(seat) },
    h("h3", {}, `${seatLabel(ctx, seat)}${s.turn === seat && s.phase !== "over" ? " — turn player" : ""}`),
    roleArea(ctx, s, seat),
    zone(ctx, `Clans in play: ${count(clans.length, "clan")}, ${count(types.size, "type")} — influence +${passive(ctx, clans)} to every bid`,
      clans.length ? cards(ctx, clans) : empty(ctx, "no clans yet")),
    h("p", { class: "ark-influence" }, `Hand: ${count(size, "card")}`),
    hand);
}

function render(view, ctx) {
  const s = stateOf(view, ctx);
  return ctx.h("div", { class: "ark-table" },
    stylesheet(ctx, "arkon.css"),
    centre(ctx, s), actionArea(ctx, s), windowArea(ctx, s), bidArea(ctx, s), pendingArea(ctx, s),
    ctx.h("div", { class: "ark-seats" }, Array.from({ length: s.players || 0 }, (_, seat) => seatArea(ctx, s, seat))));
}

// ----- the log ---------------------------------------------------------------------------------

/** A pending decision (``asked``) in words. */
function decisionWords(ctx, d) {
  switch (d.kind) {
    case "cycle": return `may discard up to ${count(d.max, "card")}, then draw that many plus ${d.bonus} (Change of Fate)`;
    case "steal": return `chooses a card to take from ${seatName(ctx, d.target)}'s hand (Thievery)`;
    case "sabotage_pay": return `must pay exactly ${d.cost} influence from hand or lose the clan to ${seatName(ctx, d.saboteur)} (Sabotage)`;
    case "iverion_bottom": return "puts one of the cards looked at on the bottom of the deck (Iverion)";
    case "kala": return "may add one card to the bid (Kala)";
    case "nara": return `may put a matching ${cardName(ctx, d.clan)} in play into the discard pile (Nara)`;
    case "vale": return "may discard a card to draw one (Vale)";
    case "overflow": return `chooses which ${count(d.keep, "card")} of the lost bid to take back (hand limit); the rest are discarded`;
    default: return `decides (${idWords(d.kind)})`;
  }
}

/** The cards of a hidden part, when this viewer may see it (its own part, or a finished log). */
function seen(event, seat, key) {
  const d = event.data || {};
  if (Array.isArray(d[key])) return d[key];
  const part = (event.private || {})[String(seat)];
  return part && Array.isArray(part[key]) ? part[key] : null;
}

const WHY = { change_of_fate: "Change of Fate", iverion: "Iverion", vale: "Vale", hand_limit: "hand limit" };

function describe(event, ctx) {
  const service = matchEvent(event, ctx);
  if (service) return service;
  const d = event.data || {};
  const who = d.seat !== undefined ? seatName(ctx, d.seat) : "";
  const name = (id) => cardName(ctx, id);
  switch (event.type) {
    case "setup": {
      const roles = Array.isArray(d.roles) ? `; roles: ${d.roles.map((r, i) => `${seatName(ctx, i)} ${((ctx.catalog.roles || {})[r] || {}).name || idWords(r)}`).join(", ")}` : "";
      return `Each player is dealt 5 cards; ${seatName(ctx, d.first)} goes first${roles}.`;
    }
    case "turn_started": return `${who}'s turn begins.`;
    case "phase": return `${sentence(phaseName(ctx, d.phase))} begins.`;
    case "drew": {
      const got = seen(event, d.seat, "cards");
      return `${who} draws ${count(d.count, "card")}${got ? `: ${cardsWords(ctx, got)}` : ""}.`;
    }
    case "action_played": {
      const target = targetWords(ctx, d);
      return `${who} plays ${name(d.card)}${target ? ` targeting ${target}` : ""}.`;
    }
    case "passed": return `${who} passes.`;
    case "countered": return d.as === "counter" ? `${who} counters with ${name(d.card)}.` : `${who} plays ${name(d.card)}: the action is countered.`;
    case "reversed": return `${who} plays ${name(d.card)}: the action card will go to ${who}'s hand.`;
    case "sabotaged": return `${who} plays ${name(d.card)} against the won bid.`;
    case "action_resolving": return `${name(d.card)} resolves.`;
    case "action_finished": return d.to === null || d.to === undefined ? `${name(d.card)} goes to the discard pile.` : `${name(d.card)} goes to ${seatName(ctx, d.to)}'s hand.`;
    case "hand_seen": {
      const hand = seen(event, d.seat, "hand");
      return `${who} looks at ${seatName(ctx, d.target)}'s hand${hand ? `: ${cardsWords(ctx, hand)}` : ""}.`;
    }
    case "asked": return `${who} ${decisionWords(ctx, d)}.`;
    case "answered": return "The choice is made.";
    case "chose": return `${who} chooses ${name(d.card)}${d.shown_in_hand ? " (shown)" : ""}.`;
    case "cards_moved": {
      const cards = seen(event, d.from, "gave") || seen(event, d.to, "got");
      return `${seatName(ctx, d.from)} gives ${seatName(ctx, d.to)} ${count(d.count, "card")}${d.how === "random" ? " at random" : ""}${cards ? `: ${cardsWords(ctx, cards)}` : ""}.`;
    }
    case "cards_exchanged": {
      const [a, b] = d.seats || [];
      const [na, nb] = d.counts || [0, 0];
      return `${seatName(ctx, a)} and ${seatName(ctx, b)} exchange cards at random: ${seatName(ctx, a)} gives ${count(na, "card")}, ${seatName(ctx, b)} gives ${count(nb, "card")}.`;
    }
    case "clan_put_up": return `${who} puts ${name(d.card)} up for bidding.`;
    case "bid_drafted": {
      const part = d.card !== undefined ? d : (event.private || {})[String(d.seat)];
      if (part && part.card) return `${who} ${part.picked ? "adds" : "takes back"} ${name(part.card)} ${part.picked ? "to" : "from"} the bid being gathered.`;
      return `${who} gathers a bid (hidden).`;
    }
    case "bid_placed": {
      const cards = seen(event, d.seat, "cards");
      if (!d.count) return `${who} bids nothing.`;
      return `${who} bids ${count(d.count, "card")}${cards && cards.length ? `: ${cardsWords(ctx, cards)}` : " face down"}.`;
    }
    case "bids_revealed": {
      const bids = Object.entries(d.bids || {}).map(([seat, ids]) => `${seatName(ctx, Number(seat))} ${cardsWords(ctx, ids)}`);
      return `The bids are revealed: ${bids.join("; ")}.`;
    }
    case "reinforced": return `${who}'s ${name(d.card)} is discarded and adds ${count((d.drawn || []).length, "card")} from the deck to the bid${(d.drawn || []).length ? `: ${cardsWords(ctx, d.drawn)}` : ""}.`;
    case "bid_returned": return `${who} takes back ${cardsWords(ctx, d.kept, "nothing")} of the lost bid and discards ${cardsWords(ctx, d.discarded, "nothing")}.`;
    case "kala_added": return `${who} adds ${name(d.card)} to the bid (Kala).`;
    case "bid_won": {
      const totals = Object.entries(d.totals || {}).sort((x, y) => y[1] - x[1]);
      const others = totals.filter(([seat]) => Number(seat) !== d.winner).map(([seat, t]) => `${seatName(ctx, Number(seat))} ${t}`);
      return `${seatName(ctx, d.winner)} wins the bid for ${name(d.clan)} with ${byKey(d.totals, d.winner)} influence${others.length ? ` (${others.join(", ")})` : ""}.`;
    }
    case "clan_controlled": return `${who} takes control of ${name(d.clan)}${d.via === "sabotage" ? " through Sabotage" : ""}.`;
    case "sabotage_paid": return `${who} pays ${cardsWords(ctx, d.cards)} for the Sabotage and keeps the clan.`;
    case "sabotage_refused": return `${who} does not pay; ${seatName(ctx, d.saboteur)}'s Sabotage takes the clan.`;
    case "clan_moved": return `${seatName(ctx, d.to)} takes ${seatName(ctx, d.from)}'s ${name(d.clan)}.`;
    case "clan_destroyed": return `${seatName(ctx, d.owner)}'s ${name(d.clan)} is put into the discard pile (${d.by === "nara" ? "Nara" : name(d.by)}).`;
    case "clans_swapped": return `${seatName(ctx, d.a)} and ${seatName(ctx, d.b)} exchange all their clans in play.`;
    case "discarded": return `${who} discards ${cardsWords(ctx, d.cards)}${d.why ? ` (${WHY[d.why] || idWords(d.why)})` : ""}.`;
    case "reshuffled": return `The discard pile (${count(d.count, "card")}) is shuffled into a new deck.`;
    case "iverion_looked": {
      const cards = seen(event, d.seat, "cards");
      return `${who} uses Iverion and looks at the top ${count(d.count, "card")} of the deck${cards ? `: ${cardsWords(ctx, cards)}` : ""}.`;
    }
    case "bottomed": {
      const part = d.card !== undefined ? d : (event.private || {})[String(d.seat)] || {};
      return `${who} puts ${part.card ? name(part.card) : "a card"} on the bottom of the deck and takes ${count(Array.isArray(d.to_hand) ? d.to_hand.length : d.to_hand || 0, "card")} into hand.`;
    }
    case "game_won": return `${listWords((d.winners || []).map((w) => seatName(ctx, w)))} ${(d.winners || []).length > 1 ? "win" : "wins"} the game with four clans.`;
    default: {
      const fields = moveFields(ctx, d);
      return `${sentence(idWords(event.type))}${fields ? `: ${fields}` : ""}.`;
    }
  }
}

// ----- whose turn, and the controls ------------------------------------------------------------

function awaited(turn, ctx) {
  const s = stateOf(turn, ctx);
  if ((turn && turn.status && turn.status !== "active") || s.phase === "over" || (s.winners && s.winners.length)) return "The game is over.";
  const toAct = (turn && turn.to_act) || [];
  if (!toAct.length) return "The rules are moving on.";
  const who = waitingFor(ctx, turn);
  const top = (s.pending || [])[(s.pending || []).length - 1];
  if (top) return `${who} ${decisionWords(ctx, top)}.`;
  if (s.window) return s.window.kind === "sabotage" ? `${who} may play Sabotage against the won bid, or pass.` : `${who} may counter, respond or pass.`;
  if (s.bid && !s.bid.revealed) return `${who} to place a bid, face down, for ${cardName(ctx, s.bid.clan)}.`;
  const doing = { action1: "play action cards, one at a time, or end the phase",
    action2: "play action cards, one at a time, or end the phase",
    bidding: "put a clan up for bidding, or end the phase" }[s.phase];
  return `${who}, ${phaseName(ctx, s.phase)}${doing ? `: ${doing}` : ""}.`;
}

/** Group and label one legal move in the game's words. A compound move (a whole bid listing its
 *  cards, say) is labelled from its fields, so either shape of the bid reads. */
function control(move, view, ctx) {
  const s = stateOf(view, ctx);
  const name = (id) => cardName(ctx, id);
  const listed = Array.isArray(move.cards) ? move.cards : null;
  switch (move.type) {
    case "play": {
      const target = targetWords(ctx, move);
      return { group: "Play an action card", label: `${name(move.card)}${target ? ` → ${target}` : ""}`, card: move.card };
    }
    case "end_phase": return { group: "Turn", label: `End the ${phaseName(ctx, s.phase)}` };
    case "put_up": return { group: "Put a clan up for bidding", label: name(move.card), card: move.card };
    case "iverion": return { group: "Role: Iverion", label: `Discard two ${name(move.card)} and look at the top of the deck` };
    case "pass": return { group: "Response window", label: "Pass" };
    case "counter": return { group: "Response window", label: `Counter with ${name(move.card)}`, card: move.card };
    case "respond": return { group: "Response window", label: `Respond with ${name(move.card)}`, card: move.card };
    case "pick": return { group: "Your bid (face down)", label: `Add ${name(move.card)}`, card: move.card };
    case "unpick": return { group: "Your bid (face down)", label: `Take back ${name(move.card)}` };
    case "place": case "bid": {
      const cards = listed || (s.bid && s.bid.draft) || [];
      if (!cards.length) return { group: "Your bid (face down)", label: "Bid nothing" };
      // a bid listing its cards (one move per part of the hand): grouped by how many cards
      return listed ? { group: `Bid ${count(cards.length, "card")} face down`, label: cardsWords(ctx, cards) }
        : { group: "Your bid (face down)", label: `Place ${count(cards.length, "card")}: ${cardsWords(ctx, cards)}` };
    }
    case "take": return { group: "Thievery: take a card", label: name(move.card), card: move.card };
    case "discard": return { group: "Discard", label: listed ? `Discard ${cardsWords(ctx, listed)}` : `Discard ${name(move.card)}`, card: move.card };
    case "done": return { group: "Discard", label: "Done discarding" };
    case "pay": return { group: "Pay for the Sabotage", label: listed ? `Pay ${cardsWords(ctx, listed)}` : `Pay with ${name(move.card)}`, card: move.card };
    case "refuse": return { group: "Pay for the Sabotage", label: "Refuse to pay (lose the clan)" };
    case "bottom": return { group: "Iverion: put a card on the bottom", label: name(move.card) };
    case "add": return { group: "Kala: add a card to the bid", label: name(move.card), card: move.card };
    case "destroy": {
      const top = (s.pending || [])[(s.pending || []).length - 1] || {};
      return { group: "Nara: discard a matching clan", label: `${seatName(ctx, move.seat)}'s ${top.clan ? name(top.clan) : "clan"}` };
    }
    case "decline": return { group: "Role", label: "Decline" };
    case "keep": return { group: "Hand limit: take back part of the lost bid", label: listed && listed.length ? `Keep ${cardsWords(ctx, listed)}` : "Keep none" };
    default: {
      const fields = moveFields(ctx, move);
      return { group: "Other moves", label: `${sentence(idWords(move.type))}${fields ? `: ${fields}` : ""}` };
    }
  }
}

function controls(legalMoves, view, ctx) {
  return uniqueCards((legalMoves || []).map((move) => ({ ...control(move, view, ctx), move })));
}

export default { title: "Arkon", render, describe, awaited, controls };
