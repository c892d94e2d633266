/* Fellowships of Fate drawn as the rulebook lays it out: the field of four adventure cards with
 * the relic deck over its two rightmost spaces, the adventure deck beside it; per player the
 * journal (with the VP cards under it), the tokens, the play area (members upright or sideways,
 * Level 1 relics face up), the hand and standby area (counts for other players), the fellowship
 * in formation; the turn in progress with the icons still to resolve. Names, values and texts
 * come from the catalog (shared/games/fellowships_of_fate/catalog.py).
 */
import { card, pile } from "../shell/cards.js";
import {
  cardName, cardsWords, count, listWords, matchEvent, moveFields, seatLabel, seatName, sentence,
  uniqueCards, waitingFor,
} from "./lib/words.js";
import { stylesheet } from "./lib/style.js";

const TOKEN_ORDER = ["strength", "mana", "wisdom"];

const tokenName = (ctx, t) => (ctx.catalog.tokens && ctx.catalog.tokens[t]) || sentence(t);
const hidden = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const size = (v) => (hidden(v) ? v.count : (v || []).length);
const abilityName = (ability) => (ability === "legendary" ? "Legendary" : "Nameless");
const stateOf = (view) => (view && view.state) || view || {};

function tokensWords(ctx, tokens) {
  return listWords(TOKEN_ORDER.filter((t) => tokens && tokens[t]).map((t) => `${tokens[t]} ${tokenName(ctx, t)}`), "no tokens");
}

/** One step of the ability being resolved (abilities.py's step shapes) in words. */
function stepWords(ctx, step) {
  switch (step.op) {
    case "gain": return step.token ? `gain 1 ${tokenName(ctx, step.token)}` : "a token icon";
    case "wild": return step.group ? "gain 1 token (all of one type)" : "gain 1 token of any type";
    case "cost": return `pay ${tokensWords(ctx, step.tokens)}`;
    case "overcome": return "Overcome";
    case "sun": return "obtain a sun card";
    case "excavate": return "Excavate";
    case "interrupt_all": return "interrupt all";
    default: return String(step.op).replace(/_/g, " ");
  }
}

/** Where an ability comes from: the member itself, or a Level 1 relic replacing it. */
function useWords(ctx, use) {
  return use && use !== "member" ? ` with ${cardName(ctx, use)}` : "";
}

// ----- the table -------------------------------------------------------------------------------

function fieldArea(ctx, s) {
  const { h } = ctx;
  const slots = (s.field || []).map((id, i) => {
    const extra = i >= (s.field.length - (ctx.catalog.extra_relic_slots || 2));
    return h("div", { class: `fof-slot${extra ? " fof-under-relics" : ""}`, "data-slot": String(i) },
      id ? card(ctx, id) : h("div", { class: "fof-empty" }, "empty space"),
      extra ? h("div", { class: "fof-note" }, "extra relic") : null);
  });
  const relics = s.relic_deck || {};
  // as the rulebook lays it out: the adventure deck beside the field, the relic deck lying
  // sideways above the field's two rightmost spaces
  return h("section", { class: "fof-field" },
    h("h3", {}, "The field"),
    h("div", { class: "fof-layout" },
      h("div", { class: "fof-relic-deck" },
        pile(ctx, "Relic deck", size(relics)),
        hidden(relics) && relics.level1 !== undefined
          ? h("div", { class: "fof-note" }, `${count(relics.level1, "Level 1 relic")} left on top`) : null),
      h("div", { class: "fof-adventure-deck" }, pile(ctx, "Adventure deck", size(s.adventure_deck))),
      slots));
}

function turnArea(ctx, s) {
  const { h } = ctx;
  const t = s.turn;
  if (!t) return null;
  const who = seatLabel(ctx, t.seat);
  let doing;
  if (!t.played && t.ability === "legendary") doing = `${who} activated a Legendary ability${useWords(ctx, t.use)}.`;
  else if (!t.played) doing = `${who} starts a turn.`;
  else {
    doing = `${who} resolves the ${abilityName(t.ability)} ${cardName(ctx, t.played)}${useWords(ctx, t.use)}.`;
  }
  const queue = (t.queue || []).map((step) => stepWords(ctx, step));
  return h("section", { class: "fof-turn" },
    h("h3", {}, `Turn ${s.turn_no || ""}`.trim()),
    h("p", {}, doing),
    queue.length ? h("p", {}, `Still to resolve, left to right: ${queue.join(", then ")}.`) : null);
}

function formationWords(ctx, s, seat) {
  const f = s.formation;
  if (!f || s.phase !== "formation") return null;
  const committed = f.committed || Object.keys(f.values || {}).map(Number);  // a finished match's log is open
  if (committed.includes(seat)) return "has chosen a fellowship";
  const draft = s.seats[seat].draft;
  if (draft === undefined) return "is choosing a fellowship of four, in secret";  // engine 3: one move
  return `is choosing a fellowship (${size(draft)} of ${ctx.catalog.hand_size || 4} picked)`;
}

function cards(ctx, ids, opts = {}) {
  return ctx.h("div", { class: "fof-cards" }, (ids || []).map((id) => card(ctx, id, opts)));
}

function zone(ctx, label, content, cls = "") {
  return ctx.h("div", { class: `fof-zone ${cls}`.trim() }, ctx.h("div", { class: "fof-zone-label" }, label), content);
}

function seatArea(ctx, s, seat) {
  const { h } = ctx;
  const p = s.seats[seat];
  const journalId = (ctx.catalog.journals || {})[p.colour];
  const vp = (p.journal || []).reduce((n, id) => n + ((ctx.catalog.cards[id] || {}).vp || 0), 0);
  const mine = ctx.seat !== null && ctx.seat !== undefined && Number(ctx.seat) === seat;
  const marker = s.start_seat === seat ? h("span", { class: "fof-marker" }, "round marker") : null;
  const status = formationWords(ctx, s, seat);

  const tokens = h("div", { class: "fof-tokens" }, TOKEN_ORDER.map((t) =>
    h("span", { class: `fof-token fof-token-${t}`, "data-token": t }, `${tokenName(ctx, t)} ${(p.tokens || {})[t] || 0}`)));

  const play = h("div", { class: "fof-cards" },
    (p.play || []).map((m) => h("div", { class: `fof-member ${m.upright ? "fof-upright" : "fof-sideways"}` },
      card(ctx, m.id), h("div", { class: "fof-note" }, m.upright ? "upright" : "sideways"))),
    (p.relics || []).map((r) => card(ctx, r.id)));

  const hand = hidden(p.hand)
    ? h("div", { class: "fof-cards" }, pile(ctx, "Hand", p.hand.count), cards(ctx, p.known_hand))
    : cards(ctx, p.hand);
  const standby = hidden(p.standby) ? pile(ctx, "Standby (face down)", p.standby.count) : cards(ctx, p.standby);
  const draft = s.phase === "formation" && !hidden(p.draft) && (p.draft || []).length
    ? zone(ctx, "Fellowship in formation", cards(ctx, p.draft), "fof-draft") : null;

  return h("section", { class: `fof-seat fof-colour-${p.colour}${mine ? " fof-mine" : ""}`, "data-seat": String(seat) },
    h("h3", {}, `${seatLabel(ctx, seat)} — ${sentence(p.colour)}`, marker),
    status ? h("p", { class: "fof-status" }, `${seatName(ctx, seat)} ${status}.`) : null,
    tokens,
    zone(ctx, "Play area", (p.play || []).length || (p.relics || []).length ? play : h("div", { class: "fof-empty" }, "nothing in play")),
    zone(ctx, "Hand", size(p.hand) || (p.known_hand || []).length ? hand : h("div", { class: "fof-empty" }, "empty")),
    draft,
    zone(ctx, "Standby", size(p.standby) ? standby : h("div", { class: "fof-empty" }, "empty")),
    zone(ctx, `Journal (${vp} VP in cards)`, h("div", { class: "fof-cards" },
      journalId ? card(ctx, journalId) : null,
      (p.journal || []).map((id) => card(ctx, id)))));
}

function resultArea(ctx, s) {
  const r = s.result;
  if (!r || !r.vp) return null;
  const lines = r.vp.map((vp, seat) => `${seatName(ctx, seat)}: ${count(vp, "VP", "VP")}, ${count(r.tokens[seat], "token")}, rank ${r.ranks[seat]}`);
  return ctx.h("section", { class: "fof-result" }, ctx.h("h3", {}, "Final scoring"),
    ctx.h("ul", {}, lines.map((l) => ctx.h("li", {}, l))));
}

function render(view, ctx) {
  const { h } = ctx;
  const s = stateOf(view);
  const rounds = ctx.catalog.rounds || 4;
  const phase = (ctx.catalog.phases || {})[s.phase] || s.phase;
  return h("div", { class: "fof-table" },
    stylesheet(ctx, "fellowships-of-fate.css"),
    h("p", { class: "fof-round" }, s.phase === "over" ? "The game is over." : `Round ${s.round} of ${rounds} — ${phase}.`),
    resultArea(ctx, s),
    fieldArea(ctx, s),
    turnArea(ctx, s),
    h("div", { class: "fof-seats" }, (s.seats || []).map((_, seat) => seatArea(ctx, s, seat))));
}

// ----- the log ---------------------------------------------------------------------------------

/** The event's fields as the viewer may see them: a finished match's log also carries each
 *  seat's private part (then the member picked is public). */
function privatePart(event, seat) {
  const p = event.private || {};
  return p[String(seat)] || {};
}

function describe(event, ctx) {
  const service = matchEvent(event, ctx);
  if (service) return service;
  const d = event.data || {};
  const who = d.seat !== undefined ? seatName(ctx, d.seat) : "";
  const member = d.member || privatePart(event, d.seat).member;
  switch (event.type) {
    case "setup": return `The field is dealt; ${seatName(ctx, d.start_seat)} is the starting player.`;
    case "pick": return member ? `${who} picks ${cardName(ctx, member)} for the fellowship.` : `${who} picks a member (hidden).`;
    case "unpick": return member ? `${who} puts ${cardName(ctx, member)} back.` : `${who} puts a member back (hidden).`;
    case "form": {  // engine 3: the whole formation as one move, its members private to the seat
      const members = d.members || privatePart(event, d.seat).members;
      return Array.isArray(members) ? `${who} forms a fellowship: ${cardsWords(ctx, members)}.`
        : `${who} forms a fellowship of four (hidden).`;
    }
    case "confirm": {
      const members = d.members || privatePart(event, d.seat).members;  // when a rules version names them
      return Array.isArray(members) ? `${who} confirms a fellowship: ${cardsWords(ctx, members)}.` : `${who} confirms a fellowship of four.`;
    }
    case "explore_begin": return `Round ${d.round}: the Explore phase begins with ${seatName(ctx, d.start_seat)}.`;
    case "turn_begin": return `${who}'s turn.`;
    case "play_member":
      return `${who} plays ${cardName(ctx, d.member)}, declaring its ${abilityName(d.ability)} ability${useWords(ctx, d.use)}.`;
    case "activate": return `${who} activates the Legendary ability of ${cardName(ctx, d.member)}${useWords(ctx, d.use)}.`;
    case "gain": return `${who} gains 1 ${tokenName(ctx, d.token)}.`;
    case "pay": return `${who} pays ${tokensWords(ctx, d.tokens)}.`;
    case "skip": return d.auto ? `${who}'s icon (${stepWords(ctx, { op: d.op })}) cannot be carried out and is skipped.` : `${who} skips an icon (${stepWords(ctx, { op: d.op })}).`;
    case "cost_unpaid": return `${who} cannot pay the cost; the turn ends.`;
    case "obtain": {
      const how = d.via === "sun" ? "with the Legendary Traveler of Fate" : `paying ${tokensWords(ctx, d.paid)}`;
      return `${who} obtains ${cardName(ctx, d.card)} from the field, ${how}.`;
    }
    case "excavate": {
      const lvl = d.level === 1 ? "a Level 1 relic" : "a Level 2 relic";
      return `${who} ${d.extra ? "takes an extra relic" : "excavates"}: ${cardName(ctx, d.card)} (${lvl}).`;
    }
    case "refill": return d.drawn ? `The field moves right; ${cardName(ctx, d.drawn)} is turned into the leftmost space.` : "The field moves right; the adventure deck is empty.";
    case "interrupt": return `${who} interrupts: ${count((d.targets || []).length, "upright member")} turned sideways.`;
    case "turn_end": {
      const hit = (d.interrupted || []).length;
      return hit ? `${who}'s turn ends; ${count(hit, "same-named member")} of others turned sideways.` : `${who}'s turn ends.`;
    }
    case "pass": return `${who} cannot act and passes.`;
    case "round_end": return `Cleanup: members return to standby. Round ${d.round} starts with ${seatName(ctx, d.start_seat)}.`;
    case "game_end": {
      const scores = (d.vp || []).map((vp, seat) => `${seatName(ctx, seat)} ${vp}`);
      const best = Math.min(...(d.ranks || [1]));
      const winners = (d.ranks || []).map((r, seat) => (r === best ? seatName(ctx, seat) : null)).filter(Boolean);
      return `The game ends. VP: ${scores.join(", ")}. ${listWords(winners)} ${winners.length > 1 ? "share the win" : "wins"}.`;
    }
    default: {
      const fields = moveFields(ctx, d);
      return `${sentence(String(event.type).replace(/_/g, " "))}${fields ? `: ${fields}` : ""}.`;
    }
  }
}

// ----- whose turn, and the controls ------------------------------------------------------------

function awaited(turn, ctx) {
  const s = stateOf(turn);
  if ((turn && turn.status && turn.status !== "active") || s.phase === "over") return "The game is over.";
  const who = waitingFor(ctx, turn);
  if (s.phase === "formation") return `Formation: waiting for ${who} to choose four members, in secret.`;
  const t = s.turn;
  if (t && t.queue && t.queue.length) {
    const step = t.queue[0];
    return step.op === "cost" ? `${who}: ${stepWords(ctx, step)} (a Cost that can be paid must be paid).`
      : `${who}: ${stepWords(ctx, step)}, or skip it.`;
  }
  if (t && t.played === null && t.seat !== undefined) return `${seatName(ctx, t.seat)} to play a member or activate a Legendary ability.`;
  return (turn.to_act || []).length ? `Waiting for ${who}.` : "The rules are moving on.";
}

/** Group and label one legal move in the game's words; compound shapes (a list of members) are
 *  labelled from their fields. */
function control(move, view, ctx) {
  const s = stateOf(view);
  const name = (id) => cardName(ctx, id);
  const say = (key, value) => (key === "token" ? tokenName(ctx, value)
    : key === "ability" ? abilityName(value) : key === "use" ? (value === "member" ? "the member" : name(value)) : undefined);
  switch (move.type) {
    case "pick": return { group: "Formation: pick a member", label: name(move.member), card: move.member };
    case "unpick": return { group: "Formation: put a member back", label: name(move.member) };
    case "confirm": {
      const own = s.seats && ctx.seat !== null && ctx.seat !== undefined ? s.seats[ctx.seat] : null;
      const members = move.members || move.hand || (own && Array.isArray(own.draft) ? own.draft : []);
      return { group: "Formation", label: members.length ? `Confirm ${cardsWords(ctx, members)}` : "Confirm the fellowship" };
    }
    case "play": {
      const group = move.ability === "legendary" ? "Play a member (Legendary: resolves next turn)" : "Play a member (Nameless)";
      return { group, label: `${name(move.member)}${useWords(ctx, move.use)}`, card: move.member };
    }
    case "activate": {
      const t = s.seats && s.seats[ctx.seat];
      const up = t && (t.play || []).find((m) => m.upright);
      return { group: "Activate the upright Legendary ability", label: `${up ? name(up.id) : "Legendary ability"}${useWords(ctx, move.use)}` };
    }
    case "gain": return { group: "Resolve the ability", label: `Gain 1 ${tokenName(ctx, move.token)}` };
    case "pay": return { group: "Resolve the ability", label: "Pay the cost" };
    case "obtain": return { group: "Obtain a card from the field", label: name(move.card), card: move.card };
    case "excavate": return { group: "Resolve the ability", label: "Excavate (take the top relic)" };
    case "interrupt_all": return { group: "Resolve the ability", label: "Interrupt all upright members" };
    case "skip": return { group: "Resolve the ability", label: "Skip this icon" };
    default: {
      if (Array.isArray(move.members)) {  // a whole formation as one move (a later rules version)
        return { group: "Formation: choose your fellowship", label: cardsWords(ctx, move.members) };
      }
      const fields = moveFields(ctx, move, say);
      return { group: "Other moves", label: `${sentence(String(move.type).replace(/_/g, " "))}${fields ? `: ${fields}` : ""}` };
    }
  }
}

function controls(legalMoves, view, ctx) {
  return uniqueCards((legalMoves || []).map((move) => ({ ...control(move, view, ctx), move })));
}

export default { title: "Fellowships of Fate", render, describe, awaited, controls };
