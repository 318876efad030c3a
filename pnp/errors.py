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
    file: str
    line: int
    key: str
    message: str
    snippet: str = ""

    def __str__(self) -> str:
        text = f"{location(self.file, self.line, self.key)} {self.message}"
        if self.snippet:
            text += f"\n    | {self.snippet}"
        return text


def location(file: str, line: int, key: str, severity: str = "") -> str:
    """'file:line: [severity] key:' as every report prints it (line 0: the file as a whole)."""
    where = f"{file}:{line}" if line else file
    parts = [f"{where}:"]
    if severity:
        parts.append(severity)
    if key:
        parts.append(f"{key}:")
    return " ".join(parts)


class PnpError(click.ClickException):
    """A failure with a message for the user (exit status 2: the input cannot be used)."""

    exit_code = USAGE_ERROR_EXIT

    def show(self, file=None) -> None:  # noqa: D102 - click's hook; no "Error:" prefix for lists
        click.echo(self.format_message(), err=True)


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

    def add(self, file: Path | str, line: int, key: str, message: str, snippet: str = "") -> None:
        self.items.append(Problem(display_path(file), line, key, message, snippet))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise DataError(self.items)


def display_path(path: Path | str) -> str:
    """A path relative to the working directory when it is below it, else absolute."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
