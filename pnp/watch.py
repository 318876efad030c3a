"""`pnp build --watch`: build, then build again after every save, through the face cache.

Each rebuild prints which faces it redrew (the others came from the cache, pnp.facecache), or the
problems that stopped it: a broken save does not end the watch, the next save is built again.
The folders watched are those `pnp serve` watches (pnp.serve.watch): each pack's folder and the
shipped templates. The build's own output, its staging folders and temp files are ignored, so a
build never triggers the next. Ctrl-C stops it between two builds or during one (a build cut
short writes nothing: pnp.outputfiles.staged).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import watchfiles

from pnp.build import BuildOptions, BuildResult, build
from pnp.errors import PnpError
from pnp.outputfiles import STAGING_PREFIX, TEMP_SUFFIX
from pnp.pack import find_pack
from pnp.progress import BuildProgress
from pnp.serve.watch import changes, watched_folders

NAMES_SHOWN = 12            # faces named in a rebuild's report; more are counted


def redrawn(result: BuildResult) -> str:
    """'redrew 2 faces: c7:front, c7:back (1898 from the cache)'."""
    names = result.drawn[:NAMES_SHOWN]
    more = len(result.drawn) - len(names)
    listed = ", ".join(names) + (f" and {more} more" if more else "")
    count = f"redrew {len(result.drawn)} face{'s' * (len(result.drawn) != 1)}"
    return f"{count}{': ' + listed if names else ''} ({result.cached} from the cache)"


def ignored(out: Path) -> Callable[[watchfiles.Change, str], bool]:
    """A watchfiles filter: what the build writes (the output folder, staging, temp files) and
    what editors write beside a file (swap and backup files) are not changes to build."""
    out = out.resolve()
    default = watchfiles.DefaultFilter()

    def keep(change: watchfiles.Change, path: str) -> bool:
        p = Path(path)
        if p.is_relative_to(out) or any(part.startswith(STAGING_PREFIX) for part in p.parts):
            return False
        return not p.name.endswith(TEMP_SUFFIX) and default(change, path)
    return keep


def saved(batch: set[tuple[watchfiles.Change, str]]) -> list[str]:
    """The names of the files a batch of changes touched, without the transient ones: a file
    created and gone again within the batch is a temporary file an editor or `sed -i` wrote and
    renamed over the real one (which is in the batch itself)."""
    added = {path for change, path in batch if change == watchfiles.Change.added}
    return sorted({Path(path).name for _change, path in batch
                   if path not in added or Path(path).exists()})


def watch(games: list[str], options: BuildOptions, echo: Callable[[str], None],
          progress: Callable[[], BuildProgress | None] = lambda: None, stop: threading.Event | None = None,
          report: Callable[[BuildResult], None] | None = None) -> None:
    """Build `games`, then again after each batch of changes until Ctrl-C or `stop` is set."""
    folders: list[Path] = []
    for game in games:
        for folder in watched_folders(find_pack(game)):
            if folder not in folders:
                folders.append(folder)

    def once() -> None:
        try:
            result = build(games, options, progress())
        except PnpError as error:
            echo(f"{error}\n(watching for the next save; Ctrl-C stops)")
            return
        if report is not None:
            report(result)
        echo(redrawn(result))

    once()
    for batch in changes(folders, stop, lambda: echo(f"watching {', '.join(map(str, folders))} (Ctrl-C stops)"),
                         ignored(options.out)):
        changed = saved(batch)
        if changed:
            echo(f"changed: {', '.join(changed)}")
            once()
