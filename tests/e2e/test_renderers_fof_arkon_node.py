"""The Fellowships of Fate and Arkon renderers (issue 20) run in Node over whole seeded matches of
the engine, every state and event of them: the table drawn for a seat, a spectator and a finished
match's open state, every event said in a sentence (as the seat, a spectator and the open log
see it), whose turn in words, a labelled control for every legal move — never JSON, "undefined"
or "null", and never the name of a card hidden from that viewer (a drawn card, a face-down bid).
The shell's card helpers are replaced by a stub that records the drawn cards (Node has no DOM);
the browser tests draw them for real."""
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

pytestmark = pytest.mark.slow  # ~15 s: six seeded matches, every state and event

STATIC = Path(__file__).resolve().parents[2] / "services" / "rules" / "viewer" / "static"

STUB_CARDS = """
export function card(ctx, id, opts = {}) {
  if (!opts.faceDown && !(ctx.catalog.cards || {})[id]) throw new Error("a card the catalog lacks: " + id);
  return ctx.h("span", { "data-card": id }, opts.faceDown ? "?" : ctx.catalog.cards[id].name);
}
export function pile(ctx, label, count) {
  if (typeof count !== "number") throw new Error("a pile without a count: " + label);
  return ctx.h("span", { class: "pile" }, label, " ", String(count));
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
const text = (n) => (typeof n === "object" ? n.children.map(text).join(" ") : String(n));
const cards = (n, out = []) => { if (typeof n === "object") { if (n.attrs["data-card"]) out.push(n.attrs["data-card"]); n.children.forEach((c) => cards(c, out)); } return out; };
const problems = [];
const BAD = /[{}\[\]]|"\w+"\s*:|\bundefined\b|\bnull\b|\bNaN\b|object Object/i;
const say = (s, where) => { if (typeof s !== "string" || !s.trim() || BAD.test(s)) problems.push(`${where}: ${String(s).slice(0, 300)}`); return s; };
const names = ["Ada", "Ben", "Cid", "Dee", "Eve"].slice(0, d.players);
const ctxFor = (seat) => ({ catalog: d.catalog, seat, seatNames: names, h, status: "active" });
const out = { drawn: [], sentences: [], labels: 0 };
for (const smp of d.samples) {
  const ctx = ctxFor(smp.seat);
  const table = game.render(smp.view.state, ctx);
  say(text(table), `render as seat ${smp.seat}`);
  const spectator = game.render(smp.spect.state, ctxFor(null));
  out.drawn.push({ seat: smp.seat, cards: cards(table), text: text(table), spectator: cards(spectator) });
  say(text(spectator), "render as a spectator");
  say(text(game.render(smp.raw, { ...ctxFor(null), status: "finished" })), "render the open state");
  say(game.awaited(smp.view, ctx), "awaited");
  const controls = game.controls(smp.moves, smp.view.state, ctx);
  if (controls.length !== smp.moves.length) problems.push(`controls: ${controls.length} for ${smp.moves.length} moves`);
  controls.forEach((c, i) => {
    if (c.move !== smp.moves[i]) problems.push(`control ${i} is not its move`);
    say(c.group, "control group"); say(c.label, "control label"); out.labels += 1;
  });
}
for (const [key, seat] of [["events_open", null], ["events_seat0", 0], ["events_none", null]]) {
  out.sentences.push(d[key].map((e) => say(game.describe(e, ctxFor(seat)), `${key} ${e.type}`)));
}
say(text(game.render(d.final.state, { ...ctxFor(null), status: "finished" })), "render the end");
out.problems = problems;
console.log(JSON.stringify(out));
"""


def _match(game_id: str, players: int, seed: int, options: dict) -> dict:
    """A seeded random match in the engine: sampled states with their views and legal moves, and
    the whole log as the open log, seat 0 and a spectator see it."""
    game = registry.get(game_id)
    rnd = random.Random(seed)
    events = game.setup(players, game.validate_options(players, options), FastRng(seed))
    state = game.fold(events)
    samples = []
    for n in range(3000):
        if game.outcome(state) is not None:
            break
        to_act = game.to_act(state)
        seat = rnd.choice(to_act)
        moves = game.legal_moves(state, seat)
        if n < 40 or rnd.random() < 0.25:
            samples.append({"seat": seat, "moves": moves,
                            "view": {"state": game.view(state, seat), "to_act": to_act, "seat": seat, "status": "active"},
                            "spect": {"state": game.view(state, None), "to_act": to_act},
                            "raw": json.loads(json.dumps(state)), "hidden": _hidden(game_id, state, seat)})
        for event in game.decide(state, seat, rnd.choice(moves), FastRng(rnd.random())):
            state = game.evolve(state, event)
            events.append(event)
    return {"catalog": of(game), "players": players, "samples": samples, "events_open": events,
            "events_seat0": [{"type": e["type"], "data": game.redact(e, 0)["data"]} for e in events],
            "events_none": [{"type": e["type"], "data": game.redact(e, None)["data"]} for e in events],
            "final": {"state": json.loads(json.dumps(state)), "to_act": [], "status": "finished"}}


def _hidden(game_id: str, state: dict, seat: int) -> list[str]:
    """Cards the seat may not see: the deck, and others' hands and face-down bids."""
    if game_id == "arkon":
        bid = state.get("bid") or {}
        values = (bid.get("commit") or {}).get("values") or {}
        return list(state["deck"]) + [c for i, hand in enumerate(state["hands"]) if i != seat for c in hand] + \
            [c for s, cards in values.items() if int(s) != seat for c in cards]
    return list(state["adventure_deck"]) + list(state["relic_deck"]) + list(state["relics_removed"])


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        pytest.skip("Node.js is not installed (apt-get install -y nodejs)")
    root = tmp_path_factory.mktemp("renderers")
    shutil.copytree(STATIC / "games", root / "static" / "games")
    (root / "static" / "shell").mkdir()
    (root / "static" / "shell" / "cards.js").write_text(STUB_CARDS)
    (root / "package.json").write_text('{"type": "module"}')
    (root / "harness.js").write_text(HARNESS)

    def run(data: dict, game_id: str) -> dict:
        path = root / f"{game_id}-{random.random()}.json"
        path.write_text(json.dumps(data))
        done = subprocess.run([node, "harness.js", str(path), game_id], check=False, cwd=root, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout)
    return run


CASES = [("fellowships-of-fate", 2, 1, {}), ("fellowships-of-fate", 4, 2, {}), ("fellowships-of-fate", 5, 3, {}),
         ("arkon", 2, 1, {}), ("arkon", 3, 2, {"roles": True}), ("arkon", 4, 3, {"roles": True})]


@pytest.mark.parametrize("game_id,players,seed,options", CASES)
def test_every_state_and_event_of_a_match_reads_in_words(harness, game_id, players, seed, options):
    data = _match(game_id, players, seed, options)
    out = harness(data, game_id)
    assert not out["problems"], out["problems"][:10]
    assert out["labels"] > 20 and len(out["sentences"][0]) == len(data["events_open"])
    # a seat's table draws only cards its view holds; a spectator's draws none of any hand or deck
    for sample, drawn in zip(data["samples"], out["drawn"]):
        seen = json.dumps(sample["view"]["state"])
        for card in drawn["cards"]:
            assert f'"{card}"' in seen or card.startswith("journal_"), card
        spect = json.dumps(sample["spect"]["state"])
        assert all(f'"{c}"' in spect or c.startswith("journal_") for c in drawn["spectator"])
        # the deck, other hands, face-down bids: what the view does not hold is never named
        for card in set(sample["hidden"]) - {c for c in data["catalog"]["cards"] if f'"{c}"' in seen}:
            assert data["catalog"]["cards"][card]["name"] not in drawn["text"], card


@pytest.mark.parametrize("game_id,players,seed,options", CASES[:1] + CASES[3:4])
def test_hidden_parts_of_events_are_said_as_hidden(harness, game_id, players, seed, options):
    """A spectator's sentences never name a card that only a private part of the event holds (a
    draw, a face-down bid, a pick); the open log's sentences do name them."""
    data = _match(game_id, players, seed, options)
    out = harness(data, game_id)
    cards = data["catalog"]["cards"]
    said_hidden = named_open = 0
    for event, spectator, opened in zip(data["events_open"], out["sentences"][2], out["sentences"][0]):
        private = {c for part in (event.get("private") or {}).values() for v in part.values()
                   for c in (v if isinstance(v, list) else [v]) if isinstance(c, str) and c in cards}
        only_private = {c for c in private if f'"{c}"' not in json.dumps(event["data"])}
        for card in only_private:
            assert cards[card]["name"] not in spectator, (event["type"], spectator)
            said_hidden += 1
            named_open += cards[card]["name"] in opened
    assert said_hidden > 10 and named_open > 10, (said_hidden, named_open)
