/* Rise of Tribes: the hex map in SVG (terrain, each tribe's members, villages), the action board
 * with its dice, the event cards in play, and each tribe's supply, resources, score and Goal cards.
 * Hexes are named by number from 1 (data-hex keeps the view's index from 0). */
import { card, hidden, row } from "../shell/cards.js";
import { cap, count, list, who, words } from "../shell/words.js";

const ACTIONS = ["grow", "move", "gather", "lead"];
const SIZE = 54;

function hexName(state, i) {
  const t = (state && state.terrain && state.terrain[i]) || "";
  return `hex ${Number(i) + 1}${t ? ` (${t})` : ""}`;
}

function tribeName(ctx, state, s) {
  const t = state && state.seats && state.seats[s] ? state.seats[s].tribe : null;
  const def = t && ctx.catalog.tribes ? ctx.catalog.tribes[t] : null;
  return def ? def.name : t ? cap(t) : "";
}

/** "Ada (Kiror)". */
function tribe(ctx, state, s) {
  const name = tribeName(ctx, state, s);
  return name ? `${who(ctx, s)} (${name})` : who(ctx, s);
}

function strength(catalog, faces) {
  const rule = (catalog.dice || {}).strength;
  if (!rule) return "";
  const n = (f) => faces.filter((x) => x === f).length;
  if (n(rule.weak_if_at_least.face) >= rule.weak_if_at_least.count) return "weak";
  if (n(rule.strong_if_at_least.face) >= rule.strong_if_at_least.count) return "strong";
  return "standard";
}

function corners(cx, cy) {
  return Array.from({ length: 6 }, (_, k) => {
    const a = (Math.PI / 180) * (60 * k - 30);
    return `${(cx + SIZE * Math.cos(a)).toFixed(1)},${(cy + SIZE * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}

function hexMap(state, ctx) {
  const { h } = ctx;
  const map = ((ctx.catalog.board || {}).maps || {})[String(state.n)];
  const n = state.terrain.length;
  const layout = map && map.layout && map.layout.length === n ? map.layout
    : Array.from({ length: n }, (_, i) => [i % 4, Math.floor(i / 4)]);
  const centres = layout.map(([q, r]) => [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r]);
  const xs = centres.map((c) => c[0]), ys = centres.map((c) => c[1]);
  const pad = SIZE + 4;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  const width = Math.max(...xs) - minX + pad, height = Math.max(...ys) - minY + pad;
  const seats = state.seats.length;
  const hexes = centres.map(([cx, cy], i) => {
    const pop = (state.pop[i] || []);
    const village = state.village[i];
    const tokens = pop.map((m, s) => [m, s]).filter(([m]) => m > 0);
    const label = [hexName(state, i), ...tokens.map(([m, s]) => `${tribeName(ctx, state, s) || who(ctx, s)} ${m}`),
      village !== null && village !== undefined ? `village of ${who(ctx, village)}` : null].filter(Boolean).join(", ");
    return h("svg:g", { class: `hex terrain-${state.terrain[i]}`, "data-hex": i, "data-pop": pop.join(","),
      "data-village": village === null || village === undefined ? "" : village, tabindex: 0 },
    h("svg:title", { text: label }),
    h("svg:polygon", { points: corners(cx, cy) }),
    h("svg:text", { x: cx, y: cy - SIZE * 0.5, "text-anchor": "middle", class: "hex-name", text: String(i + 1) }),
    h("svg:text", { x: cx, y: cy + SIZE * 0.62, "text-anchor": "middle", class: "hex-terrain", text: cap(state.terrain[i]) }),
    tokens.map(([m, s], k) => {
      const x = cx + (k - (tokens.length - 1) / 2) * 26;
      return h("svg:g", { class: "members", "data-seat": s },
        h("svg:circle", { cx: x, cy: cy + 2, r: 11, class: `tribe-${s % 4}` }),
        h("svg:text", { x, y: cy + 6, "text-anchor": "middle", class: "pop", fill: "#fff", text: m }));
    }),
    village !== null && village !== undefined
      ? h("svg:rect", { x: cx + SIZE * 0.45, y: cy - 8, width: 16, height: 16, class: `village tribe-${village % 4}` },
        h("svg:title", { text: `village of ${who(ctx, village)}` })) : null);
  });
  return h("svg:svg", { class: "hexmap", viewBox: `${minX.toFixed(0)} ${minY.toFixed(0)} ${width.toFixed(0)} ${height.toFixed(0)}`,
    width: width.toFixed(0), height: height.toFixed(0),
    role: "img", "aria-label": `the map, ${n} hexes, ${seats} tribes` }, hexes);
}

function actionBoard(state, ctx) {
  const { h } = ctx;
  const table = ctx.catalog.actions || {};
  const turn = state.turn || {};
  return h("div", { class: "dice-board" }, ACTIONS.map((a) => {
    const faces = (state.dice || {})[a] || [];
    const st = strength(ctx.catalog, faces);
    const numbers = st && table[a] && table[a][st] ? Object.entries(table[a][st]).map(([k, v]) => `${words(k)} ${v}`).join(", ") : "";
    return h("div", { class: `action${(turn.actions || []).includes(a) ? " taken" : ""}`, "data-action": a },
      h("b", { text: a.toUpperCase() }), (turn.actions || []).includes(a) ? h("span", { class: "muted", text: " (taken this turn)" }) : null,
      h("div", {}, faces.map((f) => h("span", { class: "die", title: f, text: dieFace(f) }))),
      st ? h("div", { class: "muted", text: `${st}: ${numbers}` }) : null);
  }));
}

function dieFace(f) {
  return f === "sun" ? "☀ Sun" : f === "moon" ? "☾ Moon" : f === "blank" ? "Blank" : words(f);
}

function resources(res) {
  return Object.entries(res || {}).map(([k, v]) => `${v} ${cap(k)}`).join(", ");
}

function seatArea(state, ctx, s) {
  const { h } = ctx;
  const seat = state.seats[s];
  const acting = (ctx.toAct || []).includes(s);
  const onMap = state.pop.reduce((sum, p) => sum + (p[s] || 0), 0);
  return h("div", { class: `seat-area${acting ? " acting" : ""}`, "data-seat": s },
    h("h3", {}, h("span", { class: `swatch tribe-${s % 4}` }), `${tribe(ctx, state, s)}${ctx.seat === s ? " (you)" : ""}`),
    h("div", {}, h("span", { class: "stat" }, "score ", h("b", { text: seat.score })),
      h("span", { class: "stat" }, "members on the map ", h("b", { text: onMap })),
      h("span", { class: "stat" }, "in supply ", h("b", { text: seat.supply })),
      h("span", { class: "stat" }, "resources ", h("b", { text: resources(seat.res) || "none" })),
      seat.built ? h("span", { class: "stat" }, "villages built ", h("b", { text: seat.built })) : null,
      seat.power ? h("span", { class: "stat" }, "power ", card(ctx, seat.power)) : null),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Goals in progress" }), row(ctx, seat.progress)),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Goals completed" }), row(ctx, seat.done)),
    h("div", { class: "area" }, h("span", { class: "area-label", text: "Goal deck" }),
      Array.isArray(seat.deck) ? row(ctx, seat.deck) : hidden(ctx, "cards", seat.deck ? seat.deck.count : 0)));
}

function eventArea(state, ctx) {
  const { h } = ctx;
  const ev = state.events || {};
  return h("div", { class: "area" }, h("span", { class: "area-label", text: "Events in play" }),
    (ev.slots || []).map((slot) => slot ? card(ctx, slot.id, {
      detail: [resources(slot.stock) ? `on it: ${resources(slot.stock)}` : null, slot.hex !== null && slot.hex !== undefined ? `at ${hexName(state, slot.hex)}` : null,
        slot.tokens ? count(slot.tokens, "token") : null].filter(Boolean).join("; ") || undefined }) : h("span", { class: "muted", text: "empty slot" })),
    h("span", { class: "muted", text: ` Event deck: ${Array.isArray(ev.deck) ? ev.deck.length : (ev.deck || {}).count || 0}; discarded: ${(ev.discard || []).length}` }));
}

const DECISIONS = {
  start: "place starting members", take: "take starting resources", action: "choose an action with a die",
  grow: "choose where to GROW", move_from: "choose where to MOVE from", move_to: "choose where to MOVE to",
  move_count: "choose how many members to MOVE", gather: "choose where to GATHER", goals: "complete Goals or end the turn",
  reenter: "choose where members re-enter", conflict_order: "choose the order of conflicts", bow: "choose a member to remove with the Bow",
  evade: "choose where to evade", pay: "choose a resource to pay", recycle: "choose a Goal card to recycle",
  place_token: "choose a hex for the event's token", abandoned_village: "decide on the Abandoned Village", discover: "choose a resource to discover",
  power: "choose a tribal power", light: "choose a resource", intimidate: "choose whom to intimidate", bounty: "choose a bounty",
};

function decisionOf(state) {
  if (!state) return null;
  if (state.pending && state.pending.length) return state.pending[state.pending.length - 1];
  const turn = state.turn || {};
  if (turn.step === "actions") return { seat: turn.seat, kind: "action" };
  if (turn.step === "goals") return { seat: turn.seat, kind: "goals" };
  return null;
}

function moveLabel(m, state, ctx) {
  switch (m.type) {
    case "place": return `${count(m.count, "member")} in ${hexName(state, m.hex)}`;
    case "act": return `${m.action.toUpperCase()} with a ${cap(m.face)}`;
    case "move_count": return count(m.count, "member");
    case "trade": return `${cap(m.give)} for ${cap(m.get)}`;
    case "bow": case "exogamy": case "intimidate":
      return [m.hex !== undefined ? hexName(state, m.hex) : null, m.target !== undefined ? who(ctx, m.target) : null,
        m.to !== undefined ? `to ${hexName(state, m.to)}` : null].filter(Boolean).join(", ");
    case "wayfarers": return `from ${hexName(state, m.from)}`;
    case "build": return `a village in ${hexName(state, m.hex)}${m.save ? " (saving resources)" : ""}`;
    case "hunt": return `hunt the ${nameOf(ctx, m.event)}`;
    default: {
      const parts = [];
      if (m.hex !== undefined) parts.push(cap(hexName(state, m.hex)));
      if (m.resource !== undefined) parts.push(cap(m.resource));
      if (m.card !== undefined) parts.push(nameOf(ctx, m.card));
      if (m.power !== undefined) parts.push(nameOf(ctx, m.power));
      if (m.count !== undefined) parts.push(String(m.count));
      return parts.length ? parts.join(", ") : cap(words(m.type));
    }
  }
}

function nameOf(ctx, id) {
  const def = (ctx.catalog.cards || {})[id];
  return def ? def.name : cap(words(id));
}

const GROUPS = {
  place: "Place starting members", act: "Take an action", grow: "GROW in", move_from: "MOVE from", move_to: "MOVE to",
  move_count: "MOVE how many", gather: "GATHER from", complete: "Complete a Goal", end_turn: "End", done: "Done",
  build: "Build", reenter: "Re-enter in", knowledge: "Shared Knowledge", skip: "Skip", pass: "Pass", trade: "Trade",
  take: "Take", pay: "Pay with", conflict: "Resolve the conflict in", recycle: "Recycle a Goal", stay: "Stay",
};

function describe(ev, ctx) {
  const d = ev.data || {};
  const hx = (i) => `hex ${Number(i) + 1}`;
  const s = d.seat;
  switch (ev.type) {
    case "setup": return `The map of ${d.terrain.length} hexes is laid out; the tribes: ${list((d.tribes || []).map((t, i) =>
      `${who(ctx, i)} (${(ctx.catalog.tribes || {})[t] ? ctx.catalog.tribes[t].name : cap(t)})`))}`;
    case "ask": return `${who(ctx, d.decision.seat)} is to ${DECISIONS[d.decision.kind] || words(d.decision.kind)}`;
    case "resolved": return "The decision is settled";
    case "update": case "turn_set": return "The turn's progress is noted";
    case "turn_started": return `${who(ctx, s)}'s turn ${d.number} begins`;
    case "rolled": return `${who(ctx, s)} rolls ${list((d.dice || []).map(cap))}`;
    case "step": return `Step: ${words(d.step)}`;
    case "die_placed": return `${who(ctx, s)} places a ${cap(d.face)} die on ${String(d.action).toUpperCase()} (${d.strength})`;
    case "die_changed": return "A die on the action board changes";
    case "goals_drawn": return Array.isArray(d.cards) ? `${who(ctx, s)} draws ${count(d.cards.length, "Goal card")}: ${list(d.cards.map((c) => nameOf(ctx, c)))}`
      : `${who(ctx, s)} draws Goal cards`;
    case "goals_recycled": return `${who(ctx, s)} puts Goal cards back under the deck`;
    case "resources": {
      const parts = Object.entries(d.delta || {}).map(([k, v]) => `${Math.abs(v)} ${cap(k)}`);
      const gain = Object.values(d.delta || {}).some((v) => v > 0);
      return `${who(ctx, s)} ${gain ? "gathers" : "pays"} ${list(parts) || "nothing"}${d.from && d.from !== "supply" ? ` (${words(d.from)})` : ""}`;
    }
    case "members_added": return `${who(ctx, s)} adds ${count(d.count, "member")} in ${hx(d.hex)}${d.why && d.why !== "grow" ? ` (${words(d.why)})` : ""}`;
    case "members_moved": return `${who(ctx, s)} moves ${count(d.count, "member")} from ${hx(d.from)} to ${hx(d.to)}`;
    case "members_removed": return `${who(ctx, s)} loses ${count(d.count, "member")} in ${hx(d.hex)}${d.why ? ` (${words(d.why)})` : ""}`;
    case "conflict_resolved": return `Conflict in ${hx(d.hex)}: ${list((d.removed || []).map((n, i) => (n ? `${who(ctx, i)} loses ${n}` : null))) || "nobody is removed"}`;
    case "event_drawn": return `The event ${nameOf(ctx, d.event)} comes into play`;
    case "event_left": return `The event ${nameOf(ctx, d.event)} leaves play`;
    case "event_changed": return "An event card in play changes";
    case "stock_placed": return `${resources(d.stock)} placed on an event card`;
    case "stock_returned": return `${d.count} ${cap(d.resource)} taken from an event card`;
    case "goal_completed": return `${who(ctx, s)} completes ${nameOf(ctx, d.card)}`;
    case "score": return `${who(ctx, s)} scores ${count(d.points, "point")}${d.why ? ` (${nameOf(ctx, d.why)})` : ""}`;
    case "used": return `${cap(words(d.flag))} is used`;
    case "village_built": return `${who(ctx, s)} builds a village in ${hx(d.hex)}`;
    case "power_chosen": return `${who(ctx, s)} chooses the power ${nameOf(ctx, d.power)}`;
    default: return null;
  }
}

export default {
  title: "Rise of Tribes",
  render(state, ctx) {
    const { h } = ctx;
    const d = decisionOf(state);
    const c = { ...ctx, toAct: d ? [d.seat] : [] };
    const turn = state.turn || {};
    return h("div", { class: "rot" },
      h("div", { class: "row" },
        h("span", { class: "stat" }, "turn ", h("b", { text: turn.number || "setup" })),
        turn.seat !== undefined && turn.seat !== null ? h("span", { class: "stat" }, "current tribe ", h("b", { text: tribe(ctx, state, turn.seat) })) : null,
        (turn.rolled || []).length || (state.loose || []).length ? h("span", { class: "stat" }, "dice to place ",
          (state.loose || []).map((f) => h("span", { class: "die", text: dieFace(f) }))) : null,
        h("span", { class: "stat" }, "supply ", h("b", { text: `${resources({ food: state.supply.food, wood: state.supply.wood, stone: state.supply.stone })}, ${count(state.supply.villages, "village")}` })),
        h("span", { class: "stat" }, "wins at ", h("b", { text: `${ctx.catalog.winning_score || 15} points` }))),
      h("h2", { text: "The map" }), hexMap(state, c),
      h("div", { class: "legend" }, state.seats.map((_, s) => h("span", { class: "stat" }, h("span", { class: `swatch tribe-${s % 4}` }), tribe(ctx, state, s)))),
      h("h2", { text: "Action board" }), actionBoard(state, c), eventArea(state, c),
      h("h2", { text: "Tribes" }), state.seats.map((_, s) => seatArea(state, c, s)));
  },
  describe,
  awaited(turn, ctx) {
    const d = decisionOf(turn.state);
    if (!d) return turn.to_act.length ? `Waiting for ${list(turn.to_act.map((s) => who(ctx, s)))}` : "Nobody is to act";
    return `${tribe(ctx, turn.state, d.seat)} is to ${DECISIONS[d.kind] || words(d.kind)}${d.left ? ` (${d.left} left)` : ""}`;
  },
  controls(moves, state, ctx) {
    return moves.map((m) => ({ group: GROUPS[m.type] || cap(words(m.type)), label: moveLabel(m, state, ctx), move: m,
      card: m.type === "complete" || m.type === "recycle" ? m.card : undefined,
      hex: m.hex !== undefined && !["place", "build"].includes(m.type) ? m.hex : undefined }));
  },
};
