/* Duel (the platform's test game): each round every player commits a card face down, the highest
 * scores. Cards are the numbers 1-12, drawn as cards; hidden hands as backs. */
import { card, hidden } from "../shell/cards.js";
import { count, list, who, size } from "../shell/words.js";

function numberCard(ctx, n, opts = {}) {
  const c = card({ catalog: { cards: { [n]: { name: String(n), text: "", values: {}, kind: "number" } } } }, n, opts);
  return c;
}

export default {
  title: "Duel",
  render(state, ctx) {
    const { h } = ctx;
    const n = state.players;
    return h("div", { class: "duel" },
      h("h2", { text: `Round ${Math.min(state.round, state.rounds)} of ${state.rounds}` }),
      h("p", {}, "Last cards revealed: ", state.last && state.last.length
        ? list(state.last.map((c, s) => `${who(ctx, s)} ${c}`)) : "none yet", "."),
      h("div", { class: "area" }, h("span", { class: "area-label", text: "Deck" }), hidden(ctx, "cards", size(state.deck))),
      Array.from({ length: n }, (_, s) => {
        const hand = (state.hands || {})[String(s)];
        return h("div", { class: "seat-area", "data-seat": s },
          h("h3", { text: `${who(ctx, s)}${ctx.seat === s ? " (you)" : ""} — ${count(state.scores[s], "point")}` }),
          h("div", { class: "area" }, h("span", { class: "area-label", text: "Hand" }),
            Array.isArray(hand) ? h("span", { class: "cards" }, hand.map((c) => numberCard(ctx, c))) : hidden(ctx, "cards", size(hand))));
      }));
  },
  describe(ev, ctx) {
    const d = ev.data || {};
    switch (ev.type) {
      case "dealt": return `${count(d.players, "player")} are dealt 3 cards each, ${count(d.rounds, "round")} to play`;
      case "committed": return `${who(ctx, d.seat)} commits a card face down`;
      case "revealed": return `The cards are revealed: ${list(d.cards.map((c, s) => `${who(ctx, s)} ${c}`))}; ${d.winner === null ? "a tie, nobody scores" : `${who(ctx, d.winner)} scores`}`;
      case "drew": return "Everyone draws a card";
      default: return null;
    }
  },
  awaited(turn, ctx) {
    const waiting = turn.to_act.map((s) => who(ctx, s));
    return waiting.length ? `Waiting for ${list(waiting)} to commit a card` : "The round is being scored";
  },
  controls(moves) {
    return moves.map((m) => ({ group: "Commit a card", label: String(m.card), move: m }));
  },
};
