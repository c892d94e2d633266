"""Tournaments in the matchmaking service (docs/tournaments.md): the Redis-backed log (``log``),
the service the API and the consumer use (``service``), the routes (``routes``). The pure side —
pairing, points, the fold into rounds and standings — is ``shared.tournaments``."""
