/* Words the renderers share: seat names, ordinals, lists, counts. */

/** A seat's display name from the match summary's seats. */
export function seatName(seat, i) {
  seat = seat || {};
  if (seat.name && /^bot:/.test(seat.name)) return `${cap(seat.name.slice(4))} bot`;
  if (seat.name) return seat.name;
  if (seat.player_id) return seat.player_id;
  if (seat.bot) return `${cap(seat.bot)} bot`;
  return `Seat ${i + 1}`;
}

export function who(ctx, i) {
  if (i === null || i === undefined) return "nobody";
  return (ctx.seatNames && ctx.seatNames[i]) || `Seat ${Number(i) + 1}`;
}

export function cap(s) {
  s = String(s);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "move_to" -> "move to". */
export function words(key) {
  return String(key).replace(/[_-]+/g, " ");
}

export function ordinal(r) {
  const t = r % 100;
  return r + (t >= 11 && t <= 13 ? "th" : r % 10 === 1 ? "st" : r % 10 === 2 ? "nd" : r % 10 === 3 ? "rd" : "th");
}

/** "a", "a and b", "a, b and c". */
export function list(items) {
  items = items.filter((x) => x !== null && x !== undefined && x !== "");
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "1 card", "3 cards". */
export function count(n, one, many) {
  return `${n} ${n === 1 ? one : many || one + "s"}`;
}

/** A hidden part of a view ({"count": n}) or a list: how many. */
export function size(v) {
  if (Array.isArray(v)) return v.length;
  if (v && typeof v === "object" && typeof v.count === "number") return v.count;
  return 0;
}

export const isHidden = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.count === "number";
