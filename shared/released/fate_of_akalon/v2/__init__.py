"""Fate of Akalon: Tribes rules, engine version "2", frozen from commit fbbe737 (see docs/releases.md).

Everything in this package except this file is that commit's ``shared/games/fate_of_akalon/``, byte for
byte but for imports that climb out of the package; do not edit it: a change to these rules is a new
engine version.
"""
from shared.released import install

from .game import FateOfAkalon

GAME = install(FateOfAkalon, version="2", release="fbbe737")
