"""Write translations back into `text/<lang>.yaml` without disturbing the rest of the file.

ruamel.yaml's round-trip mode keeps comments, key order, flow/block style and quoting; a file that
is loaded and dumped unchanged comes out byte for byte the same. New keys go where the source
language has them: right after the nearest preceding sibling the file already has.

Every text written reads back as exactly the same string: the file is re-read with the pack's own
loader (PyYAML, YAML 1.1, `pnp.yamlsource`), and a value that would not come back as that string
(`No`, `3:2` (sexagesimal: 182), `1e3`, `~`, `2024-01-01`, leading spaces...) in the style it was
given is written double-quoted instead.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, ScalarString

from pnp.i18n.plurals import CATEGORIES
from pnp.outputfiles import write_text_atomically


class YamlEditError(Exception):
    """The file cannot take the texts (its shape, or YAML ruamel refuses); `line` and `key` say where."""

    def __init__(self, message: str, line: int = 0, key: str = ""):
        super().__init__(message)
        self.line = line
        self.key = key


DOUBLE_QUOTED = DoubleQuotedScalarString("\"")     # the style of a text that must be quoted


def _yaml() -> YAML:
    y = YAML()                     # round-trip
    y.preserve_quotes = True
    y.width = 4096                 # never re-wrap a translator's lines
    y.allow_unicode = True
    return y


def _find(node: CommentedMap, part: str):
    for existing in node:
        if str(existing) == part:
            return existing
    return None


def _styled(text: str, like) -> str:
    """`text` in the quoting style of `like` (a ruamel scalar string), else plain."""
    if isinstance(like, ScalarString):
        return type(like)(text)
    return text


def _sibling_style(node: CommentedMap):
    for value in node.values():
        if isinstance(value, ScalarString):
            return value
    return None


def _children_order(order: list[str], prefix: tuple[str, ...]) -> list[str]:
    """Names of the children of `prefix`, in source order."""
    names: dict[str, None] = {}
    depth = len(prefix)
    for key in order:
        parts = tuple(key.split("."))
        if len(parts) > depth and parts[:depth] == prefix:
            names.setdefault(parts[depth], None)
    return list(names)


def _insert(node: CommentedMap, name: str, value, order: list[str], prefix: tuple[str, ...]) -> None:
    siblings = _children_order(order, prefix)
    position = 0
    if name in siblings:
        keys = [str(k) for k in node]
        for before in reversed(siblings[:siblings.index(name)]):
            if before in keys:
                position = keys.index(before) + 1
                break
        else:
            position = 0 if any(k in siblings for k in keys) else len(keys)
    else:
        position = len(node)
    node.insert(position, name, value)


def _plural_node(forms: dict[str, str], old, parent: CommentedMap, quote: bool = False) -> CommentedMap:
    like: Any = None
    if isinstance(old, dict):
        like = next((v for v in old.values() if isinstance(v, ScalarString)), None)
    elif isinstance(old, ScalarString):
        like = old
    like = DOUBLE_QUOTED if quote else like or _sibling_style(parent)
    node = CommentedMap()
    for cat in CATEGORIES:
        if cat in forms:
            node[cat] = _styled(forms[cat], like)
    flow = old.fa.flow_style() if isinstance(old, CommentedMap) else parent.fa.flow_style()
    if flow:
        node.fa.set_flow_style()
    else:
        node.fa.set_block_style()
    return node


def set_texts(file: Path, updates: dict[str, str | dict[str, str]], order: list[str]) -> None:
    """Set each dotted key of `updates` (a string, or a plural mapping category -> form) in `file`.
    `order` is the source language's key order, used to place new keys."""
    write_text_atomically(file, render_texts(file, updates, order))


def render_texts(file: Path, updates: dict[str, str | dict[str, str]], order: list[str]) -> str:
    """The text `file` has once `updates` are set (see `set_texts`); nothing is written. Each value
    reads back with the pack's loader as exactly the text given (double-quoted where it must be)."""
    quoted: set[str] = set()
    while True:
        text = _render(file, updates, order, quoted)
        wrong = _not_read_back(file, text, updates)
        if not wrong:
            return text
        if wrong <= quoted:        # double quotes did not help: never write what would not read back
            key = sorted(wrong)[0]
            raise YamlEditError(f"{file}: cannot write {key!r} so that it reads back as the same text", 0, key)
        quoted |= wrong


def _not_read_back(file: Path, text: str, updates: dict[str, str | dict[str, str]]) -> set[str]:
    """The keys of `updates` that `text`, read as the pack reads it, does not hold as given."""
    from pnp.errors import Problems
    from pnp.yamlsource import parse_source

    source = parse_source(file, text, Problems())
    root = source.value if source is not None else None
    wrong = set()
    for key, value in updates.items():
        node: Any = root
        for part in key.split("."):
            node = next((v for k, v in node.items() if str(k) == part), None) if isinstance(node, dict) else None
        if not _same(node, value):
            wrong.add(key)
    return wrong


def _same(read: Any, value: str | dict[str, str]) -> bool:
    if isinstance(value, dict):
        return isinstance(read, dict) and len(read) == len(value) and \
            all(_same(read.get(cat), form) for cat, form in value.items())
    return type(read) is str and read == value


def _render(file: Path, updates: dict[str, str | dict[str, str]], order: list[str], quoted: set[str]) -> str:
    y = _yaml()
    text = file.read_text(encoding="utf-8") if file.is_file() else ""
    try:
        root = y.load(text) if text.strip() else None
    except YAMLError as error:           # the loader accepted it; ruamel's round trip is stricter
        mark = getattr(error, "problem_mark", None)
        raise YamlEditError(f"cannot edit the file: {error}", (mark.line + 1) if mark else 0) from None
    if root is None:
        root = CommentedMap()
    if not isinstance(root, CommentedMap):
        raise YamlEditError(f"{file}: expected a mapping of texts")
    for key, value in updates.items():
        parts = key.split(".")
        node = root
        for depth, part in enumerate(parts[:-1]):
            existing = _find(node, part)
            if existing is None:
                child = CommentedMap()
                if node.fa.flow_style():
                    child.fa.set_flow_style()
                _insert(node, part, child, order, tuple(parts[:depth]))
                node = child
            elif isinstance(node[existing], CommentedMap) and not _is_plural(node[existing]):
                node = node[existing]
            else:
                raise YamlEditError(f"{file}: cannot set {key!r}: {'.'.join(parts[:depth + 1])!r} is a text, not a group",
                                    _line(node, existing), key)
        last = parts[-1]
        existing = _find(node, last)
        old = node[existing] if existing is not None else None
        if isinstance(old, CommentedMap) and not _is_plural(old):
            raise YamlEditError(f"{file}: cannot set {key!r}: it is a group of texts", _line(node, existing), key)
        like = DOUBLE_QUOTED if key in quoted else old if old is not None else _sibling_style(node)
        new: Any = _plural_node(value, old, node, key in quoted) if isinstance(value, dict) else \
            _styled(value, like)
        if existing is not None:
            node[existing] = new
        else:
            _insert(node, last, new, order, tuple(parts[:-1]))
    out = io.StringIO()
    y.dump(root, out)
    return out.getvalue()


def _line(node: CommentedMap, key) -> int:
    """The 1-based line of `key` in its mapping (0 when ruamel does not know it)."""
    try:
        return node.lc.key(key)[0] + 1
    except (AttributeError, KeyError, TypeError):
        return 0


def _is_plural(node) -> bool:
    return isinstance(node, dict) and bool(node) and all(str(k) in CATEGORIES for k in node)
