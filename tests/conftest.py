import os

os.environ.setdefault("GAME_MODULES", "tests.support.duel")
# Every service a test builds reads a token's generation on each request, so a rotation is seen at
# once wherever the test looks; the cache's bound (1 s deployed) is tested with explicit values
# (tests/test_token_generation_cache.py, test_store_round_trips.py) and the benchmarks set it.
os.environ.setdefault("TOKEN_GENERATION_CACHE_S", "0")
pytest_plugins = ["tests.support.fixtures"]
