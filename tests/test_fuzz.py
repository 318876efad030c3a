"""Fuzzing the CLI with broken input (hardening issue 14, item 8).

Hypothesis mutates copies of the shipped packs, the scenario records and the PO files that
`pnp i18n export` writes: it deletes a key, duplicates a list item, changes a value's type, puts
hostile characters into strings, cuts a file short or empties it. Whatever the input, every
command must end with exit 0, 1 or 2, print no traceback, finish in bounded time and memory, and
leave no half-written output behind (no `*.tmp`; no PDF after a failed build; no changed text
file after a failed import).

Each example runs the real console script in a child process with a timeout and a memory limit,
so a hang or a runaway allocation fails the test instead of stalling the run. The budget is small
and derandomized so CI is quick and deterministic; PNP_FUZZ_EXAMPLES=60 raises it for a long
local run.
"""
from __future__ import annotations

import copy
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po, write_po
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data"
SCENARIOS = REPO / "tests" / "scenarios"
GAMES = sorted(p.name for p in DATA.iterdir() if (p / "pack.yaml").is_file())
# perft tables are not game records: `pnp replay` only takes records
RECORDS = sorted(str(p.relative_to(SCENARIOS)) for p in SCENARIOS.glob("*/*.yaml") if p.name != "perft.yaml")

EXAMPLES = int(os.environ.get("PNP_FUZZ_EXAMPLES", "8"))
TIMEOUT = 60                  # seconds per command; a slower one counts as a hang
MEMORY = 2 << 30              # bytes of address space per command; a normal build needs < 1 GiB
EXIT_CODES = {0, 1, 2}

SCRIPT = Path(sys.executable).with_name("pnp")
PNP = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-c", "from pnp.cli import main; main()"]

HUGE = 10**12
HOSTILE = (
    "\x07", "\x00", "\u202e", "{{ 7*7 }}", "{% raw %}", "<b>&amp;", "../../etc/passwd", "x" * 100_000,
    "{n}", "{", "%s", "\ufeff", "\r", "\t", "-", ": ",
)
# bytes that only a raw edit can put in a file: invalid UTF-8, a lone surrogate, YAML syntax
HOSTILE_BYTES = tuple(s.encode() for s in HOSTILE) + (
    b"\xff\xfe", b"\xed\xa0\x80", b"\n- ", b"\n  ", b"&a *a", b"!!python/object/apply:os.system ['true']",
    b'"', b"'", b"[", b"{",
)
COMMON_RETYPES = (None, HUGE, -1, -HUGE, 0, "", [], {}, True, 1.5, float("nan"), float("inf"))


def fuzz(examples: int = EXAMPLES):
    """Hypothesis settings for one fuzz target: deterministic, no deadline (a child process takes
    seconds), no example database (nothing written into the checkout)."""
    return settings(max_examples=max(1, examples), deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ------------------------------------------------------------------------- running the CLI
@dataclass
class Run:
    args: list[str]
    code: int | None          # None: killed at the timeout
    output: str               # stdout then stderr

    @property
    def command(self) -> str:
        return "pnp " + " ".join(self.args)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_pnp(args: list[str], cwd: Path) -> Run:
    """`pnp ARGS` in a child process, in `cwd` so nothing lands in the checkout's output/."""
    try:
        done = subprocess.run(PNP + args, cwd=cwd, capture_output=True, timeout=TIMEOUT,
                              preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired as hung:
        partial = (hung.stdout or b"") + (hung.stderr or b"")
        return Run(args, None, partial.decode("utf-8", "replace"))
    return Run(args, done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace"))


def failures_of(run: Run, workdir: Path) -> list[str]:
    """What is wrong with how `run` ended, whatever its input was."""
    wrong = []
    if run.code is None:
        wrong.append(f"did not finish within {TIMEOUT}s")
    elif run.code not in EXIT_CODES:
        wrong.append(f"exit {run.code} (expected 0, 1 or 2)")
    if "Traceback" in run.output:
        wrong.append("printed a traceback")
    if run.code not in (0, None) and not run.output.strip():
        wrong.append("failed without saying why")
    leftovers = sorted(str(p.relative_to(workdir)) for p in workdir.rglob("*.tmp"))
    if leftovers:
        wrong.append(f"left temporary files {leftovers}")
    return wrong


def report(what: str, run: Run, wrong: list[str]) -> str:
    tail = "\n".join(run.output.strip().splitlines()[-15:])
    return f"{what}\n`{run.command}` -> exit {run.code}: {'; '.join(wrong)}\n{tail}"


# ------------------------------------------------------------------------- mutations
def _paths(node, prefix: tuple = ()) -> list[tuple]:
    """Every place in a parsed YAML value, the root first."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, prefix + (index,))
    return found


def _at(node, path: tuple):
    for part in path:
        node = node[part]
    return node


def _retypes(node) -> list:
    """Values of another type for `node`, the ones a schema most likely trips on first."""
    specific: list = []
    if isinstance(node, bool):
        specific = [str(node).lower(), 1]
    elif isinstance(node, int):
        specific = [str(node), -node, HUGE * (node or 1)]
    elif isinstance(node, str):
        specific = [[node], {node: node}, 7]
    elif isinstance(node, dict):
        specific = [None, list(node.values()), "x"]
    elif isinstance(node, list):
        specific = [None, dict(enumerate(node)), "x"]
    return specific + [v for v in COMMON_RETYPES if v is not node]


@dataclass
class TreeMutation:
    """One edit of a parsed YAML file, written back with yaml.safe_dump."""
    file: str
    op: str                   # delete | duplicate | retype | hostile | hostile-key
    path: tuple
    value: object = None

    def apply(self, root):
        root = copy.deepcopy(root)
        if not self.path:                      # the whole document
            return self.value
        parent, last = _at(root, self.path[:-1]), self.path[-1]
        if self.op == "delete":
            del parent[last]
        elif self.op == "duplicate":
            parent.insert(last, copy.deepcopy(parent[last]))
        elif self.op == "hostile-key":
            items = [(self.value if k == last else k, v) for k, v in parent.items()]
            parent.clear()
            parent.update(items)
        else:
            parent[last] = self.value
        return root

    def write(self, base: Path, target: Path) -> None:
        data = yaml.safe_load((base / self.file).read_text(encoding="utf-8"))
        text = yaml.safe_dump(self.apply(data), allow_unicode=True, sort_keys=False)
        (target / self.file).write_text(text, encoding="utf-8")

    def __str__(self) -> str:
        return f"{self.file}: {self.op} at {list(self.path)} -> {_short(self.value)}"


@dataclass
class RawMutation:
    """One edit of a file's bytes: cut it at a byte, empty it, insert bytes, drop a line."""
    file: str
    op: str                   # truncate | empty | insert | delete-line
    offset: int = 0
    data: bytes = b""

    def apply(self, raw: bytes) -> bytes:
        if self.op == "truncate":
            return raw[:self.offset]
        if self.op == "empty":
            return b""
        if self.op == "insert":
            return raw[:self.offset] + self.data + raw[self.offset:]
        lines = raw.splitlines(keepends=True)
        return b"".join(lines[:self.offset] + lines[self.offset + 1:])

    def write(self, base: Path, target: Path) -> None:
        (target / self.file).write_bytes(self.apply((base / self.file).read_bytes()))

    def __str__(self) -> str:
        return f"{self.file}: {self.op} at {self.offset} {_short(self.data) if self.data else ''}".rstrip()


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text)} chars)"


@st.composite
def tree_mutations(draw, base: Path, files: list[str]):
    file = draw(st.sampled_from(files))
    data = yaml.safe_load((base / file).read_text(encoding="utf-8"))
    path = draw(st.sampled_from(_paths(data)))
    node = _at(data, path)
    parent = _at(data, path[:-1]) if path else None
    ops = ["retype", "hostile"]
    if path:
        ops.insert(0, "delete")
    if isinstance(parent, list):
        ops.append("duplicate")
    if isinstance(parent, dict):
        ops.append("hostile-key")
    op = draw(st.sampled_from(ops))
    value: object = None
    if op == "retype":
        value = draw(st.sampled_from(_retypes(node)))
    elif op == "hostile":
        bad = draw(st.sampled_from(HOSTILE))
        if isinstance(node, str):
            at = draw(st.integers(0, len(node)))
            value = node[:at] + bad + node[at:]
        else:
            value = bad
    elif op == "hostile-key":
        bad = draw(st.sampled_from(HOSTILE))
        value = draw(st.sampled_from([f"{path[-1]}{bad}", bad]))
    return TreeMutation(file, op, path, value)


@st.composite
def raw_mutations(draw, base: Path, files: list[str]):
    file = draw(st.sampled_from(files))
    raw = (base / file).read_bytes()
    op = draw(st.sampled_from(["truncate", "insert", "empty", "delete-line"]))
    if op == "truncate":
        return RawMutation(file, op, draw(st.integers(0, max(0, len(raw) - 1))))
    if op == "insert":
        return RawMutation(file, op, draw(st.integers(0, len(raw))), draw(st.sampled_from(HOSTILE_BYTES)))
    if op == "delete-line":
        return RawMutation(file, op, draw(st.integers(0, max(0, len(raw.splitlines()) - 1))))
    return RawMutation(file, op)


def file_mutations(base: Path, files: list[str]):
    return st.one_of(tree_mutations(base, files), raw_mutations(base, files))


def pack_files(game: str) -> list[str]:
    pack = DATA / game
    return sorted(str(p.relative_to(pack)) for p in pack.rglob("*.yaml"))


def copy_pack(game: str, workdir: Path) -> Path:
    return Path(shutil.copytree(DATA / game, workdir / game))


# ------------------------------------------------------------------------- PO files
@dataclass
class PoMutation:
    """One edit of an exported PO file: of a message (through Babel's catalog) or of a header."""
    lang: str
    op: str                   # msgstr | drop-msgstr | msgctxt | delete | header
    index: int = 0            # which message (or which header line)
    value: object = None

    def apply(self, raw: bytes) -> bytes:
        if self.op == "header":
            name, text = self.value                            # type: ignore[misc]
            escaped = text.replace("\\", "\\\\").replace('"', '\\"')
            pattern = re.compile(rb'^"' + re.escape(name.encode()) + rb': [^\n]*$', re.M)
            return pattern.sub(lambda _: f'"{name}: {escaped}\\n"'.encode(), raw, count=1)
        catalog = read_po(BytesIO(raw))
        message = [m for m in catalog if m.id][self.index]
        if self.op == "delete":
            catalog.delete(message.id, context=message.context)
        elif self.op == "msgctxt":
            catalog.delete(message.id, context=message.context)
            message.context = self.value                        # type: ignore[assignment]
            catalog[message.id] = message
        elif self.op == "drop-msgstr":
            message.string = message.string[:-1] if isinstance(message.string, tuple) else ""
        else:
            strings = list(message.string) if isinstance(message.string, tuple) else [message.string]
            at, bad = self.value                                # type: ignore[misc]
            strings[0] = strings[0][:at] + bad + strings[0][at:]
            message.string = tuple(strings) if isinstance(message.string, tuple) else strings[0]
        out = BytesIO()
        write_po(out, catalog, width=0)
        return out.getvalue()

    def __str__(self) -> str:
        return f"{self.lang}.po: {self.op} of message/header {self.index} -> {_short(self.value)}"


HEADER_VALUES = ("", "xx", "en_US", "../../etc/passwd", "\u202e", "{{ 7*7 }}", "x" * 100_000)
HEADERS = ("Language", "Plural-Forms", "Content-Type")


@st.composite
def po_mutations(draw, po_dir: Path):
    lang = draw(st.sampled_from(sorted(p.stem for p in po_dir.glob("*.po"))))
    raw = (po_dir / f"{lang}.po").read_bytes()
    if draw(st.booleans()):
        return lang, draw(raw_mutations(po_dir, [f"{lang}.po"]))
    messages = [m for m in read_po(BytesIO(raw)) if m.id]
    op = draw(st.sampled_from(["msgstr", "delete", "msgctxt", "drop-msgstr", "header"]))
    if op == "header":
        values = HEADER_VALUES + ("nplurals=1; plural=0;", "nplurals=x; plural=(", "text/plain; charset=latin-1")
        return lang, PoMutation(lang, op, 0, (draw(st.sampled_from(HEADERS)), draw(st.sampled_from(values))))
    index = draw(st.integers(0, len(messages) - 1))
    value: object = None
    if op == "msgstr":
        first = messages[index].string
        first = first[0] if isinstance(first, tuple) else first
        value = (draw(st.integers(0, len(first))), draw(st.sampled_from(HOSTILE)))
    elif op == "msgctxt":
        other = messages[(index + 1) % len(messages)].context
        value = draw(st.sampled_from([other, None, "no.such.key", "", "../../etc/passwd", "\u202e"]))
    return lang, PoMutation(lang, op, index, value)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """exported(game) -> a folder with the PO files `pnp i18n export` writes for the shipped pack."""
    folders: dict[str, Path] = {}

    def get(game: str) -> Path:
        if game not in folders:
            work = tmp_path_factory.mktemp(f"po-{game}")
            run = run_pnp(["i18n", "export", str(copy_pack(game, work)), "--out", str(work / "po")], work)
            assert run.code == 0, run.output
            folders[game] = work / "po"
        return folders[game]
    return get


def _texts(pack: Path) -> dict[str, bytes]:
    return {str(p.relative_to(pack)): p.read_bytes() for p in sorted((pack / "text").rglob("*"))}


# ------------------------------------------------------------------------- the targets
def check_pack(game: str, mutation, as_json: bool) -> tuple[str, Run, list[str]]:
    """`pnp check --no-print` of a copy of `game` with `mutation` applied."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pack = copy_pack(game, work)
        mutation.write(DATA / game, pack)
        args = ["check", "--no-print", str(pack)] + (["--format", "json"] if as_json else [])
        run = run_pnp(args, work)
        return f"{game}/{mutation}", run, failures_of(run, work)


def build_pack(game: str, mutation) -> tuple[str, Run, list[str]]:
    """`pnp build --lang en` of a copy of `game` with `mutation` applied, into an empty folder."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pack = copy_pack(game, work)
        mutation.write(DATA / game, pack)
        out = work / "out"
        run = run_pnp(["build", str(pack), "--lang", "en", "--out", str(out)], work)
        wrong = failures_of(run, work)
        pdfs = sorted(str(p.relative_to(out)) for p in out.rglob("*.pdf")) if out.exists() else []
        if run.code != 0 and pdfs:
            wrong.append(f"failed but left PDFs {pdfs}")
        return f"{game}/{mutation}", run, wrong


def replay_record(mutation, flags: list[str]) -> tuple[str, Run, list[str]]:
    """`pnp replay GAME RECORD` of a mutated copy of a scenario record."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        record = work / mutation.file
        record.parent.mkdir(parents=True)
        mutation.write(SCENARIOS, work)
        run = run_pnp(["replay", *flags, record.parent.name, str(record)], work)
        return f"tests/scenarios/{mutation}", run, failures_of(run, work)


def import_po(game: str, po_dir: Path, lang: str, mutation) -> tuple[str, Run, list[str]]:
    """`pnp i18n import` of a mutated PO file into a copy of `game`; a pack it changed must still
    go through `pnp check --no-print`."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pack = copy_pack(game, work)
        before = _texts(pack)
        po = work / f"{lang}.po"
        po.write_bytes(mutation.apply((po_dir / f"{lang}.po").read_bytes()))
        run = run_pnp(["i18n", "import", str(pack), str(po)], work)
        wrong = failures_of(run, work)
        if run.code != 0 and _texts(pack) != before:
            wrong.append("failed but changed the pack's text files")
        if run.code == 0 and not wrong:
            then = run_pnp(["check", "--no-print", str(pack)], work)
            wrong += [f"after the import, `{then.command}`: {w}" for w in failures_of(then, work)]
            if wrong:
                run = then
        return f"{game}/{mutation}", run, wrong


@pytest.mark.parametrize("game", GAMES)
def test_an_unmutated_round_trip_is_clean(game, tmp_path):
    """The harness itself: every file re-written through yaml.safe_dump still checks clean, so
    any failure below comes from the mutation, not from the writing."""
    pack = copy_pack(game, tmp_path)
    for file in pack_files(game):
        data = yaml.safe_load((pack / file).read_text(encoding="utf-8"))
        (pack / file).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    run = run_pnp(["check", "--no-print", str(pack)], tmp_path)
    assert run.code == 0, run.output


@pytest.mark.parametrize("game", GAMES)
def test_check_survives_a_mutated_pack(game):
    @fuzz()
    @given(mutation=file_mutations(DATA / game, pack_files(game)), as_json=st.booleans())
    def fuzz_check(mutation, as_json):
        what, run, wrong = check_pack(game, mutation, as_json)
        assert not wrong, report(what, run, wrong)
    fuzz_check()


@fuzz()
@given(data=st.data())
def test_build_survives_a_mutated_pack(data):
    game = data.draw(st.sampled_from(GAMES), label="game")
    mutation = data.draw(file_mutations(DATA / game, pack_files(game)), label="mutation")
    what, run, wrong = build_pack(game, mutation)
    assert not wrong, report(what, run, wrong)


@fuzz()
@given(mutation=file_mutations(SCENARIOS, RECORDS),
       flags=st.sampled_from([[], ["--keep-going"], ["--json"], ["--keep-going", "--json"]]))
def test_replay_survives_a_mutated_record(mutation, flags):
    what, run, wrong = replay_record(mutation, flags)
    assert not wrong, report(what, run, wrong)


def test_i18n_import_survives_a_mutated_po(exported):
    @fuzz()
    @given(data=st.data())
    def fuzz_import(data):
        game = data.draw(st.sampled_from(GAMES), label="game")
        lang, mutation = data.draw(po_mutations(exported(game)), label="mutation")
        what, run, wrong = import_po(game, exported(game), lang, mutation)
        assert not wrong, report(what, run, wrong)
    fuzz_import()
