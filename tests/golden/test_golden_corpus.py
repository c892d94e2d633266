"""The golden corpus: every released engine version still replays, audits and verifies exactly as
the release that introduced it served it (``tests/golden/corpus/README.md``).

Each corpus file is a finished match recorded by a release through its own ``Matches``. It is put
back into a fresh Redis (``loader.put_back``, converting keys whose layout changed since), then this
checkout's ``Matches`` must serve the same digests at every version — views of every seat and of
the spectator, who is to act, legal moves, redacted logs, summaries, the audit, the stored
Idempotency-Key answers — and its export must pass the offline verifier.

A failure here means a change altered the replay of a released version: the fix is a new engine
version (the old one kept installed), never an edited corpus.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import redis

from shared.engine import registry
from shared.eventstore.store import EventStore
from shared.matches import Matches

from . import loader, replay

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(CORPUS.glob("*/*.json.gz"))


def corpus_id(path: Path) -> str:
    return f"{path.parent.name}-{path.name.removesuffix('.json.gz')}"


def registered_versions() -> set[tuple[str, str]]:
    """Every (game, engine version) installed, the test-only games (``GAME_MODULES``) left out."""
    registry.load_all()
    games = registry.installed()
    return {(g.id, g.version) for g in games if not type(g).__module__.startswith("tests.")}


_docs: dict[Path, dict] = {}


def doc_of(path: Path) -> dict:
    if path not in _docs:
        _docs[path] = loader.read(path)
    return _docs[path]


def loaded(path: Path, redis_url: str) -> tuple[Matches, EventStore, dict, list[str]]:
    doc = doc_of(path)
    client = redis.Redis.from_url(redis_url)
    notes = loader.put_back(client, doc)
    store = EventStore(client)
    return Matches(store, snapshot_every=doc["snapshot_every"]), store, doc, notes


def test_the_corpus_has_files():
    assert FILES, f"no corpus files under {CORPUS}"


def test_every_installed_engine_version_has_a_corpus_match():
    covered = {(doc_of(p)["game"], doc_of(p)["engine"]) for p in FILES}
    missing = sorted(registered_versions() - covered)
    assert not missing, (
        f"installed engine versions without a golden match: {missing}; record them with "
        f"scripts/golden/record.py from the release that introduces them (tests/golden/corpus/README.md)")


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_corpus_match_engine_version_is_installed(path):
    doc = doc_of(path)
    assert (doc["game"], doc["engine"]) in registered_versions(), (
        f"{corpus_id(path)}: {doc['game']} engine {doc['engine']} (recorded by {doc['release'][:7]}) "
        f"is not installed "
        f"any more; a released engine version stays installed for ever")


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_corpus_match_replays_as_the_release_served_it(path, redis_url):
    _m, _store, doc, _notes = loaded(path, redis_url)
    m = Matches(EventStore(replay.ReplayRedis.from_url(redis_url)), snapshot_every=doc["snapshot_every"])
    found = replay.differences(m, doc)
    assert not found, replay.report(doc, found)


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_corpus_match_export_verifies_offline(path, redis_url):
    from shared.export import export_match
    from shared.verify import verify_lines

    _m, store, doc, _notes = loaded(path, redis_url)
    data = b"".join(export_match(store, doc["match_id"]))
    report = verify_lines(data.splitlines())
    assert report.ok, f"{corpus_id(path)}: the offline verifier says:\n" + "\n".join(report.lines())
    if "export" in doc["digests"]:  # the release had an export: the file is byte for byte the same
        assert hashlib.sha256(data).hexdigest() == doc["digests"]["export"], (
            f"{corpus_id(path)}: the export is not byte for byte the one the release served")


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_corpus_match_compacted_exports_the_same_file(path, redis_url):
    """Compaction of the release's log (by this checkout) changes nothing a reader gets."""
    from shared.eventstore.compaction import COMPACTED, Compactor
    from shared.export import export_match

    _m, store, doc, _notes = loaded(path, redis_url)
    before = b"".join(export_match(store, doc["match_id"]))
    assert Compactor(store).compact(doc["match_id"]) == COMPACTED
    fresh = EventStore(redis.Redis.from_url(redis_url))
    assert not fresh.read_stream(doc["match_id"])
    assert b"".join(export_match(fresh, doc["match_id"])) == before, f"{corpus_id(path)}: compaction changed the log"


@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_corpus_match_loads_back_byte_for_byte(path, redis_url):
    """The loader rebuilds the release's log exactly, and names every layout conversion it made."""
    _m, store, doc, notes = loaded(path, redis_url)
    records = store.read(doc["match_id"])
    assert len(records) == doc["digests"]["versions"]
    assert records[-1]["hash"] == doc["raw"][f"{{m:{doc['match_id']}}}:meta"]["value"]["head_hash"]
    for note in notes:
        print(f"{corpus_id(path)}: converted {note}")


def _first_file_per_undoing_version() -> list[Path]:
    """One corpus match of each installed version that declares moves that only undo."""
    registry.load_all()
    out: dict[tuple[str, str], Path] = {}
    for path in FILES:
        doc = doc_of(path)
        key = (doc["game"], doc["engine"])
        if key in registered_versions() and registry.get(*key).undoing_moves and key not in out:
            out[key] = path
    return list(out.values())


@pytest.mark.parametrize("path", _first_file_per_undoing_version(), ids=corpus_id)
def test_corpus_match_of_an_older_version_marks_its_unpick_moves_as_undoing(path, redis_url):
    """A released version's legal moves are served as released, and beside them ``undoing`` names
    exactly its moves that only take back a step (issue 25), never every move of a seat."""
    m, _store, doc, _ = loaded(path, redis_url)
    marked = 0
    for v in sorted(doc["digests"]["sampled_versions"]):  # heads legal moves were served at
        st = m.state(doc["match_id"], at=v)
        for seat in Matches.to_act(st):
            answer = m.legal_moves(doc["match_id"], seat, head=st)
            assert answer["undoing"] == [i for i, mv in enumerate(answer["moves"]) if mv["type"] == "unpick"], v
            assert len(answer["undoing"]) < len(answer["moves"]), v
            marked += bool(answer["undoing"])
    assert marked, f"{corpus_id(path)}: no version offered a move that only undoes"
