"""Tournaments: Swiss, round robin and arena events run over ordinary matches (docs/tournaments.md).

``pairing`` holds the pure pairing functions, ``points`` the scoring scheme, ``fold`` derives a
tournament's rounds and standings from its own hash-chained log (``log``); ``service`` is the
Redis-backed side the API and the consumer use."""
