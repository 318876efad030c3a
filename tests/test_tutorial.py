"""docs/tutorial.md is run, as written: every `$ ` line of its ```console blocks, in order, in an
empty folder, and every file change it marks (`<!-- tutorial: append|write|replace PATH -->` and
the fenced block after it) applied the same way a reader would. Each command must exit 0, and the
PDFs the tutorial promises must be there."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"
TIMEOUT_S = 300     # per command; a command that has not finished by then hangs
STEP = re.compile(r"<!-- tutorial: (append|write|replace) (\S+) -->\n```[^\n]*\n(.*?)```|```console\n(.*?)```",
                  re.DOTALL)


def steps(text: str) -> list[tuple[str, str, str]]:
    """(action, path or command, body) in the tutorial's order; a command's action is "run"."""
    found = []
    for match in STEP.finditer(text):
        action, path, body, console = match.groups()
        if console is not None:
            found += [("run", line[2:], "") for line in console.splitlines() if line.startswith("$ ")]
        else:
            found.append((action, path, body))
    return found


def apply(action: str, file: Path, body: str) -> None:
    if action == "write":
        file.write_text(body, encoding="utf-8")
    elif action == "append":
        text = file.read_text(encoding="utf-8")
        file.write_text(text + ("" if text.endswith("\n") else "\n") + body, encoding="utf-8")
    else:       # a diff: the `-` lines become the `+` lines
        lines = body.splitlines()
        old = "\n".join(line[1:] for line in lines if line.startswith("-"))
        new = "\n".join(line[1:] for line in lines if line.startswith("+"))
        text = file.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"the tutorial's change of {file} does not match it: {old!r}"
        file.write_text(text.replace(old, new), encoding="utf-8")


def run(command: str, cwd: Path) -> subprocess.CompletedProcess:
    words = shlex.split(command)
    assert words[0] == "pnp", f"the tutorial runs only pnp: {command}"
    return subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", *words[1:]], cwd=cwd,
                          capture_output=True, text=True, timeout=TIMEOUT_S)


def test_the_steps_are_found():
    found = steps(TUTORIAL.read_text(encoding="utf-8"))
    assert [action for action, _, _ in found].count("run") >= 6
    assert {action for action, _, _ in found} == {"run", "append", "write", "replace"}


def test_every_command_of_the_tutorial_runs(tmp_path):
    for action, what, body in steps(TUTORIAL.read_text(encoding="utf-8")):
        if action == "run":
            result = run(what, tmp_path)
            assert result.returncode == 0, f"$ {what}\n{result.stdout}{result.stderr}"
            assert "Traceback" not in result.stderr
        else:
            apply(action, tmp_path / what, body)
    out = tmp_path / "output" / "my-game"
    for lang in ("en", "it", "de"):
        assert (out / f"my-game-cards-{lang}-a4.pdf").read_bytes().startswith(b"%PDF-")
    assert list(out.glob("**/*.png")), "--png wrote no preview"
