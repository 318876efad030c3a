"""The font cache (pnp.text.fonts): cuts are deterministic, damaged cached fonts are cut again,
concurrent first runs cut once, and a cache folder that cannot be used is a message, not a traceback.

Everything runs pnp in child processes with PNP_CACHE_DIR pointing at a fresh folder, so the cold
cut is real (the two cold builds run side by side, once per module).
"""
from __future__ import annotations

import errno
import hashlib
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import REPO

TIMEOUT = 600          # seconds: a child that hangs fails the test (a cold cut on a busy box takes minutes)
PNP = [sys.executable, "-m", "pnp.cli"]
GAME, LANG = "zombie-run", "ar"     # Arabic: the build cuts the Latin and the Arabic fonts
# Two machines as unlike as one box allows: time zone, locale and string hashing all differ.
MACHINES = (
    {"TZ": "UTC", "LANG": "C", "LC_ALL": "C", "PYTHONHASHSEED": "0"},
    {"TZ": "Pacific/Kiritimati", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "4242"},
)


def child_env(cache: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PNP_CACHE_DIR": str(cache), **extra}


def start_build(cache: Path, out: Path, lang: str = LANG, **extra: str) -> subprocess.Popen:
    return subprocess.Popen([*PNP, "build", GAME, "--lang", lang, "--out", str(out)], cwd=REPO,
                            env=child_env(cache, **extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(child: subprocess.Popen) -> subprocess.CompletedProcess:
    try:
        stdout, stderr = child.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise
    return subprocess.CompletedProcess(child.args, child.returncode, stdout, stderr)


def build(cache: Path, out: Path, lang: str = LANG, **extra: str) -> subprocess.CompletedProcess:
    return finish(start_build(cache, out, lang, **extra))


def pdfs(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def cached_fonts(cache: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((cache / "fonts").glob("*.ttf"))}


def cached_font(cache: Path, prefix: str) -> Path:
    """The one cached font file of a ReportLab name such as PnpSans-Regular."""
    (path,) = (cache / "fonts").glob(f"{prefix}-*.ttf")
    return path


@pytest.fixture(scope="module")
def cold_builds(tmp_path_factory) -> list[tuple[Path, Path]]:
    """(cache, out) of two builds, each cutting its fonts into its own fresh cache, on two
    'machines' (MACHINES), at the same time."""
    root = tmp_path_factory.mktemp("cold")
    runs = [(root / f"cache{i}", root / f"out{i}") for i in range(len(MACHINES))]
    children = [start_build(cache, out, **machine) for (cache, out), machine in zip(runs, MACHINES)]
    for result in map(finish, children):
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    return runs


def test_fresh_caches_on_different_machines_give_identical_pdfs(cold_builds):
    (_, first), (_, second) = cold_builds
    written = pdfs(first)
    assert written, "the build wrote no PDF"
    assert sorted(written) == sorted(pdfs(second))
    for name, data in written.items():
        assert data == pdfs(second)[name], f"{name} differs between two fresh font caches"


def test_cut_fonts_are_byte_identical_and_carry_their_digest(cold_builds):
    (first, _), (second, _) = cold_builds
    fonts = cached_fonts(first)
    assert len(fonts) == 6          # PnpSans and PnpArabic, regular, bold and condensed bold
    assert fonts == cached_fonts(second)
    for name, data in fonts.items():
        sidecar = first / "fonts" / f"{name}.sha256"
        assert sidecar.read_text().strip() == hashlib.sha256(data).hexdigest()


def test_a_warm_build_writes_the_bytes_of_the_cold_one(cold_builds, tmp_path):
    (cache, cold_out), _ = cold_builds
    before = cached_fonts(cache)

    result = build(cache, tmp_path / "warm")     # every font it needs is in the cache now

    assert result.returncode == 0, result.stderr
    assert cached_fonts(cache) == before         # nothing was cut again
    assert pdfs(tmp_path / "warm") == pdfs(cold_out)


def test_a_build_without_arabic_text_cuts_no_arabic_font(cold_builds, tmp_path):
    (cache, _), _ = cold_builds
    latin_only = tmp_path / "cache"
    shutil.copytree(cache, latin_only)
    for path in (latin_only / "fonts").glob("PnpArabic-*"):
        path.unlink()

    result = build(latin_only, tmp_path / "out", "en")

    assert result.returncode == 0, result.stderr
    assert sorted(p.name.split("-")[0] for p in (latin_only / "fonts").glob("*.ttf")) == ["PnpSans"] * 3


def test_truncated_empty_and_garbage_cached_fonts_are_cut_again(cold_builds, tmp_path):
    (cache, out), _ = cold_builds
    damaged = tmp_path / "cache"
    shutil.copytree(cache, damaged)
    good = cached_fonts(damaged)
    # Arabic fonts: the build registers them all the same.
    truncated = cached_font(damaged, "PnpArabic-CondensedBold")
    truncated.write_bytes(truncated.read_bytes()[:5000])
    empty = cached_font(damaged, "PnpArabic-Bold")
    empty.write_bytes(b"")
    garbage = cached_font(damaged, "PnpArabic-Regular")
    garbage.write_bytes(b"not a font at all\n" * 1000)

    result = build(damaged, tmp_path / "out")

    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    for path in (truncated, empty, garbage):
        assert path.name in result.stderr     # one warning line per font cut again
    assert cached_fonts(damaged) == good
    assert pdfs(tmp_path / "out") == pdfs(out)


@pytest.mark.parametrize("blocked", ["cache", "fonts"])
def test_a_file_where_the_cache_folder_goes_is_a_message(tmp_path, blocked):
    cache = tmp_path / "cache"
    if blocked == "cache":                   # PNP_CACHE_DIR itself is a file
        cache.write_text("not a folder")
        in_the_way = cache
    else:                                    # the fonts folder inside it is a file
        cache.mkdir()
        in_the_way = cache / "fonts"
        in_the_way.write_text("not a folder")

    result = build(cache, tmp_path / "out")

    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"{in_the_way} is a file, not a folder" in result.stderr
    assert "PNP_CACHE_DIR" in result.stderr
    assert not list((tmp_path / "out").rglob("*.pdf"))       # a missing folder has none either
    assert in_the_way.read_text() == "not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_cache_folder_is_a_message(tmp_path):
    cache = tmp_path / "cache"
    (cache / "fonts").mkdir(parents=True)
    (cache / "fonts").chmod(0o555)
    try:
        result = build(cache, tmp_path / "out")
    finally:
        (cache / "fonts").chmod(0o755)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert str(cache / "fonts") in result.stderr and "PNP_CACHE_DIR" in result.stderr


# `pnp ARGS` where the cache folder refuses new files, as a read-only folder does to anyone but
# root (these tests may run as root): creating a file below PNP_CACHE_DIR fails with EACCES.
PNP_IN_READ_ONLY_CACHE = textwrap.dedent("""
    import errno, os, sys
    cache, create = os.environ["PNP_CACHE_DIR"], os.open
    def refusing(path, flags, *args, **kwargs):
        if str(path).startswith(cache) and flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return create(path, flags, *args, **kwargs)
    os.open = refusing
    from pnp.cli import main
    sys.exit(main())
""")


def test_a_cache_folder_that_refuses_new_files_is_a_message(tmp_path):
    cache = tmp_path / "cache"
    (cache / "fonts").mkdir(parents=True)
    result = finish(subprocess.Popen([sys.executable, "-c", PNP_IN_READ_ONLY_CACHE, "build", GAME, "--lang", LANG,
                                      "--out", str(tmp_path / "out")], cwd=REPO, env=child_env(cache),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"font cache {cache / 'fonts'}: cannot be used" in result.stderr
    assert os.strerror(errno.EACCES) in result.stderr and "PNP_CACHE_DIR" in result.stderr
    assert not list((tmp_path / "out").rglob("*.pdf"))
    assert not list((cache / "fonts").iterdir())


# A child that cuts one font, counting every cut it makes. The children of a test wait for each
# other at a barrier (one file each), so their first runs really overlap.
CUT_ONE_FONT = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from pnp.text import fonts

    log, barrier, me, font = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    cut = fonts._cut
    def counted(*args, **kwargs):
        with log.open("a") as stream:
            stream.write(me + "\\n")
        return cut(*args, **kwargs)
    fonts._cut = counted

    (barrier / me).touch()
    deadline = time.monotonic() + 60
    while len(list(barrier.iterdir())) < int(sys.argv[5]) and time.monotonic() < deadline:
        time.sleep(0.01)
    print(fonts.font_file(font))
""")


def cut_in_children(cache: Path, tmp_path: Path, font: str, count: int) -> tuple[list[str], list[str]]:
    """Run `count` children cutting `font` into `cache` at once: (the font path each printed, the
    names of the children that instanced a font)."""
    log, barrier = tmp_path / "cuts.log", tmp_path / "barrier"
    barrier.mkdir()
    children = [subprocess.Popen([sys.executable, "-c", CUT_ONE_FONT, str(log), str(barrier), f"child{i}", font,
                                  str(count)], cwd=REPO, env=child_env(cache), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for i in range(count)]
    printed = []
    for result in map(finish, children):
        assert result.returncode == 0, result.stderr
        printed.append(result.stdout.strip())
    return printed, (log.read_text().split() if log.exists() else [])


def test_concurrent_first_runs_cut_a_font_once(tmp_path):
    cache = tmp_path / "cache"
    printed, cuts = cut_in_children(cache, tmp_path, "PnpArabic-Regular", 2)
    assert len(cuts) == 1, f"the font was cut {len(cuts)} times: {cuts}"
    assert printed[0] == printed[1]
    font = Path(printed[0])
    assert (font.parent / f"{font.name}.sha256").read_text().strip() == hashlib.sha256(font.read_bytes()).hexdigest()


def test_temp_files_of_an_interrupted_cut_are_removed_by_the_next_cut(tmp_path):
    cache = tmp_path / "cache"
    (cache / "fonts").mkdir(parents=True)
    left_over = cache / "fonts" / "PnpSans-Regular-0123-v3.ttf.abc123.tmp"
    left_over.write_bytes(b"half a font")
    printed, cuts = cut_in_children(cache, tmp_path, "PnpArabic-Regular", 1)
    assert len(cuts) == 1 and Path(printed[0]).is_file()
    assert not left_over.exists()
    assert not list((cache / "fonts").glob("*.tmp"))
