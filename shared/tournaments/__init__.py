"""The pure side of tournaments (no Flask, no Redis), shared by the matchmaking service and the
offline verifier: pairing (``pairing``), the points scheme (``points``), the log's record format
(``chain``) and the fold of a log into rounds and standings (``fold``); ``verify`` recomputes a
tournament export's standings from its match logs. See docs/tournaments.md."""
