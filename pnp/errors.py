"""Errors users see as messages, never as tracebacks.

Every data problem is a `Problem` naming file, line and key; a `DataError` carries all of them at
once so a designer fixes a pack in one pass. Both are `ClickException`s with exit status 2.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

USAGE_ERROR_EXIT = 2


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, with where to fix it.

    `code` is given where the problem is made (``schema.unknown-key``, ``yaml.syntax``,
    ``text.fit``...): whoever reports it reads the code, never the wording of `message`.
    `lang` and `face` say which build language and card face it concerns, when it is one."""

    file: str
    line: int
    key: str
    message: str
    snippet: str = ""
    code: str = "invalid"
    lang: str = ""
    face: str = ""
    detail: tuple = ()      # machine-readable facts for reporters, e.g. (("text_key", "ui.move"),)

    def __str__(self) -> str:
        text = f"{location(self.file, self.line, self.key, lang=self.lang, face=self.face)} {self.message}"
        if self.snippet:
            text += f"\n    | {self.snippet}"
        return text

    def get(self, name: str, default=None):
        """A value of `detail` by name."""
        return dict(self.detail).get(name, default)


def location(file: str, line: int, key: str, severity: str = "", lang: str = "", face: str = "") -> str:
    """'file:line: [severity] key: [lang] face:' as every report prints it (line 0: the file as a
    whole; the language and card face when the problem concerns one)."""
    where = f"{file}:{line}" if line else file
    parts = [f"{where}:"]
    if severity:
        parts.append(severity)
    if key:
        parts.append(f"{key}:")
    if lang:
        parts.append(f"[{lang}]")
    if face:
        parts.append(f"{face}:")
    return " ".join(parts)


class PnpError(click.ClickException):
    """A failure with a message for the user (exit status 2: the input cannot be used)."""

    exit_code = USAGE_ERROR_EXIT

    def show(self, file=None) -> None:  # noqa: D102 - click's hook; no "Error:" prefix for lists
        click.echo(self.format_message(), err=True)


class OutputError(PnpError):
    """A file or folder the build could not write: a read-only or full disk, a file where a
    folder should be. Nothing of that build is left half-written (see pnp.sheets.pdfcommon)."""

    @classmethod
    def writing(cls, error: OSError, path: Path | str | None = None) -> OutputError:
        """'cannot write <path>: <reason> (errno N)'; `path` overrides the error's own file name
        (a staged file's final place, say)."""
        return cls(f"cannot write {os_error_text(error, path)}")


class InternalError(PnpError):
    """The last resort for a failure pnp has no better message for (a RecursionError, a
    MemoryError): one line and a hint to report it, never a traceback."""

    @classmethod
    def from_exception(cls, error: BaseException, command: str) -> InternalError:
        detail = f": {error}" if str(error) else ""
        return cls(f"pnp {command}: internal error, {type(error).__name__}{detail}. The input may be larger or "
                   "deeper than pnp can handle. Please report it with the command and the pack that caused it.")


def os_error_text(error: OSError, path: Path | str | None = None) -> str:
    """'<path>: <reason> (errno N)' for an OSError (the path left out when nobody knows it)."""
    where = path if path is not None else error.filename
    reason = error.strerror or str(error) or type(error).__name__
    number = f" (errno {error.errno})" if error.errno else ""
    if where is None or where == "":
        return f"{reason}{number}"
    shown = display_path(where) if isinstance(where, (str, Path)) else str(where)   # an fd number, bytes
    return f"{shown}: {reason}{number}"


class DataError(PnpError):
    """One or more problems in a data pack, all reported together."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        count = len(self.problems)
        header = f"{count} problem{'s' if count != 1 else ''} in the data:"
        super().__init__("\n".join([header, *(str(p) for p in self.problems)]))


class Problems:
    """Collects problems while a pack is read, so validation can go on after the first one."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, code: str, file: Path | str, line: int, key: str, message: str, snippet: str = "",
            **detail) -> None:
        """Record a problem; `code` names what went wrong (see Problem), `detail` its facts."""
        lang = detail.pop("lang", "")
        face = detail.pop("face", "")
        self.items.append(Problem(display_path(file), line, key, message, snippet, code, lang, face,
                                  tuple(sorted(detail.items()))))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise DataError(self.items)


SNIPPET_CHARS = 160     # a file's line quoted under a message: at most this long


def shortened(text: str, limit: int = 60) -> str:
    """`text` as a message quotes it: at most `limit` characters, the last an ellipsis when cut."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def display_path(path: Path | str) -> str:
    """A path relative to the working directory when it is below it, else absolute."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
