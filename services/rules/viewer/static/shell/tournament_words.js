/* Words for tournaments: formats, entrant names, a match's result, numbers of points. */
import { cap, list, ordinal } from "./words.js";

const FORMATS = { swiss: "Swiss", "round-robin": "Round robin", arena: "Arena" };

/** "swiss" -> "Swiss", "round-robin" -> "Round robin". */
export function formatName(format) {
  return FORMATS[format] || cap(String(format).replace(/-/g, " "));
}

/** An entrant's display name: "bot:greedy #2" -> "Greedy bot #2"; a player's own name as given. */
export function entrantName(name) {
  const m = /^bot:(\S+)(.*)$/.exec(String(name || ""));
  return m ? `${cap(m[1])} bot${m[2]}` : String(name || "unknown entrant");
}

/** Points as a number without trailing zeros ("1.5", "3"). */
export function points(n) {
  if (n === null || n === undefined) return "—";
  return String(Math.round(Number(n) * 100) / 100);
}

/** A tournament match's result in words, from its entrants (display names) and the ranks of its seats. */
export function resultWords(match, nameOf) {
  const names = match.entrants.map(nameOf);
  if (!match.result || !Array.isArray(match.result.ranks)) return match.status === "finished" ? "finished" : "in play";
  const ranks = match.result.ranks;
  if (names.length === 2) {
    if (ranks[0] === ranks[1]) return `${names[0]} and ${names[1]} drew`;
    const [w, l] = ranks[0] < ranks[1] ? [0, 1] : [1, 0];
    return `${names[w]} beat ${names[l]}`;
  }
  const places = [...new Set(ranks)].sort((a, b) => a - b);
  return places.map((r) => `${ordinal(r)} ${list(names.filter((_, i) => ranks[i] === r))}`).join(", ");
}
