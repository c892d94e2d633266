import os

os.environ.setdefault("GAME_MODULES", "tests.support.duel")
pytest_plugins = ["tests.support.fixtures"]
