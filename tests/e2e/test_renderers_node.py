"""The Rise of Tribes, Fate of Akalon and Battlefields of Olympus renderers (issue 20) run in Node
over whole seeded matches of the engine: the table drawn for the seat to act, a spectator and the
finished match's open state at sampled versions, every event said in a sentence (as the open log,
seat 0 and a spectator see it), whose turn in words, a labelled control for every legal move —
never JSON, "undefined" or "null"; a seat's table draws only cards its view holds and never names
a card hidden from it. The DOM helper and the shell's card helpers are replaced by stubs that
build a plain tree and record the drawn cards (Node has no DOM); the browser tests draw for real."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from shared.engine import registry
from shared.engine.catalog import of
from shared.rng import FastRng

STATIC = Path(__file__).resolve().parents[2] / "services" / "rules" / "viewer" / "static"

STUB_CARDS = """
export function lookup(ctx, id) {
  const cards = ctx.catalog.cards || {};
  const s = String(id);
  if (cards[s]) return { id: s, def: cards[s] };
  const base = s.split("#")[0];
  return { id: base, def: cards[base] || null };
}
export function cardName(ctx, id) {
  const { def } = lookup(ctx, id);
  if (!def) throw new Error("a card the catalog lacks: " + id);
  return def.name;
}
export function card(ctx, id, opts = {}) {
  if (opts.faceDown) return ctx.h("span", {}, "?");
  return ctx.h("span", { "data-card": lookup(ctx, id).id }, cardName(ctx, id), opts.detail ? " " + opts.detail : "");
}
export function pile(ctx, label, count) {
  if (typeof count !== "number") throw new Error("a pile without a count: " + label);
  return ctx.h("span", {}, label, " ", String(count));
}
export function row(ctx, ids, opts = {}) {
  if (!Array.isArray(ids)) throw new Error("a row of something that is not a list");
  return ids.length ? ctx.h("span", {}, ids.map((id) => card(ctx, id, opts))) : ctx.h("span", {}, opts.empty || "none");
}
export function hidden(ctx, label, n) {
  if (typeof n !== "number") throw new Error("a hidden count that is not a number: " + label);
  return ctx.h("span", {}, `${label}: ${n} hidden`);
}
"""

HARNESS = r"""
import fs from "fs";
const [, , dataFile, gameId] = process.argv;
const game = (await import(`./static/games/${gameId}.js`)).default;
const d = JSON.parse(fs.readFileSync(dataFile));
function h(tag, attrs, ...children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined && typeof v === "object") throw new Error(`attribute ${k} is an object`);
  }
  return { tag, attrs: attrs || {}, children: children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false) };
}
const text = (n) => (typeof n === "object" ? [n.attrs.text !== undefined ? String(n.attrs.text) : "", ...n.children.map(text)].join(" ") : String(n));
const cards = (n, out = []) => { if (typeof n === "object") { if (n.attrs["data-card"]) out.push(n.attrs["data-card"]); n.children.forEach((c) => cards(c, out)); } return out; };
const problems = [];
const BAD = /[{}\[\]]|"\w+"\s*:|\bundefined\b|\bnull\b|\bNaN\b|object Object/i;
const say = (s, where) => { if (typeof s !== "string" || !s.trim() || BAD.test(s)) problems.push(`${where}: ${String(s).slice(0, 300)}`); return s; };
const names = ["Ada", "Ben", "Cid", "Dee"].slice(0, d.players);
const ctxFor = (seat) => ({ catalog: d.catalog, seat, seatNames: names, h, status: "active" });
const out = { drawn: [], sentences: [], labels: 0 };
for (const smp of d.samples) {
  const ctx = ctxFor(smp.seat);
  const table = game.render(smp.view.state, ctx);
  say(text(table), `render as seat ${smp.seat}`);
  const spectator = game.render(smp.spect.state, ctxFor(null));
  out.drawn.push({ cards: cards(table), text: text(table), spectator: cards(spectator) });
  say(text(spectator), "render as a spectator");
  say(text(game.render(smp.raw, { ...ctxFor(null), status: "finished" })), "render the open state");
  say(game.awaited(smp.view, ctx), "awaited");
  const controls = game.controls(smp.moves, smp.view.state, ctx);
  if (controls.length !== smp.moves.length) problems.push(`controls: ${controls.length} for ${smp.moves.length} moves`);
  controls.forEach((c, i) => {
    if (c.move !== smp.moves[i]) problems.push(`control ${i} is not its move`);
    say(c.group, "control group"); say(c.label, `control label of ${smp.moves[i].type}`); out.labels += 1;
  });
}
for (const [key, seat] of [["events_open", null], ["events_seat0", 0], ["events_none", null]]) {
  out.sentences.push(d[key].map((e) => say(game.describe(e, ctxFor(seat)), `${key} ${e.type}`)));
}
say(text(game.render(d.final.state, { ...ctxFor(null), status: "finished" })), "render the end");
out.problems = problems;
console.log(JSON.stringify(out));
"""


def _base(card_id: str) -> str:
    return str(card_id).split("#")[0]


def _hidden(game_id: str, state: dict, seat: int) -> list[str]:
    """Cards the seat may not see: decks, and other seats' hands (and Actions, Reserve)."""
    if game_id == "fate-of-akalon":
        return [c for i, z in enumerate(state["zones"]) for c in z["deck"] + (z["hand"] if i != seat else [])]
    if game_id == "battlefields-of-olympus":
        out = list(state["wdeck"]) + list(state["fdeck"])
        for i, s in enumerate(state["seats"]):
            if i != seat:
                out += [c for c in s["hand"] if c not in s["known"]] + s["actions"] + s["reserve"]
        return out
    return []  # Rise of Tribes: every goal deck holds the same cards; only their order is hidden


def _match(game_id: str, players: int, seed: int) -> dict:
    """A seeded random match in the engine: sampled states with their views and legal moves, and
    the whole log as the open log, seat 0 and a spectator see it."""
    game = registry.get(game_id)
    rnd = random.Random(seed)
    events = game.setup(players, game.validate_options(players, {}), FastRng(seed))
    state = game.fold(events)
    samples = []
    for n in range(4000):
        if game.outcome(state) is not None:
            break
        to_act = game.to_act(state)
        seat = rnd.choice(to_act)
        moves = game.legal_moves(state, seat)
        if n < 30 or rnd.random() < 0.1:
            samples.append({"seat": seat, "moves": moves,
                            "view": {"state": game.view(state, seat), "to_act": to_act, "seat": seat, "status": "active"},
                            "spect": {"state": game.view(state, None), "to_act": to_act},
                            "raw": json.loads(json.dumps(state)), "hidden": _hidden(game_id, state, seat)})
        for event in game.decide(state, seat, rnd.choice(moves), FastRng(rnd.random())):
            state = game.evolve(state, event)
            events.append(event)
    assert game.outcome(state) is not None
    return {"catalog": of(game), "players": players, "samples": samples, "events_open": events,
            "events_seat0": [{"type": e["type"], "data": game.redact(e, 0)["data"]} for e in events],
            "events_none": [{"type": e["type"], "data": game.redact(e, None)["data"]} for e in events],
            "final": {"state": json.loads(json.dumps(state)), "to_act": [], "status": "finished"}}


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        pytest.skip("Node.js is not installed (apt-get install -y nodejs)")
    root = tmp_path_factory.mktemp("renderers")
    shutil.copytree(STATIC / "games", root / "static" / "games")
    (root / "static" / "shell").mkdir()
    shutil.copy(STATIC / "shell" / "words.js", root / "static" / "shell" / "words.js")  # pure, no DOM
    (root / "static" / "shell" / "cards.js").write_text(STUB_CARDS)
    (root / "package.json").write_text('{"type": "module"}')
    (root / "harness.js").write_text(HARNESS)

    def run(data: dict, game_id: str) -> dict:
        path = root / f"{game_id}-{random.random()}.json"
        path.write_text(json.dumps(data))
        done = subprocess.run([node, "harness.js", str(path), game_id], check=False, cwd=root, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout)
    return run


# cards whose name is also the label of a place on the table ("Ares": the Ares pile)
BOARD_WORDS = {"ares"}

CASES = [("rise-of-tribes", 2, 1), ("rise-of-tribes", 4, 2), ("fate-of-akalon", 2, 1), ("fate-of-akalon", 4, 2),
         ("battlefields-of-olympus", 2, 1), ("battlefields-of-olympus", 2, 5)]


@pytest.mark.parametrize("game_id,players,seed", CASES)
def test_every_state_event_and_move_of_a_match_reads_in_words(harness, game_id, players, seed):
    data = _match(game_id, players, seed)
    out = harness(data, game_id)
    assert not out["problems"], out["problems"][:10]
    assert out["labels"] > 20 and len(out["sentences"][0]) == len(data["events_open"])
    names = {c: e["name"] for c, e in data["catalog"]["cards"].items()}
    for sample, drawn in zip(data["samples"], out["drawn"]):
        seen_bases = {_base(c) for c in _strings(sample["view"]["state"])}
        # a seat's table draws only cards its view holds; a spectator's only what a spectator's holds
        assert set(drawn["cards"]) <= seen_bases, set(drawn["cards"]) - seen_bases
        assert set(drawn["spectator"]) <= {_base(c) for c in _strings(sample["spect"]["state"])}
        # what the view does not hold is never named (unless a card of the same name is in view)
        shown_names = {names[b] for b in seen_bases if b in names}
        for card in {_base(c) for c in sample["hidden"]} - BOARD_WORDS:
            if names[card] not in shown_names:
                assert names[card] not in drawn["text"], card


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []
