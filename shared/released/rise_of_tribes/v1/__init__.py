"""Rise of Tribes rules, engine version "1", frozen from commit 2c4e00b (see docs/releases.md).

Everything in this package except this file is that commit's ``shared/games/rise_of_tribes/``, byte for
byte but for imports that climb out of the package; do not edit it: a change to these rules is a new
engine version.
"""
from shared.released import install

from .game import RiseOfTribes

GAME = install(RiseOfTribes, version="1", release="2c4e00b")
