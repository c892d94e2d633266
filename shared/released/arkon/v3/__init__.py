"""Arkon rules, engine version "3", frozen from commit fbbe737 (see docs/releases.md).

Everything in this package except this file is that commit's ``shared/games/arkon/``, byte for
byte but for imports that climb out of the package; do not edit it: a change to these rules is a new
engine version.
"""
from shared.released import install

from .game import Arkon

GAME = install(Arkon, version="3", release="fbbe737")
