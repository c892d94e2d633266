"""The event store: one Redis stream per match, appended atomically, hash-chained."""
from .chain import GENESIS, hash_record, verify_chain
from .store import AppendResult, Conflict, EventStore

__all__ = ["AppendResult", "Conflict", "EventStore", "GENESIS", "hash_record", "verify_chain"]
