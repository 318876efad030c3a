"""How pnp handles Python's cyclic garbage collector around its two heavy phases.

Importing the build's modules and drawing a build both make many objects and next to no cyclic
garbage (a face's drawing, a PDF stream and a text layout are freed by reference counting as soon
as they are written). The collector, left at its defaults, starts a young pass every 700 new
objects and an old pass over every live object now and then: in a one-card rebuild of the
950-card benchmark pack in one process (`pnp build --watch`, the server's preview) those passes
were about a tenth of the rebuild (84-95 young passes and one full pass, 0.24 s against 0.21 s
with the collector off).
"""
from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# Objects a young pass waits for during a build (CPython's default is 700). Any cyclic garbage a
# build makes is still collected, after at most this many new objects: a few MB at most.
BUILD_YOUNG_THRESHOLD = 20_000

_lock = threading.Lock()
_builds = 0                         # builds running now (the server builds in threads)
_saved: tuple[int, ...] = ()        # the thresholds the first of them found


@contextmanager
def paused() -> Iterator[None]:
    """The collector off while modules are imported (with `gc.freeze` after them, 4 % of a
    95-card build's instructions); its state restored however the imports end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def eased() -> Iterator[None]:
    """Young passes every BUILD_YOUNG_THRESHOLD new objects while a build runs; the thresholds
    found are put back when the last of the builds running together ends."""
    global _builds, _saved
    with _lock:
        if _builds == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(max(BUILD_YOUNG_THRESHOLD, _saved[0]), *_saved[1:])
        _builds += 1
    try:
        yield
    finally:
        with _lock:
            _builds -= 1
            if _builds == 0:
                gc.set_threshold(*_saved)
