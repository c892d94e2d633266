"""Standard situations shared by the rule tests."""
from __future__ import annotations

from .helpers import at, fresh, place

# 2-player map: 0:[1,3] 1:[0,2,3,4] 2:[1,4,5] 3:[0,1,4,6] 4:[1,2,3,5,6,7] 5:[2,4,7,8] 6:[3,4,7]
# 7:[4,5,6,8] 8:[5,7]; hex 4 is the only inner hex.
T2 = ["lake", "lake", "forest", "forest", "mountain", "mountain", "lake", "forest", "mountain"]
COLUMN_FOR = {"weak": ("moon", ["moon", "blank", "blank"]),
              "standard": ("blank", ["blank", "blank", "blank"]),
              "strong": ("sun", ["sun", "blank", "blank"])}


def two(pop=None, seat=0, tribes=("daba", "kiror"), powers=False, **kw):
    """A 2-player game on map T2, ``seat`` to choose an action."""
    state = fresh(2, terrain=T2, tribes=tribes, powers=powers)
    place(state, pop if pop is not None else {0: {0: 2}, 8: {1: 3}})
    return at(state, seat, **kw)


def action_move(state, action, strength):
    """Arrange the dice so that placing the returned move's face gives ``strength``."""
    face, column = COLUMN_FOR[strength]
    state["dice"][action] = list(column)
    state["turn"]["rolled"] = [face, "blank" if face != "blank" else "sun"]
    return {"type": "act", "action": action, "face": face}
