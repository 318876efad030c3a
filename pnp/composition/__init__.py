"""Composition rules: what a game's deck and components must be (`data/<game>/rules.yaml`).

    from pnp.composition import check_composition
    findings = check_composition(pack)      # list[Finding]: the rules file's problems, or what the rules find

Used by `pnp build` (it refuses a deck with errors) and `pnp check` (it reports them with its own
load, print and language findings). Imports neither of them. This package's __init__ imports
nothing: a build asks `has_rules` first, and a pack without a rules file never loads the checker
(its modules and dataclasses were 1.2 % of a 95-card build's instructions); the names below are
loaded from their modules when first used.

- schema.py    the rules file's keys and every rule kind's, declared once (pnp.schema)
- rules.py     what each kind checks; loading and running
- items.py     what a rule looks at: cards and collection entries, with their files and lines
- findings.py  Finding, the one report line of rules and checks
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.composition.findings import ERROR, SEVERITIES, WARNING, Finding, finding
    from pnp.composition.rules import check_composition, load_rules, run_rules

RULES_NAME = "rules.yaml"       # in the pack folder, beside pack.yaml

_FROM_FINDINGS = ("ERROR", "SEVERITIES", "WARNING", "Finding", "finding")
_FROM_RULES = ("check_composition", "load_rules", "run_rules")
__all__ = ["ERROR", "RULES_NAME", "SEVERITIES", "WARNING", "Finding", "check_composition", "finding", "has_rules",
           "load_rules", "run_rules"]


def has_rules(pack_root: Path) -> bool:
    """The pack has a rules file (broken or not): without one there is nothing to check."""
    return (pack_root / RULES_NAME).is_file()


def __getattr__(name: str) -> Any:
    if name in _FROM_FINDINGS:
        from pnp.composition import findings
        return getattr(findings, name)
    if name in _FROM_RULES:
        from pnp.composition import rules
        return getattr(rules, name)
    raise AttributeError(f"module 'pnp.composition' has no attribute {name!r}")
