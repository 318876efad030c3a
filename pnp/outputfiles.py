"""Writing output files safely: one temp-file pattern, a staging folder per build, and the
leftovers of an interrupted build removed.

A file is written to `.<name>.<random>.tmp` next to it and renamed over it when complete
(`atomic_path`, `write_text_atomically`). A build writes all its documents into
`.pnp-staging-<pid>-<random>/` inside each output folder and moves them into place only when every
one of them is written (`staged`), so a failure part way leaves the previous output as it was. A
killed process leaves either behind; `remove_leftovers` deletes those that no running build is using.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Iterator

from pnp.errors import OutputError, display_path

TEMP_SUFFIX = ".tmp"
STAGING_PREFIX = ".pnp-staging-"
_REPLACED = ".pnp-replaced"          # inside a staging folder: the files a commit moved aside
# What atomic_path names a temp file of a PDF or PNG (mkstemp's random part between the dots).
_TEMP_NAME = re.compile(r"\..+\.(?:pdf|png|json)\.[A-Za-z0-9_]+" + re.escape(TEMP_SUFFIX))

_in_use: set[str] = set()            # temp files and staging folders of this process, right now
_in_use_lock = threading.Lock()      # builds may run in threads (one process serving several)


def _claim(path: str | os.PathLike) -> None:
    """Mark `path` as this process's, so remove_leftovers leaves it alone (until _release)."""
    with _in_use_lock:
        _in_use.add(os.path.abspath(path))


def _release(path: str | os.PathLike) -> None:
    with _in_use_lock:
        _in_use.discard(os.path.abspath(path))


def _is_ours(path: str | os.PathLike) -> bool:
    with _in_use_lock:
        return os.path.abspath(path) in _in_use


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[str]:
    """A temp file next to `path` (`.<name>.<random>.tmp`), moved over it on success, removed on
    any exception. An OSError names `path`, not the temp file the user never asked for."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent or ".")
    except OSError as error:
        error.filename = str(target)
        raise
    os.close(fd)
    _claim(tmp)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600 files; outputs should be like any other file
        os.replace(tmp, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(error, OSError) and error.filename in (None, tmp):   # a full disk says no name
            error.filename, error.filename2 = str(target), None
        raise
    finally:
        _release(tmp)


def _builder_alive(staging_name: str) -> bool:
    """Whether the process that made a staging folder (`.pnp-staging-<pid>-...`) still runs: a
    second build into the same folder must not delete the first one's documents mid-build."""
    pid = staging_name[len(STAGING_PREFIX):].split("-", 1)[0]
    if not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:                  # it exists but belongs to another user
        return True
    return True


def remove_leftovers(folder: Path, recursive: bool = True) -> int:
    """Delete what an interrupted process left in `folder` (and below it with `recursive`): temp
    files of atomic_path and staging folders, except those this process is using. A file that
    cannot be deleted stays (writing there will say why). Returns how many were deleted."""
    removed = 0
    for root, dirs, files in os.walk(folder):
        for name in [d for d in dirs if d.startswith(STAGING_PREFIX)]:
            dirs.remove(name)                                  # never walk into a staging folder
            path = os.path.join(root, name)
            if not _is_ours(path) and not _builder_alive(name):
                shutil.rmtree(path, ignore_errors=True)
                removed += not os.path.lexists(path)
        for name in files:
            path = os.path.join(root, name)
            if _TEMP_NAME.fullmatch(name) and not _is_ours(path):
                with contextlib.suppress(OSError):
                    os.unlink(path)
                    removed += 1
        if not recursive:
            break
    return removed


class Staging:
    """The documents of one build, written into a staging folder inside each output folder and
    moved into place together (see `staged`)."""

    def __init__(self) -> None:
        self._folders: dict[Path, Path] = {}        # output folder -> its staging folder

    def folder(self, out_dir: Path) -> Path:
        """The staging folder standing in for `out_dir` (made, with `out_dir`, on first use)."""
        if out_dir not in self._folders:
            if out_dir.exists() and not out_dir.is_dir():
                raise OutputError(f"cannot write {display_path(out_dir)}: is a file, not a folder")
            out_dir.mkdir(parents=True, exist_ok=True)
            try:
                folder = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=out_dir))
            except OSError as error:
                error.filename = str(out_dir)
                raise
            _claim(folder)
            self._folders[out_dir] = folder
        return self._folders[out_dir]

    def final(self, path: str | os.PathLike) -> Path:
        """Where a staged file goes once committed (any other path is returned as it is)."""
        path = Path(path)
        for out_dir, folder in self._folders.items():
            if path == folder or folder in path.parents:
                return out_dir / path.relative_to(folder)
        return path

    def commit(self) -> None:
        """Move every staged file over its final place. If one move fails, the files already moved
        are put back as they were before raising: the previous output stays whole."""
        for folder in self._folders.values():     # else a commit would "succeed" moving nothing
            if not folder.is_dir():
                raise FileNotFoundError(errno.ENOENT, "the staging folder was deleted while the build ran "
                                        "(another pnp building into the same folder?)", str(folder))
        moves = [(staged, out_dir / staged.relative_to(folder), folder)
                 for out_dir, folder in self._folders.items() for staged in _files(folder)]
        done: list[tuple[Path, Path | None]] = []     # (final place, where its old file was put)
        made: list[Path] = []                         # folders the moves made, to remove on failure
        try:
            for _staged, target, _folder in moves:   # the likeliest failure, before anything moves
                _refuse_folder(target)
            for number, (staged, target, folder) in enumerate(moves):
                done.append((target, _set_aside(target, folder / _REPLACED / str(number))))
                _make_parents(target.parent, made)
                os.replace(staged, target)
        except OSError as error:
            _put_back(done)
            for made_folder in reversed(made):
                with contextlib.suppress(OSError):
                    made_folder.rmdir()
            if error.filename is not None:
                error.filename, error.filename2 = str(self.final(error.filename)), None
            raise

    def discard(self) -> None:
        """Delete the staging folders and whatever is still in them."""
        for folder in self._folders.values():
            shutil.rmtree(folder, ignore_errors=True)
            _release(folder)


def _refuse_folder(target: Path) -> None:
    """A folder where a document goes: os.replace would fail, or move the whole folder away."""
    if target.is_dir() and not target.is_symlink():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))


def _make_parents(folder: Path, made: list[Path]) -> None:
    """mkdir -p `folder`, adding the folders it made to `made` (outermost first)."""
    missing = list(itertools.takewhile(lambda f: not f.exists(), (folder, *folder.parents)))
    for f in reversed(missing):
        f.mkdir(exist_ok=True)
        made.append(f)


def _set_aside(target: Path, aside: Path) -> Path | None:
    """Move the previous build's `target` to `aside`, in the staging folder (None: there was none)."""
    _refuse_folder(target)
    if not os.path.lexists(target):
        return None
    aside.parent.mkdir(exist_ok=True)
    os.replace(target, aside)
    return aside


def _files(folder: Path) -> list[Path]:
    """Every file below `folder`, in a stable order."""
    return sorted(Path(root) / name for root, _, names in os.walk(folder) for name in names)


def _put_back(done: list[tuple[Path, Path | None]]) -> None:
    """Undo a commit's moves, newest first: the old file back, or no file where there was none."""
    for target, aside in reversed(done):
        with contextlib.suppress(OSError):
            if aside is None:
                os.unlink(target)
            else:
                os.replace(aside, target)


@contextlib.contextmanager
def staged() -> Iterator[Staging]:
    """Write a build's documents into `staging.folder(out_dir)` inside the block; they replace the
    files of the same name in `out_dir` only when the block ends without an exception, all at
    once. On any failure nothing in the output folders changes. An OSError becomes an
    OutputError naming the final file ('cannot write output/x/x-cards-en-a4.pdf: ...')."""
    staging = Staging()
    try:
        yield staging
        staging.commit()
    except OSError as error:
        filename = staging.final(error.filename) if error.filename is not None else None
        raise OutputError.writing(error, filename) from None
    finally:
        staging.discard()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once: os.umask can only be read by setting it, which would race with threads making files.
_UMASK = _umask()


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` in one step: an interrupted write leaves the old file whole, and
    no reader ever sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, open(tmp, "wb") as out:
        out.write(data)


def write_text_atomically(path: Path, text: str) -> None:
    """`write_bytes_atomically` of `text` in UTF-8, newlines as given."""
    write_bytes_atomically(path, text.encode("utf-8"))
