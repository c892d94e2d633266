"""Fellowships of Fate rules, engine version "2", frozen from commit fbbe737 (see docs/releases.md).

Everything in this package except this file is that commit's ``shared/games/fellowships_of_fate/``, byte for
byte but for imports that climb out of the package; do not edit it: a change to these rules is a new
engine version.
"""
from shared.released import install

from .game import FellowshipsOfFate

GAME = install(FellowshipsOfFate, version="2", release="fbbe737")
