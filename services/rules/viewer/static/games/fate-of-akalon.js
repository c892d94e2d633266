/* Fate of Akalon: Tribes — the battlefield (each seat's creatures in play, with the battle's
 * totals), each seat's hand (face down unless it is the viewer's), deck, discard and cemetery with
 * the cemetery's value (the lowest wins). Cards are physical instances ("orc-goblin#2"), drawn by
 * their printed name from the catalog. */
import { card, cardName, hidden, lookup, pile, row } from "../shell/cards.js";
import { cap, count, list, who, words, size } from "../shell/words.js";

function valueOf(ctx, id) {
  const { def } = lookup(ctx, id);
  return def && def.values && typeof def.values.value === "number" ? def.values.value : 0;
}

function cemeteryValue(ctx, zone) {
  return (zone.cemetery || []).reduce((sum, c) => sum + valueOf(ctx, c), 0);
}

function factionName(ctx, state, s) {
  const f = (state.factions || [])[s];
  const def = f && ctx.catalog.factions ? ctx.catalog.factions[f] : null;
  return def ? def.name : f ? cap(f) : "";
}

function seatTitle(ctx, state, s) {
  const f = factionName(ctx, state, s);
  return f ? `${who(ctx, s)} (${f})` : who(ctx, s);
}

const DECISIONS = {
  attacker: "choose who attacks first", play: "play a creature or pass", stack: "choose a card to put on the deck",
  order: "choose the order of the effects", effect: "decide on a card's effect",
};

function decision(state) {
  return state && state.pending && state.pending.length ? state.pending[state.pending.length - 1] : null;
}

function battlefield(state, ctx) {
  const { h } = ctx;
  const n = state.players;
  const b = state.battle || {};
  return h("div", { class: "battlefield" }, Array.from({ length: n }, (_, s) => {
    const mine = (state.field || []).filter((e) => e.seat === s);
    const total = mine.filter((e) => e.active !== false).reduce((sum, e) => sum + valueOf(ctx, e.card), 0);
    return h("div", { class: "area", "data-seat": s }, h("span", { class: "area-label", text: seatTitle(ctx, state, s) }),
      mine.length ? h("span", { class: "cards" }, mine.map((e) => card(ctx, e.card, { detail: e.active === false ? "inactive" : undefined })))
        : h("span", { class: "muted", text: "no creature in play" }),
      h("span", { class: "stat" }, " printed total ", h("b", { text: total })),
      b.attacker === s ? h("span", { class: "stat", text: "attacking" }) : null);
  }));
}

function seatArea(state, ctx, s) {
  const { h } = ctx;
  const z = state.zones[s];
  const d = decision(state);
  const acting = d && d.seat === s;
  const alive = !state.alive || state.alive[s];
  return h("div", { class: `seat-area${acting ? " acting" : ""}`, "data-seat": s },
    h("h3", { text: `${seatTitle(ctx, state, s)}${ctx.seat === s ? " (you)" : ""}${alive ? "" : " — has left the game"}` }),
    h("div", {}, h("span", { class: "stat" }, "cemetery value ", h("b", { class: "cemetery-value", text: cemeteryValue(ctx, z) })),
      h("span", { class: "stat" }, "hand ", h("b", { text: size(z.hand) })), h("span", { class: "stat" }, "deck ", h("b", { text: size(z.deck) }))),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Hand" }),
      Array.isArray(z.hand) ? row(ctx, z.hand, { empty: "empty" }) : hidden(ctx, "cards", size(z.hand))),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Deck" }),
      Array.isArray(z.deck) ? row(ctx, z.deck, { empty: "empty" }) : pile(ctx, "face down", size(z.deck))),
    (z.revealed || []).length ? h("div", { class: "area" }, h("span", { class: "area-label", text: "Revealed" }), row(ctx, z.revealed)) : null,
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Discard" }), row(ctx, z.discard, { empty: "empty" })),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Cemetery" }), row(ctx, z.cemetery, { empty: "empty" })),
    (z.out || []).length ? h("div", { class: "area" }, h("span", { class: "area-label", text: "Out of play" }), row(ctx, z.out)) : null);
}

function names(ctx, ids) {
  return list((ids || []).map((c) => cardName(ctx, c)));
}

function describe(ev, ctx) {
  const d = ev.data || {};
  switch (ev.type) {
    case "setup": return `${count(d.players, "player")} sit down: ${list((d.factions || []).map((f, i) => `${who(ctx, i)} with the ${cap(f)} deck`))}`;
    case "flip": return `Cards are turned up: ${list((d.cards || []).map(([s, c]) => `${who(ctx, s)}'s ${cardName(ctx, c)}`))}`;
    case "move": return `${who(ctx, d.seat)}'s ${names(ctx, d.cards)} ${d.cards && d.cards.length === 1 ? "goes" : "go"} from the ${words(d.from)} to the ${words(d.to)}`;
    case "step": return d.step ? `Step: ${words(d.step)}` : d.attacker !== undefined ? `${who(ctx, d.attacker)} is named the first attacker` : "The game moves on";
    case "push": return `${who(ctx, d.decision.seat)} is to ${DECISIONS[d.decision.kind] || words(d.decision.kind)}`;
    case "pop": return "The decision is made";
    case "draw": return `${who(ctx, d.seat)} draws ${count(d.count, "card")}`;
    case "battle": return `Battle ${d.n}: ${who(ctx, d.attacker)} attacks`;
    case "turn": return `${who(ctx, d.ask)} is to play`;
    case "play": return `${who(ctx, d.seat)} plays ${cardName(ctx, d.card)}${d.from && d.from !== "hand" ? ` from the ${words(d.from)}` : ""}`;
    case "fight": {
      const totals = (d.totals || []).map((t, s) => `${who(ctx, s)} ${t}`);
      const winners = (d.winners || []).map((s) => who(ctx, s));
      return `The battle is fought, ${totals.join(" – ")}: ${winners.length ? `${list(winners)} ${winners.length > 1 ? "win" : "wins"}` : "nobody wins"}`;
    }
    case "rounds": return "The cards' texts take effect in turn";
    case "triggered": return `${who(ctx, d.seat)}'s ${cardName(ctx, d.card)} takes effect (${words(d.on)})`;
    case "enqueue": return `${count((d.items || []).length, "effect")} waiting to resolve`;
    case "dequeue": return "An effect resolves";
    case "reveal": return `${who(ctx, d.seat)} reveals ${names(ctx, d.cards)}`;
    case "next_attacker": return `${who(ctx, d.seat)} will attack next (${cardName(ctx, d.card)})`;
    case "leave": return `${who(ctx, d.seat)} leaves the game`;
    case "over": {
      const cem = ((d.result || {}).details || {}).cemetery || [];
      return `The war is over; cemetery values: ${cem.map((v, s) => `${who(ctx, s)} ${v}`).join(", ")}`;
    }
    default: return null;
  }
}

const GROUPS = { play: "Play a creature", pass: "Pass", stack: "Put on your deck", choose_attacker: "Who attacks first",
  recover: "Recover", resolve: "Resolve first", target: "Target", use: "Use the effect" };

export default {
  title: "Fate of Akalon: Tribes",
  render(state, ctx) {
    const { h } = ctx;
    const b = state.battle || {};
    return h("div", { class: "foa" },
      h("div", { class: "row" },
        h("span", { class: "stat" }, "battle ", h("b", { text: b.n || "—" })),
        b.attacker !== undefined && b.attacker !== null ? h("span", { class: "stat" }, "attacker ", h("b", { text: seatTitle(ctx, state, b.attacker) })) : null,
        h("span", { class: "stat" }, "step ", h("b", { text: words(state.step || "") }))),
      h("h2", { text: "Battlefield" }), battlefield(state, ctx),
      h("h2", { text: "Players" }), (state.zones || []).map((_, s) => seatArea(state, ctx, s)));
  },
  describe,
  awaited(turn, ctx) {
    const d = decision(turn.state);
    if (!d) return turn.to_act.length ? `Waiting for ${list(turn.to_act.map((s) => who(ctx, s)))}` : "Nobody is to act";
    return `${seatTitle(ctx, turn.state, d.seat)} is to ${DECISIONS[d.kind] || words(d.kind)}`;
  },
  controls(moves, state, ctx) {
    return moves.map((m) => {
      let label;
      if (m.card !== undefined) label = cardName(ctx, m.card);
      else if (m.seat !== undefined) label = seatTitle(ctx, state, m.seat);
      else label = cap(words(m.type));
      return { group: GROUPS[m.type] || cap(words(m.type)), label, move: m, card: m.card };
    });
  },
};
