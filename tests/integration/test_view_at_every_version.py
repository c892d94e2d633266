"""``view?at=N`` answers for every N of every game: random matches of all five games, played
through ``Matches`` on a real Redis, viewed at every version by every seat and a spectator —
while the match is on (each seat's hidden view) and once it is over (the open view)."""
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from shared.canonical import dumps
from shared.engine import registry
from shared.eventstore import EventStore
from shared.matches import Matches

GAMES = ["fate-of-akalon", "battlefields-of-olympus", "rise-of-tribes", "fellowships-of-fate", "arkon"]
MAX_MOVES = 3000  # random play ends every game well before this; a longer match is still checked


def _check_views(matches, match_id, versions, viewers):
    for version in versions:
        for seat in viewers:
            try:
                out = matches.view(match_id, seat, at=version)
            except Exception as err:
                records = matches.store.read(match_id, after=max(0, version - 3), until=version + 1)
                raise AssertionError(
                    f"view at version {version} for seat {seat} failed ({type(err).__name__}: {err}); events "
                    f"around it: {[(r['seq'], r['type']) for r in records]}") from err
            assert out["version"] == version
            dumps(out)  # plain JSON


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_version_of_a_random_match_can_be_viewed(r, game_id):
    game = registry.get(game_id)

    @settings(max_examples=2, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))  # no shrinking: a seed does not shrink usefully
    @given(seed=st.integers(0, 2**32 - 1), players=st.integers(game.min_players, game.max_players))
    def check(seed, players):
        r.flushdb()
        matches = Matches(EventStore(r), snapshot_every=50)
        rnd = random.Random(seed)
        match_id = f"{game_id}-{seed}"
        mstate = matches.create(match_id, game_id, {}, [{"player_id": f"p{i}"} for i in range(players)])
        viewers = [None, *range(players)]
        _check_views(matches, match_id, range(1, mstate["version"] + 1), viewers)
        for _ in range(MAX_MOVES):
            if mstate["status"] != "active":
                break
            seat = rnd.choice(Matches.to_act(mstate))
            move = rnd.choice(game.legal_moves(mstate["game"], seat))
            before = mstate["version"]
            mstate = matches.submit(match_id, seat, move, before).state
            if mstate["status"] == "active":  # hidden views of every event of this move
                _check_views(matches, match_id, range(before + 1, mstate["version"] + 1), viewers)
        _check_views(matches, match_id, range(1, mstate["version"] + 1), [None])  # open views, match over

    check()
