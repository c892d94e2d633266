"""Every move of a live version's golden corpus, decided again: the live rules must answer each
recorded move with exactly the events the release appended for it (issue 23).

The corpus test (``test_golden_corpus.py``) replays logs, folding the recorded events; it cannot
see a change to what ``decide`` emits — an event's field renamed, a value computed differently —
as long as the fold reads the same. Here each recorded move (a record's ``cause``) is posted again
to the live engine on the state folded so far, with the generator the release used (the match's
seed keyed by the version the move was made at), and its events are compared with the log.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.engine import registry
from shared.envelope import event_core
from shared.rng import SeededRng

from . import loader

CORPUS = Path(__file__).parent / "corpus"


def _live(path: Path) -> bool:
    doc = loader.read(path)
    try:
        return registry.get(doc["game"]).version == doc["engine"]
    except KeyError:
        return False


LIVE_FILES = [p for p in sorted(CORPUS.glob("*/*.json.gz")) if _live(p)]


def _records(doc: dict) -> list[dict]:
    log = next(v for k, v in doc["raw"].items() if k.endswith(":log"))["value"]
    return [json.loads(fields["e"]) for _id, fields in log]


def _appends(records: list[dict]) -> list[list[dict]]:
    """The log cut into appends: each starts with the record that names its cause."""
    out: list[list[dict]] = []
    for rec in records:
        if rec.get("cause") is not None or not out:
            out.append([rec])
        else:
            out[-1].append(rec)
    return out


@pytest.mark.parametrize("path", LIVE_FILES, ids=lambda p: f"{p.parent.name}-{p.name.removesuffix('.json.gz')}")
def test_the_live_rules_decide_every_recorded_move_as_the_release_did(path):
    doc = loader.read(path)
    game = registry.get(doc["game"], doc["engine"])
    seed = bytes.fromhex(next(v for k, v in doc["raw"].items() if k.endswith(":seed"))["value"])
    state = None
    decided = 0
    for append in _appends(_records(doc)):
        own = [event_core(r) for r in append if not r["type"].startswith("match.")]
        cause = append[0].get("cause") or {}
        if "move" in cause:
            version = append[0]["seq"] - 1  # the head the move was posted against
            events = game.decide(state, cause["seat"], cause["move"], SeededRng(seed, version))
            assert [event_core(e) for e in events] == own, f"the move at version {version} decides otherwise"
            decided += 1
        state = game.fold(own, state) if own else state
    assert decided >= 10 and game.outcome(state) is not None
