/* The event log in sentences: the platform's own events (match created, ended, a seat handed to
 * a bot) said here; every game event by the game's renderer. */
import { call } from "./renderers.js";
import { list, ordinal, who, words } from "./words.js";

export function describeEvent(ev, renderer, ctx) {
  const d = ev.data || {};
  switch (ev.type) {
    case "match.created":
      return `The match begins: ${list((d.seats || []).map((_, i) => who(ctx, i)))}`;
    case "match.seat_handed_over":
      return `${who(ctx, d.seat)} is played by a ${d.bot} bot from now on (${words(d.reason || "handed over")})`;
    case "match.ended": {
      const ranks = (d.outcome || {}).ranks || [];
      const scores = (d.outcome || {}).scores || [];
      const order = ranks.map((r, i) => [r, i]).sort((a, b) => a[0] - b[0]);
      return `Match over: ${order.map(([r, i]) => `${ordinal(r)} ${who(ctx, i)}${scores[i] !== undefined ? ` (${scores[i]})` : ""}`).join(", ")}`;
    }
    case "match.aborted":
      return `The match was aborted: ${d.reason}`;
    default:
      return call(renderer, "describe", ev, ctx);
  }
}
