"""Helpers for the games' ``validate_position``: findings as (key path, message), ranges, and
"every piece or card at most once" across the places of a position."""
from __future__ import annotations

from typing import Any, Callable, Iterable

Finding = tuple[tuple, str]
BIG = 10 ** 9     # counters (turns, scores) above this are not a game anybody played


def where(path: tuple) -> str:
    """A key path inside a position as a message quotes it: ``stacks.1,7[0]``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Findings:
    """The problems of one position, in the order they are found."""

    def __init__(self) -> None:
        self.items: list[Finding] = []

    def add(self, path: tuple, message: str) -> None:
        self.items.append((path, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def in_range(self, value: Any, path: tuple, lo: int, hi: int, what: str) -> bool:
        """``value`` is a whole number in lo..hi, else a finding naming ``what``."""
        if is_int(value) and lo <= value <= hi:
            return True
        self.add(path, f"{what} must be a whole number in {lo}..{hi}, not {value!r}")
        return False

    def seat(self, value: Any, path: tuple, players: int, what: str = "seat") -> bool:
        return self.in_range(value, path, 0, players - 1, f"{what} (0-based, {players} players)")

    def per_seat(self, value: Any, path: tuple, players: int, what: str) -> bool:
        """``value`` is a list with one entry per seat."""
        if isinstance(value, list) and len(value) == players:
            return True
        self.add(path, f"{what}: one entry per seat ({players}), not {_count(value)}")
        return False

    def parsed(self, parse: Callable[[Any], Any], value: Any, path: tuple, what: str) -> Any:
        """``parse(value)``, or None and a finding when the game's notation refuses it."""
        try:
            return parse(value)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as error:
            self.add(path, f"{what} {value!r}: {_reason(error)}")
            return None


class Once:
    """Every piece or card at most once across the places of a position."""

    def __init__(self, findings: Findings, place_text: Callable[[tuple], str] = where) -> None:
        self.findings = findings
        self.place_text = place_text
        self.first: dict[Any, tuple] = {}

    def see(self, item: Any, path: tuple, name: str) -> bool:
        """Note ``item`` (named ``name``) at ``path``; False and a finding when it was already
        placed somewhere else."""
        if item in self.first:
            self.findings.add(path, f"{name} is in two places: {self.place_text(self.first[item])} "
                                    f"and {self.place_text(path)}")
            return False
        self.first[item] = path
        return True

    def missing(self, items: Iterable, path: tuple, name: Callable[[Any], str]) -> None:
        """A full snapshot holds every piece: a finding listing those placed nowhere."""
        absent = [name(i) for i in items if i not in self.first]
        if absent:
            shown = ", ".join(absent[:8]) + (f" and {len(absent) - 8} more" if len(absent) > 8 else "")
            self.findings.add(path, f"placed nowhere: {shown}")


def _count(value: Any) -> str:
    return f"{len(value)} entries" if isinstance(value, list) else repr(value)


def _reason(error: Exception) -> str:
    """The notation's own explanation (a KeyError's text is only the key, so say what it is)."""
    if isinstance(error, KeyError):
        return "not known"
    return str(error) or type(error).__name__


class TwoFormChecks:
    """``validate_position`` for a game whose records give a position in two forms: a to_dict()
    snapshot (``{"state": ...}``) or the game's compact form; the game supplies both checks."""

    def validate_position(self, position: dict) -> list[Finding]:
        found = Findings()
        if "state" in position:
            self._check_snapshot(position["state"], found)
        else:
            self._check_compact(position, found)
        return found.items

    def _check_snapshot(self, state: dict, found: Findings) -> None:
        raise NotImplementedError

    def _check_compact(self, position: dict, found: Findings) -> None:
        raise NotImplementedError
