"""Errors a game raises to reject a move."""


class IllegalMove(Exception):
    """The move is not legal now; ``reason`` says why in words a client can act on."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
