"""Record the golden corpus of one release: finished matches played through that release's own
``Matches``, with the raw stored keys and digests of everything it served.

Run it with the release's checkout as the import root (the script imports nothing of its own
checkout), e.g.::

    cd /tmp/r1 && PYTHONPATH=/tmp/r1 /work/main/.venv/bin/python \\
        /path/to/scripts/golden/record.py --out /path/to/tests/golden/corpus/2c4e00b

It only uses APIs present in every release since 2c4e00b: ``shared.matches.Matches`` (create,
submit, state, view, legal_moves, events, summary, seats_out, to_act, audit),
``shared.eventstore.store.EventStore``, ``shared.engine.registry`` (``all_games``),
``shared.localredis.start`` and ``shared.canonical.encode``; ``shared.export`` and
``shared.verify`` are used when the release has them.

For every game, every player count and a few option variants it plays one complete match on a
private ``redis-server`` (moves chosen by a seeded chooser among the legal moves of the seats to
act), then writes ``<game>-<players>p[-<variant>].json.gz`` holding:

* ``raw``: every key of the match as the store left it (strings, hashes, the stream's entries,
  sorted sets), values verbatim, so the log can be put back byte for byte — except that the log's
  entries leave out the three chain digests, which ``layout.restore_entries`` recomputes (checked
  against ``log_sha256`` of the original entries);
* ``digests``: sha256 (first 12 hex digits) of the canonical JSON of what the release served —
  the view of every seat and of the spectator at every version (``live``: served when that
  version was the head; ``after_end``: ``view(at=v)`` once the match is over, one digest of
  every viewer's view together, since all see everything by then), to_act at every
  version, legal moves of every seat, the redacted event log per viewer and the summary at a
  sample of the head versions (those the log stood at between two appends: every 7th, the first
  and the last 5), the final summary, the audit, the export;
* ``idempotent``: moves posted with an Idempotency-Key and the digest of the stored answer a
  retry got.

The match seed is derived from the match id and the clock is a counter, so running the recorder
twice on one release gives the same files.
"""
from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

import shared.matches as matches_mod
from shared import localredis
from shared.canonical import encode
from shared.engine import registry
from shared.eventstore.store import EventStore
from shared.matches import Matches

sys.path.insert(0, str(Path(__file__).resolve().parent))
import layout  # noqa: E402  (beside this script: the corpus format, no import of this checkout)

FORMAT = 1
DIGEST_HEX = layout.DIGEST_HEX
MAX_MOVES = 1200  # a match still on after this many moves is played again with another chooser
ATTEMPTS = 4
IDEMPOTENT_MOVES = (0, 1, 5)  # move indices posted with an Idempotency-Key
# Option variants that change the rules: (variant name, player count, options), when the game has them.
# Options may be a list of alternatives, one per option layout a version had: the first that the
# checkout's game accepts is recorded (Arkon 4 lists its promotional cards; 1-3 took a boolean).
VARIANTS = {
    "arkon": [("promo-roles", 3, [{"promo_cards": ["reinforcements", "savin"], "roles": True},
                                  {"promo_cards": True, "roles": True}]),
              ("savin", 2, [{"promo_cards": ["savin"]}])],
    "battlefields-of-olympus": [("target12", 2, {"target_points": 12})],
    "fate-of-akalon": [("factions", 3, {"factions": ["elf", "dwarf", "undead"]})],
    "fellowships-of-fate": [("seat0", 3, {"starting_player": "seat0"})],
    "rise-of-tribes": [("tribal", 3, {"tribal_powers": True})],
}
# Moves a random player would loop on (pick then unpick): rarely chosen.
UNDO_WORDS = ("undo", "unpick", "unselect", "deselect", "cancel", "back", "reset", "retract", "unassign",
              "remove_pick")


def digest(value) -> str:
    return hashlib.sha256(encode(value)).hexdigest()[:DIGEST_HEX]


def release_commit(root: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except Exception:
        return "unknown"


class CounterClock:
    """A deterministic clock: every reading is a quarter of a second after the previous one."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.t = start

    def __call__(self) -> float:
        self.t += 0.25
        return self.t


class DeterministicSecrets:
    """Stands in for ``secrets`` inside ``shared.matches``: the match seed comes from the match id."""

    def __init__(self):
        self.match_id = ""
        import secrets as real

        self._real = real

    def token_bytes(self, n: int = 32) -> bytes:
        return hashlib.sha256(f"golden-corpus-seed:{self.match_id}".encode()).digest()[:n]

    def __getattr__(self, name):
        return getattr(self._real, name)


def _text(raw: bytes):
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(raw).decode()}


def dump_keys(r: redis.Redis, match_id: str) -> dict:
    """Every key of the match, by name: its type, its value verbatim and its time to live."""
    out = {}
    for key in sorted(r.scan_iter(match=f"{{m:{match_id}}}*", count=1000)):
        name = key.decode()
        kind = r.type(key).decode()
        if kind == "string":
            value = _text(r.get(key))
        elif kind == "hash":
            value = {k.decode(): _text(v) for k, v in sorted(r.hgetall(key).items())}
        elif kind == "stream":
            value = [[eid.decode(), {k.decode(): _text(v) for k, v in fields.items()}]
                     for eid, fields in r.xrange(key, "-", "+")]
        elif kind == "zset":
            value = [[_text(m), s] for m, s in r.zrange(key, 0, -1, withscores=True)]
        elif kind == "set":
            value = sorted(_text(m) for m in r.smembers(key))
        elif kind == "list":
            value = [_text(m) for m in r.lrange(key, 0, -1)]
        else:
            raise RuntimeError(f"key {name}: type {kind} not handled")
        entry = {"type": kind, "value": value}
        ttl = r.ttl(key)
        if ttl is not None and ttl >= 0:  # in whole minutes, rounded up: the same on every run
            entry["ttl_s"] = -(-ttl // 60) * 60
        out[name] = entry
    return out


def shrink_log(raw: dict, match_id: str) -> None:
    """Drop the chain digests from the log's entries (``layout.strip_entries``), in place."""
    log = raw[f"{{m:{match_id}}}:log"]
    seed = bytes.fromhex(raw[f"{{m:{match_id}}}:seed"]["value"])
    texts = [fields["e"] for _id, fields in log["value"]]
    assert all(set(fields) == {"e"} for _id, fields in log["value"])
    stripped = layout.strip_entries(texts, seed)
    assert layout.restore_entries(stripped, seed) == texts
    log["log_sha256"] = layout.log_sha256(texts)
    log["chain_digests"] = "stripped (layout.restore_entries)"
    for entry, text in zip(log["value"], stripped):
        entry[1]["e"] = text


def move_weight(move) -> float:
    text = json.dumps(move).lower()
    return 0.03 if any(w in text for w in UNDO_WORDS) else 1.0


class TooLong(Exception):
    pass


def play(m: Matches, match_id: str, rng: random.Random,
         resign: tuple[int, int] | None) -> tuple[int, list[dict], list[int]]:
    """Play the match to its end; returns (moves made, the idempotent moves with their answers,
    the versions the log stood at between appends: the heads that legal moves were served at)."""
    idempotent = []
    moves_made = 0
    bots: set[int] = set()
    heads = []
    while True:
        st = m.state(match_id)
        heads.append(st["version"])
        if st["status"] != "active":
            return moves_made, idempotent, heads
        if moves_made >= MAX_MOVES:
            raise TooLong(f"no end after {MAX_MOVES} moves (version {st['version']})")
        if resign is not None and moves_made == resign[1]:
            m.resign(match_id, resign[0])
            bots.add(resign[0])
            resign = None
            continue
        acting = Matches.to_act(st)
        if not acting:
            raise RuntimeError(f"active match with nobody to act at version {st['version']}")
        seat = rng.choice(sorted(acting))
        legal = m.legal_moves(match_id, seat, head=st)["moves"]
        if not legal:
            raise RuntimeError(f"seat {seat} to act with no legal move at version {st['version']}")
        move = rng.choices(legal, weights=[move_weight(x) for x in legal])[0]
        key = f"golden-{moves_made}" if moves_made in IDEMPOTENT_MOVES else None
        expected = st["version"]
        done = m.submit(match_id, seat, move, expected, key, as_bot=seat in bots)
        if key is not None:
            again = m.submit(match_id, seat, move, expected, key, as_bot=seat in bots)
            assert again.replayed and again.body() == done.body(), "an idempotent retry got another answer"
            idempotent.append({"seat": seat, "key": key, "move": move, "expected_version": expected,
                               "as_bot": seat in bots, "answer": digest(again.body())})
        moves_made += 1


def served_view(m: Matches, match_id: str, viewer, head: dict, at=None) -> dict:
    """What ``GET /view`` serves (the rules endpoint adds the head's seats)."""
    out = m.view(match_id, viewer, at, head=head)
    out["seats"] = Matches.seats_out(head)
    return out


def served(answer, unserved: list, version: int, what: str):
    """``answer()``, or None when the release failed to serve it (an exception: a 500). Only
    versions inside one append (never a head) have been seen to fail: Arkon 1 cannot say who acts
    half-way through a batch of events."""
    try:
        return answer()
    except Exception as err:
        unserved.append([version, what, f"{type(err).__name__}: {err}"])
        return None


def sample_heads(heads: list[int]) -> list[int]:
    """Every 7th head version, the first and the last 5."""
    return sorted({v for i, v in enumerate(heads) if i % 7 == 0 or i >= len(heads) - 5})


def record_digests(m: Matches, store: EventStore, match_id: str, heads: list[int]) -> dict:
    final = m.state(match_id)
    n = final["version"]
    seats = list(range(len(final["seats"])))
    viewers = [None] + seats
    samples = set(sample_heads(heads))
    to_act, live, after_end, legal, events, summaries = [], [], [], {}, {}, {}
    unserved = []
    for v in range(1, n + 1):
        st = m.state(match_id, at=v)
        to_act.append(served(lambda: Matches.to_act(st), unserved, v, "to_act"))
        live.append([served(lambda: digest(served_view(m, match_id, w, st)), unserved, v, f"view of {w}")
                     for w in viewers])
        after_end.append(served(lambda: digest([served_view(m, match_id, w, final, at=v) for w in viewers]),
                                unserved, v, "views after the end"))
        if v in samples:
            legal[str(v)] = [digest(layout.legal_moves_digested(m.legal_moves(match_id, s, head=st))) for s in seats]
            events[str(v)] = [digest(m.events(match_id, w, after=0, limit=v, head=st)) for w in viewers]
            summaries[str(v)] = digest(m.summary(st))
    out = {
        "unserved": unserved, "viewers": viewers, "versions": n, "heads": heads,
        "sampled_versions": sorted(samples), "to_act": to_act,
        "view_live": live, "view_after_end": after_end, "legal_moves": legal, "events": events,
        "summary_at": summaries, "summary": digest(m.summary(final)),
        "events_after_end": [digest(m.events(match_id, w, after=0, limit=n + 1, head=final))
                             for w in viewers],
    }
    audit = m.audit(match_id)
    out["audit"] = digest(audit)
    out["audit_value"] = audit
    try:
        from shared.export import export_match
    except ImportError:
        export_match = None
    if export_match is not None:
        data = b"".join(export_match(store, match_id))
        out["export"] = hashlib.sha256(data).hexdigest()
        try:
            from shared.verify import verify_lines
        except ImportError:
            verify_lines = None
        if verify_lines is not None:
            report = verify_lines(data.splitlines())
            out["verify_ok"] = report.ok
    return out


def accepted(game, players: int, alternatives: list[dict]) -> dict | None:
    """The first of ``alternatives`` the game's options schema accepts (None: none is)."""
    for options in alternatives:
        try:
            game.validate_options(players, options)
        except ValueError:
            continue
        return options
    return None


def specs(only: set[str] | None):
    for game in registry.all_games():
        if not type(game).__module__.startswith("shared.games."):
            continue
        described = game.describe().get("options", {})
        runs = [(p, None, {}, None) for p in range(game.min_players, game.max_players + 1)]
        for name, players, alternatives in VARIANTS.get(game.id, []):
            options = accepted(game, players, alternatives if isinstance(alternatives, list) else [alternatives])
            if options is not None and set(options) <= set(described) and game.min_players <= players <= game.max_players:
                runs.append((players, name, options, None))
        if game.max_players >= 3:  # one match where a seat resigns (a bot plays it from then on)
            runs.append((3, "resign", {}, (1, 12)))
        for players, variant, options, resign in runs:
            name = f"{game.id}-{players}p" + (f"-{variant}" if variant else "")
            if only and not any(name.startswith(o) for o in only):
                continue
            yield game, players, variant, options, resign, name


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="directory for the corpus files")
    ap.add_argument("--only", nargs="*", help="names (prefixes) of the matches to record")
    args = ap.parse_args(argv)
    root = Path(matches_mod.__file__).resolve().parent.parent
    commit = release_commit(root)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    det = DeterministicSecrets()
    matches_mod.secrets = det
    failures = []
    with tempfile.TemporaryDirectory(prefix="golden-redis-") as tmp:
        server = localredis.start(tmp)
        try:
            client = redis.Redis.from_url(server.url)
            for game, players, variant, options, resign, name in specs(set(args.only) if args.only else None):
                t0 = time.time()
                match_id = f"golden-{name}"
                det.match_id = match_id
                store = EventStore(client)
                m = Matches(store, snapshot_every=50, clock=CounterClock())
                seats = [{"player_id": f"golden-player-{i}"} for i in range(players)]
                try:
                    for attempt in range(ATTEMPTS):
                        m = Matches(store, snapshot_every=50, clock=CounterClock())
                        m.create(match_id, game.id, options, seats)
                        chooser = f"golden:{name}" + (f":{attempt}" if attempt else "")
                        try:
                            moves, idempotent, heads = play(m, match_id, random.Random(chooser), resign)
                            break
                        except TooLong as err:
                            print(f"{name}: {err}; again with another chooser", flush=True)
                            client.delete(*client.keys(f"{{m:{match_id}}}*"))
                    else:
                        raise TooLong(f"no end after {MAX_MOVES} moves with {ATTEMPTS} choosers")
                    raw = dump_keys(client, match_id)
                    shrink_log(raw, match_id)
                    m.forget(match_id)
                    digests = record_digests(m, store, match_id, heads)
                except Exception as err:
                    failures.append(f"{name}: {type(err).__name__}: {err}")
                    print(f"SKIPPED {name}: {type(err).__name__}: {err}", flush=True)
                    client.delete(*client.keys(f"{{m:{match_id}}}*") or ["-"])
                    continue
                final = m.state(match_id)
                doc = {
                    "format": FORMAT, "release": commit, "game": game.id, "engine": final["engine"],
                    "players": players, "variant": variant, "options": options, "match_id": match_id,
                    "status": final["status"], "moves": moves, "resign": resign, "chooser": chooser,
                    "snapshot_every": 50,
                    "digest": f"sha256, first {DIGEST_HEX} hex digits of the canonical JSON",
                    "raw": raw, "idempotent": idempotent, "digests": digests,
                }
                path = out_dir / f"{name}.json.gz"
                with gzip.GzipFile(path, "wb", compresslevel=9, mtime=0) as f:
                    f.write(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode())
                print(f"{name}: engine {final['engine']}, {moves} moves, {final['version']} events, "
                      f"{final['status']}, {path.stat().st_size // 1024} KB, {time.time() - t0:.1f} s",
                      flush=True)
                client.delete(*client.keys(f"{{m:{match_id}}}*"))
        finally:
            server.stop()
    for f in failures:
        print("FAILED", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
