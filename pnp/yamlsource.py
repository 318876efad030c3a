"""YAML that remembers where every value came from.

PyYAML's composed node tree keeps line marks; we construct plain Python values from it and keep a
`Where` (file, line) for each mapping key and list item, so later validation can name the line of
the offending key. Duplicate keys, which PyYAML silently accepts, are reported.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import SNIPPET_CHARS, Problems, shortened
from pnp.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_TEXT_CHARS, MAX_VALUES  # bounds on one file

Path_ = tuple  # a key path such as ("decks", 0, "cards")


@dataclass
class Source:
    """A loaded YAML file: its value and the line of every key path inside it."""

    file: Path
    value: Any
    lines: dict[tuple, int]
    text_lines: list[str]

    def line(self, path: tuple) -> int:
        """Line of `path`, or of its nearest ancestor that has one."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def missing(self, path: tuple) -> str | None:
        """What the file holds at `path`, the place of a required key it lacks: None when the key is
        simply not written (the validator says it is missing). A spreadsheet names its empty cell,
        or says '' when its reader has reported the absence already (a sheet without that column)."""
        return None

    def snippet(self, path: tuple) -> str:
        """The line of `path` as a message shows it: stripped, cut to SNIPPET_CHARS (one line of a
        flow-style file can hold a whole deck)."""
        number = self.line(path)
        if 1 <= number <= len(self.text_lines):
            return shortened(self.text_lines[number - 1].strip(), SNIPPET_CHARS)
        return ""


# libyaml's composer when PyYAML was built with it (6-13x faster, the same nodes and line marks)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
# The safe loader's value makers by tag (int, float, bool, null, timestamp, binary...), called on
# each scalar node directly: SafeConstructor.construct_object would also remember every node it
# ever made in a table that lives as long as the constructor (every value of every file, for good).
_SCALARS = yaml.constructor.SafeConstructor.yaml_constructors
_constructor = yaml.constructor.SafeConstructor()     # holds no state the scalar makers use
_UNREADABLE = object()                                # a scalar reported as a problem


class _TooLarge(Exception):
    """The file expands past MAX_VALUES values or nests past MAX_DEPTH levels."""


class _Builder:
    """Plain Python values from one file's composed nodes, the line of every key path in `lines`."""

    def __init__(self, file: Path, problems: Problems):
        self.file, self.problems = file, problems
        self.lines: dict[tuple, int] = {}
        self.budget = MAX_VALUES

    def value(self, node: yaml.Node, path: tuple):
        self.budget -= 1
        if self.budget < 0:
            raise _TooLarge(f"the file expands to more than {MAX_VALUES:,} values (YAML aliases?)")
        if len(path) > MAX_DEPTH:
            raise _TooLarge(f"values nest more than {MAX_DEPTH} levels deep")
        lines = self.lines
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                child = path + (index,)
                lines[child] = item.start_mark.line + 1
                items.append(self.value(item, child))
            return items
        if len(node.value) > MAX_TEXT_CHARS:
            # reported, not raised: the rest of the file is still checked (a long text is one defect)
            self.problems.add("yaml.too-large", self.file, node.start_mark.line + 1, _dotted(path),
                              f"a value of {len(node.value):,} characters, more than the "
                              f"{MAX_TEXT_CHARS:,} one value may hold")
        if node.tag == _STR:
            return node.value
        value = self.scalar(node, path)
        return None if value is _UNREADABLE else value

    def mapping(self, node: yaml.MappingNode, path: tuple) -> dict:
        result: dict = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if key_node.tag == _MERGE:
                self.problems.add("yaml.unsupported", self.file, line, "<<", "YAML merge keys are not supported")
                continue
            if isinstance(key_node, yaml.ScalarNode):
                key = key_node.value if key_node.tag == _STR else self.scalar(key_node, path)
            else:                                                  # `? [a, b]`: a list or mapping as a key
                key = yaml.constructor.SafeConstructor().construct_object(key_node, deep=True)
            if key is _UNREADABLE:
                continue
            if not isinstance(key, (str, int)):
                self.problems.add("yaml.unsupported", self.file, line, str(key), "keys must be plain words")
                continue
            child = path + (key,)
            if key in result:
                self.problems.add("yaml.duplicate-key", self.file, line, _dotted(child),
                                  f"duplicate key {key!r} (first on line {self.lines[child]})")
                continue
            self.lines[child] = line
            result[key] = self.value(value_node, child)
        return result

    def scalar(self, node: yaml.Node, path: tuple):
        """A number, true/false, null, date...; a tag the safe loader does not know (`!foo`,
        `!!python/object`) or a value its tag cannot read (`!!int abc`) is a problem (_UNREADABLE)."""
        make = _SCALARS.get(node.tag)
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        try:
            if make is None:
                raise yaml.constructor.ConstructorError(None, None, f"the tag {tag} is not supported")
            return make(_constructor, node)
        except (yaml.YAMLError, ValueError, TypeError) as error:
            shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
            reason = getattr(error, "problem", None) or f"cannot read {shown!r} as {tag}"
            self.problems.add("yaml.unsupported", self.file, node.start_mark.line + 1, _dotted(path),
                              f"{reason} (write plain YAML values: text, numbers, true/false, lists, mappings)")
            return _UNREADABLE


# A scalar or flow collection left open: the parser notices only where it ends (often the end of the
# file), and its context mark is where it opened, the place to fix.
_OPENED = {"while scanning a quoted scalar": "quote", "while parsing a flow mapping": "'{'",
           "while parsing a flow sequence": "'['"}


def syntax_error(error: yaml.YAMLError, text: str) -> tuple[int, str]:
    """(line, message) of a YAML syntax error: the line of the parser's problem, or of the quote or
    bracket left open that it comes from ("the quote opened at line 5 is never closed")."""
    mark = getattr(error, "problem_mark", None)
    line = mark.line + 1 if mark else 0
    reason = getattr(error, "problem", None) or str(error)
    opened = getattr(error, "context_mark", None)
    what = _OPENED.get(str(getattr(error, "context", "")))
    if mark is None or opened is None or what is None or opened.line >= mark.line:
        return line, f"YAML syntax error: {reason}"
    if what == "quote":
        lines = text.splitlines()
        char = lines[opened.line][opened.column] if opened.line < len(lines) and opened.column < len(lines[opened.line]) else ""
        what = {'"': "double quote (\")", "'": "single quote (')"}.get(char, what)
    index = getattr(mark, "index", None)
    if index is not None and not text[index:].strip():
        told = f"is never closed: the file ends inside it (YAML syntax error: {reason})"
    else:
        told = f"is not closed before line {line} (YAML syntax error: {reason})"
    return opened.line + 1, f"the {what} opened at line {opened.line + 1} {told}"


def load_shipped(path: Path) -> Any:
    """A file pnp ships (sheet layouts, sheet words, conventions), parsed by libyaml when PyYAML has
    it: the pure-Python parser took a tenth of a small build's start. No line marks: pnp's own data
    is checked by its tests, not reported to a designer."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)   # noqa: S506 - a safe loader


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


dotted = _dotted


def _read_text(file: Path, problems: Problems) -> str | None:
    """The file's text, or None with a problem: missing, not a regular file (a FIFO would block
    forever), larger than MAX_FILE_BYTES (refused unread), or not UTF-8."""
    data = read_bounded(file, problems)
    if data is None:
        return None
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")   # as read_text() reads it
    except UnicodeDecodeError as error:
        line, where = not_utf8(data, error)
        problems.add("pack.file", file, line, "", f"not UTF-8 ({where}): save the file as UTF-8")
        return None


def not_utf8(data: bytes, error: UnicodeDecodeError) -> tuple[int, str]:
    """(line, "byte 0x.. at column ..") of the first byte of `data` that is not UTF-8, as a
    designer finds it in an editor (lines and columns count from 1, columns in bytes)."""
    line = data.count(b"\n", 0, error.start) + 1
    column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
    return line, f"byte 0x{data[error.start]:02x} at column {column}"


def read_bounded(file: Path, problems: Problems) -> bytes | None:
    """The bytes of a file pnp reads (a pack's, a game record...), or None with a problem:
    missing, not a regular file (a FIFO would block forever), or larger than MAX_FILE_BYTES
    (refused unread)."""
    try:
        if not file.is_file():
            problems.add("pack.file", file, 0, "", "file not found" if not file.exists() else "not a regular file")
            return None
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            problems.add("yaml.too-large", file, 0, "", f"the file is {size / 2**20:.1f} MB, more than the "
                         f"{MAX_FILE_BYTES / 2**20:g} MB pnp reads from one file", size=size)
            return None
        with file.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)   # bounded even if the file grows meanwhile
        if len(data) > MAX_FILE_BYTES:
            problems.add("yaml.too-large", file, 0, "", f"the file is more than the {MAX_FILE_BYTES / 2**20:g} MB "
                         "pnp reads from one file")
            return None
        return data
    except OSError as error:
        problems.add("pack.file", file, 0, "", f"cannot read: {error}")
        return None


def load_source(file: Path, problems: Problems) -> Source | None:
    """Load one YAML file; syntax errors become problems (and None)."""
    text = read_source_text(file, problems)
    if text is None:
        return None
    return parse_source(file, text, problems)


def read_source_text(file: Path, problems: Problems) -> str | None:
    """A pack file's text as load_source reads it (None with a problem when it cannot be read)."""
    return _read_text(file, problems)


def parse_source(file: Path, text: str, problems: Problems) -> Source | None:
    """load_source of a file whose text is read already (pnp.loadcache hashes it first)."""
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except RecursionError:
        problems.add("yaml.too-large", file, 0, "", f"values nest more than {MAX_DEPTH} levels deep")
        return None
    except yaml.YAMLError as error:
        line, message = syntax_error(error, text)
        snippet = text.splitlines()[line - 1].strip() if 0 < line <= len(text.splitlines()) else ""
        problems.add("yaml.syntax", file, line, "", message, snippet)
        return None
    builder = _Builder(file, problems)
    try:
        value = None if node is None else builder.value(node, ())
    except _TooLarge as error:
        problems.add("yaml.too-large", file, max(builder.lines.values(), default=0), "", str(error))
        return None
    return Source(file, value, builder.lines, text.splitlines())
