"""Every released rules version stays installed (issue 19, docs/releases.md).

Frozen versions are copies of the game package as the release that introduced the version shipped
it; these tests hold them to that (byte for byte against the commit, where git has it), play each
to its end under today's engine contract, and check that the registry tells versions apart. What
each version *serves* is proved by the golden corpus (tests/golden).
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from shared.engine import registry
from shared.engine.conformance import check_playout
from shared.released.contract import fitted
from shared.rng import SeededRng

ROOT = Path(__file__).resolve().parents[2]
RELEASED = ROOT / "shared" / "released"

# every engine version that has been on main, and the commit whose code it is (issue 19)
RELEASES = {
    ("arkon", "1"): "2c4e00b", ("arkon", "2"): "961d398", ("arkon", "3"): "fbbe737",
    ("arkon", "4"): None,
    ("battlefields-of-olympus", "1"): "2c4e00b", ("battlefields-of-olympus", "2"): "961d398",
    ("battlefields-of-olympus", "3"): None,
    ("fate-of-akalon", "1"): "2c4e00b", ("fate-of-akalon", "2"): "fbbe737", ("fate-of-akalon", "3"): None,
    ("fellowships-of-fate", "1"): "2c4e00b", ("fellowships-of-fate", "2"): "fbbe737",
    ("fellowships-of-fate", "3"): None,
    ("rise-of-tribes", "1"): "2c4e00b", ("rise-of-tribes", "2"): None,
}
FROZEN = sorted(key for key, commit in RELEASES.items() if commit)


def frozen_dirs() -> list[Path]:
    return sorted(p for p in RELEASED.glob("*/v*") if p.is_dir())


def test_every_version_ever_released_is_installed_and_new_matches_get_the_newest():
    installed = {(g.id, g.version) for g in registry.installed() if g.id != "duel"}
    assert installed == set(RELEASES)
    for game_id in {g for g, _ in RELEASES}:
        newest = max((v for g, v in RELEASES if g == game_id), key=int)
        assert registry.get(game_id).version == newest
        assert not registry.get(game_id).frozen
        assert registry.versions(game_id) == sorted((v for g, v in RELEASES if g == game_id), key=int)


@pytest.mark.parametrize("game_id, version", FROZEN, ids=[f"{g}-v{v}" for g, v in FROZEN])
def test_a_frozen_version_names_the_release_it_was_frozen_from(game_id, version):
    game = registry.get(game_id, version)
    assert game.frozen and game.release == RELEASES[(game_id, version)]
    assert type(game).__module__.startswith("shared.released.")


def _git_has(commit: str) -> bool:
    probe = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True)
    return probe.returncode == 0


@pytest.mark.parametrize("folder", frozen_dirs(), ids=lambda p: f"{p.parent.name}-{p.name}")
def test_a_frozen_copy_is_its_release_byte_for_byte_but_for_the_climbing_imports(folder):
    glue = (folder / "__init__.py").read_text()
    commit = re.search(r"frozen from commit (\w+)", glue).group(1)
    if not _git_has(commit):  # a shallow clone: the corpus (tests/golden) still proves the behaviour
        pytest.skip(f"this clone does not have commit {commit}")
    package = folder.parent.name
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", commit, f"shared/games/{package}/"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.split()
    copied = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts)
    originals = sorted(Path(p).relative_to(f"shared/games/{package}").as_posix() for p in listed)
    assert copied == sorted(set(originals) | {"ORIGINAL_INIT.py.txt"})
    for rel in originals:
        original = subprocess.run(["git", "show", f"{commit}:shared/games/{package}/{rel}"], cwd=ROOT,
                                  check=True, capture_output=True).stdout
        if rel == "__init__.py":
            assert (folder / "ORIGINAL_INIT.py.txt").read_bytes() == original
            continue
        frozen = (folder / rel).read_bytes()
        if rel.endswith(".py"):
            original = re.sub(rb"^(\s*)from \.\.\.(\w)", rb"\1from shared.\2", original, flags=re.M)
        assert frozen == original, f"{folder.name}/{rel} differs from {commit}: frozen code is never edited"


@pytest.mark.parametrize("game_id, version", FROZEN, ids=[f"{g}-v{v}" for g, v in FROZEN])
def test_a_frozen_version_plays_to_its_end_at_every_player_count_under_todays_contract(game_id, version):
    game = registry.get(game_id, version)
    for players in range(game.min_players, game.max_players + 1):
        result = check_playout(game, players, seed=players, max_steps=5000, full_check_every=11)
        assert game.outcome(result.state) is not None
        assert game.seat_count(result.state) == players
        assert sorted(s for side in game.sides(result.state) for s in side) == list(range(players))


def test_fingerprints_tell_every_installed_version_apart():
    prints = {registry.fingerprint(g) for g in registry.installed()}
    assert len(prints) == len(registry.installed())


def test_an_uninstalled_version_is_a_clear_error_naming_the_game_and_the_installed_versions():
    with pytest.raises(registry.NotInstalled) as err:
        registry.get("arkon", "99")
    assert isinstance(err.value, KeyError)
    assert str(err.value) == "game 'arkon' at engine '99' is not installed here (installed: '1', '2', '3', '4')"
    with pytest.raises(registry.NotInstalled, match="game 'no-such-game' is not installed"):
        registry.get("no-such-game")


def test_fitting_adds_only_what_the_contract_lacks_and_refuses_a_wrong_version():
    from shared.released import install

    v1 = registry.get("rise-of-tribes", "1")
    v2 = registry.get("rise-of-tribes", "2")
    assert "seat_count" in vars(type(v1)) and "seat_count" not in vars(type(registry.get("arkon", "2")))
    for name in ("legal_moves", "play", "view", "redact", "outcome", "determinize", "heuristic", "apply"):
        assert name not in vars(type(v1)), f"fitting must not replace {name}"
    assert type(v2).__module__.startswith("shared.games.")
    fitted_to_act = {(g.id, g.version) for g in registry.installed() if g.frozen and "to_act" in vars(type(g))}
    assert fitted_to_act == {("arkon", "1")}, "only where the release could not say who acts inside a move"
    original = type(v1).__mro__[1]  # the frozen class itself, as its release wrote it
    with pytest.raises(ValueError, match="frozen as version '7'"):
        install(original, version="7", release="x")
    state = v1.fold(v1.setup(3, v1.validate_options(3, {}), SeededRng(b"s", "setup")))
    assert fitted(original, "2c4e00b")().seat_count(state) == 3
