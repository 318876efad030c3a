"""A finding: one thing a rule (or `pnp check`) has to say about a pack, with where to fix it.

The composition rules make findings with the severity their rule declares; `pnp check` adds its
load, print and language findings of the same type, and `pnp build` refuses a deck with errors.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pnp.errors import display_path, location

ERROR = "error"
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)


@dataclass(frozen=True)
class Finding:
    severity: str           # "error" | "warning"
    rule: str               # rule id, e.g. "tombs.pairing" (rules.yaml) or "text.fit" (built in)
    file: str               # display path of the file to fix
    line: int               # 1-based; 0 when the file as a whole is meant
    key: str                # the key, card or entry, e.g. "card zombie-07.deceased"
    message: str
    hint: str = ""
    game: str = ""
    fatal: bool = False     # the pack cannot be used (does not load, broken rules file): exit 2
    lang: str = ""          # the language it concerns, when it is one
    face: str = ""          # "front" / "back" when it concerns one face of a card
    detail: tuple = ()      # machine-readable facts, e.g. (("text_key", "item.pan"),)

    def sort_key(self) -> tuple:
        return (self.game, self.file, self.line, self.rule, self.key, self.lang, self.face, self.message)

    def get(self, name: str, default: Any = None) -> Any:
        """A value of `detail` by name."""
        return dict(self.detail).get(name, default)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["detail"] = dict(self.detail)
        return data

    def __str__(self) -> str:
        where = location(self.file, self.line, self.key, f"{self.severity} [{self.rule}]", self.lang, self.face)
        text = f"{where} {self.message}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text


def finding(severity: str, rule: str, file: Path | str, line: int, key: str, message: str, hint: str = "",
            game: str = "", fatal: bool = False, lang: str = "", face: str = "", **detail: Any) -> Finding:
    return Finding(severity, rule, display_path(file) if file else "", int(line or 0), key, message, hint, game,
                   fatal, lang, face, tuple(sorted(detail.items())))
