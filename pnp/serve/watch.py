"""Reload the preview whenever a file of the pack or its templates changes (watchfiles)."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import watchfiles

from pnp.pack import TEMPLATES_DIR
from pnp.serve.preview import Preview

READY_POLL_MS = 250         # how long the watcher waits for a change before it says "still here"
READY_WAIT_S = 30           # the most `pnp serve` waits for its watcher before it gives its address


def watched_folders(root: Path) -> list[Path]:
    """The pack folder (YAML, CSV, text, its own templates and art) and the shipped templates its
    templates extend; a folder inside another is watched once."""
    folders = [root.resolve()]
    shipped = TEMPLATES_DIR.resolve()
    if shipped.is_dir() and not shipped.is_relative_to(folders[0]):
        folders.append(shipped)
    return folders


def changes(folders: list[Path], stop: threading.Event | None, ready: Callable[[], None],
            keep: Callable[[watchfiles.Change, str], bool] | None = None) -> Iterator[set[tuple[watchfiles.Change, str]]]:
    """Each batch of changes under `folders` until `stop` is set; `ready()` is called once the
    folders are really watched. Without it a save made just after "watching" was printed (or the
    preview's address given) could go unseen: watchfiles sets its watches up inside the generator,
    so the first (possibly empty) batch is the first moment they are known to be in place."""
    told = False
    for batch in watchfiles.watch(*folders, watch_filter=keep or watchfiles.DefaultFilter(), stop_event=stop,
                                  raise_interrupt=False, rust_timeout=READY_POLL_MS, yield_on_timeout=True):
        if not told:
            told = True
            ready()
        if batch:
            yield batch


def start_watching(preview: Preview, stop: threading.Event) -> threading.Thread:
    """A daemon thread that reloads `preview` after every batch of changes until `stop` is set;
    returns once the pack's folders are watched (or after READY_WAIT_S, whichever is first)."""
    watching = threading.Event()

    def run() -> None:
        for _changes in changes(watched_folders(preview.root), stop, watching.set):
            preview.reload()

    thread = threading.Thread(target=run, name="pnp-serve-watch", daemon=True)
    thread.start()
    watching.wait(READY_WAIT_S)
    return thread
