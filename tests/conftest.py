import os

import pytest

from tests.support import schedule

os.environ.setdefault("GAME_MODULES", "tests.support.duel")
# Every service a test builds reads a token's generation on each request, so a rotation is seen at
# once wherever the test looks; the cache's bound (1 s deployed) is tested with explicit values
# (tests/test_token_generation_cache.py, test_store_round_trips.py) and the benchmarks set it.
os.environ.setdefault("TOKEN_GENERATION_CACHE_S", "0")
pytest_plugins = ["tests.support.fixtures"]

_DURATIONS = pytest.StashKey[dict]()


def pytest_configure(config):
    config.stash[_DURATIONS] = schedule.known_durations()
    if config.stash[_DURATIONS] and hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # xdist deals the files in this order, not by test count


def pytest_collection_modifyitems(session, config, items):
    """The longest files first, so that ``--dist loadfile`` deals them first (tests/support/schedule.py)."""
    schedule.longest_files_first(items, config.stash[_DURATIONS])
