"""The four phases of a turn, in order.

``action1`` and ``action2`` allow action cards (one at a time), ``bidding`` clans up for bid, and
``draw`` is the Universal Draw, played automatically before the next player's turn starts.
"""

NEXT_PHASE = {"action1": "bidding", "bidding": "action2", "action2": "draw"}
ACTION_PHASES = ("action1", "action2")
