"""Output that cannot be written: one message and exit 2, never a traceback, never a half-written set.

A build writes every document (cards PDF per language, PNG previews...) into a staging folder and
moves them into place only when all are written; temp files and staging folders a killed build
left behind are removed by the next one. Faults are made for real where the test can (a file
where a folder or document goes, a process killed mid-write) and by monkeypatching the writer
or os.replace where it cannot (a full disk; root ignores a read-only folder).
"""
from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO, TINY

from pnp import build as build_module
from pnp.cli import main

TIMEOUT = 300          # seconds: a child that hangs fails the test instead of the whole run
PNP = [sys.executable, "-m", "pnp.cli"]


def pnp_child(*args) -> subprocess.CompletedProcess:
    """`pnp ARGS` in a child process, as a user runs it (so a traceback would really show)."""
    return subprocess.run([*PNP, *map(str, args)], cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT)


def build_tiny(out: Path, *extra) -> CliRunner:
    return CliRunner().invoke(main, ["build", str(TINY), "--out", str(out), *map(str, extra)])


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` (hidden ones included) and its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(folder: Path) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".pnp-staging-")]


def old_build(out: Path, *extra) -> dict[str, bytes]:
    """A previous build whose files differ from what the next build writes: each file's bytes
    replaced by its name, so a file the failed build overwrote shows."""
    result = build_tiny(out, *extra)
    assert result.exit_code == 0, result.output
    for path in (out / "tiny").rglob("*"):
        if path.is_file():
            path.write_bytes(f"old {path.name}".encode())
    return snapshot(out)


# ------------------------------------------------------------------ messages, exit 2, no traceback
def test_out_that_is_a_file(tmp_path):
    out = tmp_path / "output"
    out.write_text("not a folder")
    child = pnp_child("build", TINY, "--out", out, "--lang", "en")
    assert child.returncode == 2, child.stderr
    assert f"--out {out}: is a file, not a folder" in child.stderr
    assert "Traceback" not in child.stderr + child.stdout
    assert out.read_text() == "not a folder"


def test_a_file_where_the_game_folder_goes(tmp_path):
    (tmp_path / "tiny").write_text("mine")
    child = pnp_child("build", TINY, "--out", tmp_path, "--lang", "en")
    assert child.returncode == 2, child.stderr
    assert f"cannot write {tmp_path / 'tiny'}: is a file, not a folder" in child.stderr
    assert "Traceback" not in child.stderr
    assert (tmp_path / "tiny").read_text() == "mine"


def test_a_folder_where_a_document_goes_leaves_the_old_set_whole(tmp_path):
    """The second language's PDF cannot be moved into place: the first one, already written and
    staged, must not replace the previous build's either."""
    old_build(tmp_path, "--png")
    blocker = tmp_path / "tiny" / "tiny-cards-it-a4.pdf"
    blocker.unlink()
    blocker.mkdir()
    before = snapshot(tmp_path)
    child = pnp_child("build", TINY, "--out", tmp_path, "--png")
    assert child.returncode == 2, child.stderr
    assert f"cannot write {blocker}: Is a directory (errno 21)" in child.stderr
    assert "Traceback" not in child.stderr
    assert snapshot(tmp_path) == before
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_output_folder(tmp_path):
    before = old_build(tmp_path)
    folder = tmp_path / "tiny"
    folder.chmod(0o500)
    try:
        child = pnp_child("build", TINY, "--out", tmp_path)
    finally:
        folder.chmod(0o700)
    assert child.returncode == 2, child.stderr
    assert f"cannot write {folder}: Permission denied (errno 13)" in child.stderr
    assert "Traceback" not in child.stderr
    assert snapshot(tmp_path) == before


def test_disk_full_while_writing_the_second_document(tmp_path, monkeypatch):
    """ENOSPC half way through the Italian PDF: the English one, written fine, is not moved into
    place; the previous build's files stay byte for byte; no temp file or staging folder stays."""
    before = old_build(tmp_path, "--png")
    real = build_module.write_cards_pdf
    calls = []

    def second_fails(path, *args, **kwargs):
        calls.append(path)
        if len(calls) == 1:
            return real(path, *args, **kwargs)
        from pnp.sheets.pdfcommon import atomic_path
        with atomic_path(path) as tmp:
            Path(tmp).write_bytes(b"%PDF-1.4 half")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(build_module, "write_cards_pdf", second_fails)
    result = build_tiny(tmp_path, "--png")
    assert result.exit_code == 2, result.output
    assert len(calls) == 2
    target = tmp_path / "tiny" / "tiny-cards-it-a4.pdf"
    assert f"cannot write {target}: No space left on device (errno 28)" in result.output
    assert snapshot(tmp_path) == before
    assert leftovers(tmp_path) == []


def test_a_move_that_fails_puts_back_the_moves_before_it(tmp_path, monkeypatch):
    """The set is committed file by file; when the third move fails, the two files already moved
    are put back (the old file where there was one, nothing where there was none)."""
    before = old_build(tmp_path, "--lang", "en")          # cards-en exists; the Italian files do not
    real_replace = os.replace
    moved_into_place = []

    def third_move_fails(src, dst, **kwargs):
        if ".pnp-staging-" in str(src) and ".pnp-staging-" not in str(dst):
            moved_into_place.append(dst)
            if len(moved_into_place) == 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(src), str(dst))
        return real_replace(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", third_move_fails)
    result = build_tiny(tmp_path, "--png")
    assert result.exit_code == 2, result.output
    assert len(moved_into_place) == 3
    assert f"cannot write {moved_into_place[2]}: No space left on device (errno 28)" in result.output
    assert snapshot(tmp_path) == before
    assert not (tmp_path / "tiny" / "png-en").exists()      # folders the failed commit made are gone
    assert leftovers(tmp_path) == []


def test_calibrate_into_a_folder_that_is_a_file(tmp_path):
    out = tmp_path / "out"
    out.write_text("x")
    child = pnp_child("calibrate", "--out", out)
    assert child.returncode == 2, child.stderr
    assert f"--out {out}: is a file, not a folder" in child.stderr
    (tmp_path / "ok" / "calibrate-a4-long.pdf").mkdir(parents=True)
    child = pnp_child("calibrate", "--out", tmp_path / "ok")
    assert child.returncode == 2, child.stderr
    assert f"cannot write {tmp_path / 'ok' / 'calibrate-a4-long.pdf'}: Is a directory (errno 21)" in child.stderr
    assert "Traceback" not in child.stderr
    assert leftovers(tmp_path) == []


def test_an_os_error_anywhere_is_one_line(monkeypatch):
    import pnp.pack

    def unreadable(name):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), "/packs/x/pack.yaml")

    monkeypatch.setattr(pnp.pack, "load_pack", unreadable)     # `pnp list` imports it when it runs
    result = CliRunner().invoke(main, ["list", "x"])
    assert result.exit_code == 2
    assert result.output == "pnp list: /packs/x/pack.yaml: Permission denied (errno 13)\n"


@pytest.mark.parametrize("error", [RecursionError("maximum recursion depth exceeded"), MemoryError()])
def test_last_resort_message(monkeypatch, tmp_path, error):
    def fails(games, options, progress=None):
        raise error

    monkeypatch.setattr(build_module, "build", fails)
    result = CliRunner().invoke(main, ["build", "x", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)           # not the error itself: no traceback
    assert f"internal error, {type(error).__name__}" in result.output
    assert "Please report it" in result.output


def test_ctrl_c_is_not_swallowed(monkeypatch, tmp_path):
    def interrupted(games, options, progress=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "build", interrupted)
    result = CliRunner().invoke(main, ["build", "x", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "Aborted!" in result.output


# ------------------------------------------------------------------ leftovers of a killed build
KILLED_WHILE_WRITING = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from PIL import Image
    from pnp.preview import save_png
    from pnp.sheets.pdfcommon import atomic_path, staged

    game = Path(sys.argv[1])
    (game / "png-en").mkdir(parents=True, exist_ok=True)
    def killed(self, fp, *args, **kwargs):
        Path(fp).write_bytes(b"half a png")
        os.kill(os.getpid(), signal.SIGKILL)
    with atomic_path(game / "tiny-cards-en-a4.pdf") as tmp:        # an old pnp wrote in place
        Path(tmp).write_bytes(b"%PDF half")
        with staged() as staging:
            (staging.folder(game) / "tiny-cards-it-a4.pdf").write_bytes(b"%PDF staged")
            Image.Image.save = killed
            save_png(Image.new("RGB", (2, 2)), game / "png-en" / "back.png")
""")


def test_a_killed_build_leaves_nothing_the_next_one_keeps(tmp_path):
    game = tmp_path / "tiny"
    killed = subprocess.run([sys.executable, "-c", KILLED_WHILE_WRITING, str(game)], cwd=REPO,
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert killed.returncode == -9, killed.stderr
    left = sorted(p.name for p in game.rglob(".*"))
    assert len(left) == 3, left           # the PDF's and the PNG's temp files, the staging folder
    mine = [game / "notes.tmp", game / ".notes.txt.1234.tmp", game / "png-en" / "mine.pdf"]
    for path in mine:
        path.write_text("keep")
    (tmp_path / "calibrate-a4-long.pdf").write_text("not the game's folder")
    result = build_tiny(tmp_path, "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "removed 3 leftover temp files of an interrupted build" in result.output
    assert sorted(leftovers(tmp_path)) == sorted(str(path) for path in mine[:2])   # not pnp's: kept
    assert all(path.read_text() == "keep" for path in mine)


DEAD_PID = 4_194_305        # above Linux's highest pid (2**22): no process has it


def test_leftovers_named_as_the_ceo_found_them(tmp_path):
    game = tmp_path / "tiny"
    (game / f".pnp-staging-{DEAD_PID}-abcd1234" / "png-en").mkdir(parents=True)
    (game / f".pnp-staging-{DEAD_PID}-abcd1234" / "png-en" / "back.png").write_bytes(b"png")
    (game / ".x.pdf.1234.tmp").write_bytes(b"%PDF")
    result = build_tiny(tmp_path, "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "removed 2 leftover temp files" in result.output
    assert leftovers(tmp_path) == []
    assert sorted(p.name for p in game.iterdir()) == ["tiny-cards-en-a4.pdf", "tiny-tuckboxes-en-a4.pdf"]


def test_the_staging_folder_of_a_build_still_running_is_kept(tmp_path):
    """Two builds into one folder: the second must not delete the first one's documents."""
    game = tmp_path / "tiny"
    running = game / f".pnp-staging-{os.getppid()}-abcd1234"      # our parent runs: a live builder
    running.mkdir(parents=True)
    (running / "tiny-cards-en-a4.pdf").write_bytes(b"%PDF in progress")
    result = build_tiny(tmp_path, "--lang", "en")
    assert result.exit_code == 0, result.output
    assert (running / "tiny-cards-en-a4.pdf").read_bytes() == b"%PDF in progress"


def test_a_second_build_replaces_only_its_own_files(tmp_path):
    old_build(tmp_path)
    (tmp_path / "tiny" / "tiny-cards-en-letter.pdf").write_bytes(b"another paper")
    result = build_tiny(tmp_path)
    assert result.exit_code == 0, result.output
    files = snapshot(tmp_path / "tiny")
    assert sorted(files) == ["tiny-cards-en-a4.pdf", "tiny-cards-en-letter.pdf", "tiny-cards-it-a4.pdf",
                             "tiny-tuckboxes-en-a4.pdf", "tiny-tuckboxes-it-a4.pdf"]
    assert files["tiny-cards-en-letter.pdf"] == b"another paper"
    assert files["tiny-cards-en-a4.pdf"].startswith(b"%PDF") and files["tiny-cards-it-a4.pdf"].startswith(b"%PDF")
    assert "wrote " + str(tmp_path / "tiny" / "tiny-cards-en-a4.pdf") in result.output


# ------------------------------------------------------------------ limits
def test_too_many_faces_is_refused_before_rendering(tmp_path, monkeypatch):
    monkeypatch.setattr(build_module, "MAX_FACES_PER_BUILD", 20)      # tiny: 5 cards, 2 faces, 2 languages
    assert build_tiny(tmp_path / "at-the-limit").exit_code == 0
    monkeypatch.setattr(build_module, "MAX_FACES_PER_BUILD", 19)

    def no_rendering(*args, **kwargs):
        raise AssertionError("rendered a build it should have refused")

    monkeypatch.setattr(build_module, "render_faces", no_rendering)
    result = build_tiny(tmp_path)
    assert result.exit_code == 2, result.output
    assert "this build would render 20 card faces (tiny 20;" in result.output
    assert "more than the 19 one build may" in result.output
    assert not (tmp_path / "tiny").exists()


def test_leftovers_of_this_process_are_not_leftovers(tmp_path):
    """A build running in this process (a server runs several) keeps its staging folder and temp
    files while another one cleans up the same output folder."""
    from pnp.sheets.pdfcommon import atomic_path, remove_leftovers, staged

    game = tmp_path / "game"
    with staged() as staging:
        folder = staging.folder(game)
        with atomic_path(game / "open.pdf") as tmp:
            Path(tmp).write_bytes(b"%PDF")
            (folder / "a.pdf").write_bytes(b"%PDF staged")
            assert remove_leftovers(game) == 0
            assert Path(tmp).exists()
    assert (game / "a.pdf").read_bytes() == b"%PDF staged"
    assert (game / "open.pdf").read_bytes() == b"%PDF"
    assert leftovers(tmp_path) == []


def test_a_staging_folder_deleted_under_the_build(tmp_path):
    """Another process's cleanup deleted the staging folder: the commit says so instead of
    reporting documents it never moved into place."""
    import shutil

    from pnp.errors import OutputError
    from pnp.sheets.pdfcommon import staged

    game = tmp_path / "game"
    with pytest.raises(OutputError, match=re.escape(f"cannot write {game}: the staging folder was deleted")):
        with staged() as staging:
            folder = staging.folder(game)
            (folder / "a.pdf").write_bytes(b"%PDF")
            shutil.rmtree(folder)
    assert list(game.iterdir()) == []
