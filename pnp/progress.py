"""A build's progress bar on a terminal: faces drawn, then pages written.

    progress = BuildProgress.for_stream(sys.stderr)   # None when stderr is not a terminal
    build(games, options, progress=progress)

Nothing shows for the first second (a quick build stays quiet), and nothing ever shows when the
stream is not a terminal (a log file, a pipe, CI): the bar is a carriage-return line rewritten in
place, which only a terminal makes sense of. Drawn at most ten times a second.
"""
from __future__ import annotations

import time
from typing import IO, Callable

SHOW_AFTER_S = 1.0          # a build quicker than this shows no bar
REDRAW_EVERY_S = 0.1
WIDTH = 30                  # characters of the bar itself


class BuildProgress:
    def __init__(self, stream: IO[str], clock: Callable[[], float] = time.monotonic):
        self.stream = stream
        self.clock = clock
        self.started = clock()
        self.label = ""
        self.done = 0
        self.total = 0
        self._drawn_at = 0.0
        self._shown = False          # a line is on the screen (to be finished with a newline)

    @classmethod
    def for_stream(cls, stream: IO[str]) -> BuildProgress | None:
        """A progress bar on `stream` when it is a terminal, else None."""
        isatty = getattr(stream, "isatty", None)
        return cls(stream) if isatty is not None and isatty() else None

    def stage(self, label: str, total: int) -> None:
        """Start counting `label` ("faces drawn", "pages written") up to `total`."""
        if self._shown and self.label != label:
            self._draw(force=True)
            self.stream.write("\n")
            self._shown = False
        self.label, self.done, self.total = label, 0, total

    def advance(self, count: int = 1) -> None:
        self.done = min(self.total, self.done + count) if self.total else self.done + count
        self._draw(force=self.done == self.total)

    def pages(self, done: int, total: int) -> None:
        """The sheet writer's callback: page `done` of `total` is written."""
        if self.label != "pages written" or self.total != total:
            self.stage("pages written", total)
        self.done = done
        self._draw(force=done == total)

    def finish(self) -> None:
        if self._shown:
            self._draw(force=True)
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False

    def _draw(self, force: bool = False) -> None:
        now = self.clock()
        if now - self.started < SHOW_AFTER_S or (not force and now - self._drawn_at < REDRAW_EVERY_S):
            return
        self._drawn_at = now
        filled = WIDTH * self.done // self.total if self.total else 0
        bar = "#" * filled + "-" * (WIDTH - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} {self.label}")
        self.stream.flush()
        self._shown = True
