"""A finding: one thing `pnp check` has to say about a pack, with where to fix it."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from pnp.errors import display_path, location

ERROR = "error"
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_UNUSABLE = 2


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

    def sort_key(self) -> tuple:
        return (self.game, self.file, self.line, self.rule, self.key, self.message)

    def to_dict(self) -> dict:
        data = asdict(self)
        return data

    def __str__(self) -> str:
        text = f"{location(self.file, self.line, self.key, f'{self.severity} [{self.rule}]')} {self.message}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text


def finding(severity: str, rule: str, file: Path | str, line: int, key: str, message: str, hint: str = "",
            game: str = "", fatal: bool = False) -> Finding:
    return Finding(severity, rule, display_path(file) if file else "", int(line or 0), key, message, hint, game, fatal)


def exit_code(findings: list[Finding], strict: bool = False) -> int:
    if any(f.fatal for f in findings):
        return EXIT_UNUSABLE
    if any(f.severity == ERROR for f in findings):
        return EXIT_FINDINGS
    if strict and findings:
        return EXIT_FINDINGS
    return EXIT_CLEAN
