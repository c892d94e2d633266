"""Tuning runs of the search bots' parameters: experiments whose numbers are not published (the
benchmarks, which ``make bench`` runs and ``docs/benchmarks.md`` records, are in ``bench/``).
Each is run by hand, e.g. ``python -m bench.tuning.search_arkon_tune --params '{...}'``."""
