"""What lines of the cache files parsed to, kept in this process.

A rebuild in the same process (`pnp build --watch`, the server's preview) reads the same cache
lines again: the face index's (pnp.facecache) and the PDF streams' (pnp.sheets.pdfparts), about
3,000 of them for a 950-card pack. A line's value is a function of its text alone, so the value
parsed before is given back when the line under the same key reads exactly as it did. The text is
compared whole rather than hashed: equal texts are usually the very same string object read from
the file and compared at once, and hashing every line would cost about a megabyte's digest a
rebuild.

Values are shared by every build of the process: callers treat them as read-only. Each table is
bounded by the characters of text it keeps, the oldest dropped first, and is never written to
disk (the cache folder is one anyone may write to). Builds in threads (the server) share a table
under its lock.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class KeptParses(Generic[T]):
    """Values `parse` made of texts, by their line's key; at most `limit` characters of text."""

    def __init__(self, parse: Callable[[str], T | None], limit: int):
        self.parse = parse
        self.limit = limit
        self.size = 0                                    # characters of text kept
        self._kept: dict[str, tuple[str, T]] = {}        # key -> (its text, what it parsed to)
        self._lock = threading.Lock()

    def get(self, key: str, text: str) -> T | None:
        """What `text`, the line of `key`, parses to: kept when it read the same before, parsed
        (and kept) otherwise; None when it is not a value (never kept)."""
        found = self._kept.get(key)
        if found is not None and found[0] == text:
            return found[1]
        value = self.parse(text)
        if value is not None:
            self.keep(key, text, value)
        return value

    def keep(self, key: str, text: str, value: T) -> None:
        """Keep `value` as what `text` (the line of `key`) parses to, in place of what the key
        kept; the oldest dropped while more than `limit` characters are kept."""
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self.size -= len(old[0])
            self._kept[key] = (text, value)
            self.size += len(text)
            while self.size > self.limit and self._kept:
                self.size -= len(self._kept.pop(next(iter(self._kept)))[0])

    def keys(self) -> list[str]:
        """The keys kept, oldest first."""
        return list(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.size = 0
