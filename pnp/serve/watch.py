"""Reload the preview whenever a file of the pack or its templates changes (watchfiles)."""
from __future__ import annotations

import threading
from pathlib import Path

import watchfiles

from pnp.pack import TEMPLATES_DIR
from pnp.serve.preview import Preview


def watched_folders(root: Path) -> list[Path]:
    """The pack folder (YAML, CSV, text, its own templates and art) and the shipped templates its
    templates extend; a folder inside another is watched once."""
    folders = [root.resolve()]
    shipped = TEMPLATES_DIR.resolve()
    if shipped.is_dir() and not shipped.is_relative_to(folders[0]):
        folders.append(shipped)
    return folders


def start_watching(preview: Preview, stop: threading.Event) -> threading.Thread:
    """A daemon thread that reloads `preview` after every batch of changes until `stop` is set."""
    def run() -> None:
        for _changes in watchfiles.watch(*watched_folders(preview.root), stop_event=stop, raise_interrupt=False):
            preview.reload()

    thread = threading.Thread(target=run, name="pnp-serve-watch", daemon=True)
    thread.start()
    return thread
