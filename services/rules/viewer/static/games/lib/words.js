/* Words shared by the per-game renderers: seat and card names, lists, counts, and the generic
 * reading of a move's fields (so a compound move — one move listing a subset or an order of
 * cards — reads as well as a single pick). Nothing here knows a game; each renderer passes its
 * own namers. Never prints JSON: an unknown object is said as "key value" words.
 */

/** A seat's display name ("Seat 2" when the shell has none). */
export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "nobody";
  const names = (ctx && ctx.seatNames) || [];
  return names[seat] || `Seat ${Number(seat) + 1}`;
}

/** "Ada" / "Ada (you)" for the viewer's own seat. */
export function seatLabel(ctx, seat) {
  const name = seatName(ctx, seat);
  return ctx && ctx.seat !== null && ctx.seat !== undefined && Number(ctx.seat) === Number(seat)
    ? `${name} (you)` : name;
}

/** An id as words: "tactical_reversal" -> "tactical reversal". */
export function idWords(id) {
  return String(id).replace(/[_#-]+/g, " ").trim();
}

/** A card's printed name from the catalog (its id in words when the catalog lacks it). */
export function cardName(ctx, id) {
  const card = ctx && ctx.catalog && ctx.catalog.cards && ctx.catalog.cards[id];
  return card ? card.name : idWords(id);
}

/** "A", "A and B", "A, B and C"; "nothing" for none. */
export function listWords(items, none = "nothing") {
  const xs = items.filter((x) => x !== undefined && x !== null && x !== "");
  if (xs.length === 0) return none;
  if (xs.length === 1) return String(xs[0]);
  return `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

/** "1 card", "3 cards". */
export function count(n, one, many = `${one}s`) {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

/** Card ids as "2× Orc, Elf" (duplicates counted, names from the catalog). */
export function cardsWords(ctx, ids, none = "nothing") {
  const tally = new Map();
  for (const id of ids || []) tally.set(id, (tally.get(id) || 0) + 1);
  return listWords([...tally].map(([id, n]) => (n > 1 ? `${n}× ${cardName(ctx, id)}` : cardName(ctx, id))), none);
}

/** Upper-case the first letter. */
export function sentence(text) {
  const s = String(text);
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

const SEAT_FIELDS = new Set(["seat", "target", "owner", "from", "to", "winner", "bidder", "saboteur"]);

/** A scalar or list field of a move in words: seats by name, card ids by printed name, others by
 *  `say` (the game's own words for a token, an ability...) or as plain words. */
function fieldWords(ctx, key, value, say) {
  const own = say && say(key, value);
  if (own !== undefined && own !== null) return own;
  if (Array.isArray(value)) return listWords(value.map((v) => fieldWords(ctx, key, v, say)));
  if (value !== null && typeof value === "object") {
    return listWords(Object.entries(value).map(([k, v]) => `${idWords(k)} ${fieldWords(ctx, k, v, say)}`));
  }
  if (typeof value === "number" && SEAT_FIELDS.has(key)) return seatName(ctx, value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return cardName(ctx, value);
  return String(value);
}

/** Any move's fields besides its type, in words ("Orc, Elf", "Ben's Orc"): the generic label,
 *  for compound moves whose shape a rules change may alter. Returns "" for a bare move. */
export function moveFields(ctx, move, say) {
  const parts = [];
  for (const [key, value] of Object.entries(move)) {
    if (key === "type" || value === null || value === undefined) continue;
    const words = fieldWords(ctx, key, value, say);
    // a seat other than the mover's reads with its role: "at Ben", "owner Ben"
    const role = SEAT_FIELDS.has(key) && typeof value === "number" && key !== "seat" ? (key === "target" ? "at" : idWords(key)) : "";
    parts.push(role ? `${role} ${words}` : words);
  }
  return parts.join(", ");
}

/** The first card id a move names (its `card` / `member`, or the first of a list), for a
 *  control the shell lets the viewer click on a drawn card. */
export function moveCard(move, fields = ["card", "member"]) {
  for (const f of fields) {
    const v = move[f];
    if (typeof v === "string") return v;
  }
  return undefined;
}

/** Keeps `card` on a control only where no other control names the same card, so a click on a
 *  drawn card always means one move (the others stay buttons). */
export function uniqueCards(controls) {
  const seen = new Map();
  for (const c of controls) if (c.card) seen.set(c.card, (seen.get(c.card) || 0) + 1);
  return controls.map((c) => (c.card && seen.get(c.card) > 1 ? { ...c, card: undefined } : c));
}

/** Who is awaited, in words, from a view or turn answer ({to_act, status, state}). */
export function waitingFor(ctx, turn) {
  const toAct = (turn && turn.to_act) || [];
  return listWords(toAct.map((s) => seatLabel(ctx, s)), "nobody");
}

/** The service's own records (match.created, match.ended...) in words, or null for a game event. */
export function matchEvent(event, ctx) {
  const d = event.data || {};
  switch (event.type) {
    case "match.created": return "The table is set up and the match begins.";
    case "match.ended": return "The match is over.";
    case "match.aborted": return d.reason ? `The match is abandoned (${d.reason}).` : "The match is abandoned.";
    case "match.seat_handed_over":
      return `A bot takes over ${seatName(ctx, d.seat)}'s seat${d.reason ? ` (${idWords(d.reason)})` : ""}.`;
    default:
      return event.type && event.type.startsWith("match.") ? `${sentence(idWords(event.type.slice(6)))}.` : null;
  }
}
