"""`pnp build`'s progress bar (pnp/progress.py) and `pnp build --watch` (pnp/watch.py)."""
from __future__ import annotations

import io
import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from click.testing import CliRunner

from pnp import build as pipeline
from pnp.cli import main
from pnp.composition import rules as composition_rules
from pnp.pack import load_pack
from pnp.progress import BuildProgress
from pnp.watch import watch

REPO = Path(__file__).resolve().parent.parent


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_waits_a_second_then_counts_faces_then_pages():
    now = [0.0]
    stream = Tty()
    bar = BuildProgress(stream, clock=lambda: now[0])
    bar.stage("faces drawn", 10)
    bar.advance(2)
    assert stream.getvalue() == ""                        # under a second: nothing
    now[0] = 1.5
    bar.advance(2)
    assert stream.getvalue().endswith("\r[" + "#" * 12 + "-" * 18 + "] 4/10 faces drawn")
    bar.advance(6)
    bar.pages(1, 4)
    now[0] = 2.0
    bar.pages(4, 4)
    bar.finish()
    text = stream.getvalue()
    assert "10/10 faces drawn\n" in text and text.endswith("4/4 pages written\n")


def test_no_bar_when_stderr_is_not_a_terminal(tiny_pack, tmp_path):
    assert BuildProgress.for_stream(io.StringIO()) is None
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--lang", "en", "--out", str(tmp_path)])
    assert result.exit_code == 0
    assert "\r" not in result.output and "faces drawn" not in result.output


def make_pack(root: Path, cards: int) -> Path:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from bench_build import make_pack as make
    finally:
        sys.path.pop(0)
    return make(root, cards)


def test_a_build_over_a_second_shows_the_bar_on_a_terminal(tmp_path):
    """A real terminal (a pty) on stderr; stdout a pipe, where the file names go, bar-free. The
    build must take well over the bar's second on a fast idle machine: 1,200 cards (400 came to
    under a second of build once the rebuild work made drawing faster)."""
    pack = make_pack(tmp_path / "poker", 1200)
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO), "PNP_CACHE_DIR": str(tmp_path / "cache")}
    from pnp.text import fonts
    fonts.register_all()
    (tmp_path / "cache").mkdir()
    os.symlink(fonts.cache_dir(), tmp_path / "cache" / "fonts")
    child = subprocess.Popen([sys.executable, "-c", "from pnp.cli import main; main()", "build", str(pack),
                              "--out", str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    terminal = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:                  # the child closed the terminal
            break
        if not chunk:
            break
        terminal += chunk
    out, _ = child.communicate(timeout=120)
    os.close(master)
    assert child.returncode == 0, terminal.decode(errors="replace")
    shown = terminal.decode()
    # the faces may take under the first second (then only the pages show); the pages end the build
    assert shown.rstrip().endswith("300/300 pages written")
    assert "faces drawn" not in shown or "2400/2400 faces drawn\r\n" in shown
    assert "\r[" in shown and b"\r" not in out and b"wrote" in out


def test_watch_rebuilds_what_changed_and_says_which_faces(tiny_pack, tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    from pnp.text import fonts
    fonts_dir = fonts.cache_dir()
    monkeypatch.setattr(fonts, "cache_dir", lambda: fonts_dir)
    lines: list[str] = []
    stop = threading.Event()
    options = pipeline.BuildOptions(lang="en", out=tmp_path / "out")
    thread = threading.Thread(target=watch, args=([str(tiny_pack)], options, lines.append), kwargs={"stop": stop})
    thread.start()
    try:
        _wait(lambda: any(line.startswith("watching") for line in lines))
        assert lines[0].startswith("redrew 10 faces")
        cards = tiny_pack / "cards" / "main.yaml"
        # saved as `sed -i` saves: a temporary file beside it, renamed over it
        temporary = cards.with_name("sedX1b2c3")
        temporary.write_text(cards.read_text().replace("colour: blue, value: 2}", "colour: red, value: 5}"))
        os.replace(temporary, cards)
        _wait(lambda: sum(line.startswith("redrew") for line in lines) == 2)
        assert lines[-1] == "redrew 2 faces: beta:front, beta:back (8 from the cache)"
        assert [line for line in lines if line.startswith("changed:")] == ["changed: main.yaml"]
        cards.write_text(cards.read_text().replace("kind: plain", "kind: nosuchkind", 1))     # a broken save
        _wait(lambda: any("watching for the next save" in line for line in lines))
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()
    assert not any(line.startswith("changed") and ".pnp-staging" in line for line in lines)


def test_ctrl_c_stops_the_watch(tiny_pack, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-c", "from pnp.cli import main; main()", "build", str(tiny_pack),
                              "--lang", "en", "--watch", "--out", str(tmp_path / "out")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    seen = b""
    deadline = time.monotonic() + 120
    assert child.stderr is not None
    while b"Ctrl-C stops" not in seen and time.monotonic() < deadline:
        seen += child.stderr.read1(4096)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 0, (seen + err).decode()
    assert b"stopped watching" in err and b"Traceback" not in seen + err


def _wait(condition, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_build_lets_go_of_what_only_the_load_and_the_rules_checker_read(tmp_path, monkeypatch):
    """Flat memory (issue 13): once the rules are checked, the card files as loaded (line maps and
    lines) and the record of literal texts are not held while faces are drawn and the PDF written;
    the rules checker still had them."""
    seen: dict = {}
    checked = composition_rules.check_composition      # what pnp.build loads when a pack has rules

    def check(pack):
        seen["at check"] = [deck.source is not None for deck in pack.decks]
        return checked(pack)

    def render(pack, lang, **kwargs):
        seen["at render"] = ([deck.source for deck in pack.decks], dict(pack.literal_texts))
        return rendered(pack, lang, **kwargs)

    rendered = pipeline.render_faces
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["new", "my-game"]).exit_code == 0   # its cards write texts
    assert load_pack(tmp_path / "my-game").literal_texts                  # literally (10 of them)
    monkeypatch.setattr(composition_rules, "check_composition", check)
    monkeypatch.setattr(pipeline, "render_faces", render)
    pipeline.build([str(tmp_path / "my-game")], pipeline.BuildOptions(lang="en", out=tmp_path / "out", cache=False))
    assert seen["at check"] == [True]
    assert seen["at render"] == ([None], {})


def test_a_file_made_and_gone_within_one_batch_is_no_change(tmp_path):
    """An editor's temporary file (made, then renamed over the real one) is not named, and a
    batch of nothing but such files is no change at all."""
    from watchfiles import Change

    from pnp.watch import saved

    real = tmp_path / "cards.csv"
    real.write_text("id\n")
    gone = str(tmp_path / "sedtl0ElG")
    assert saved({(Change.added, gone), (Change.deleted, gone), (Change.modified, str(real))}) == ["cards.csv"]
    assert saved({(Change.added, gone), (Change.deleted, gone)}) == []
    assert saved({(Change.deleted, str(tmp_path / "old.yaml"))}) == ["old.yaml"]      # a real deletion
    assert saved({(Change.added, str(real))}) == ["cards.csv"]
