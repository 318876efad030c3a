"""Composition rules: what a game's deck and components must be (`data/<game>/rules.yaml`).

    from pnp.composition import check_composition
    findings = check_composition(pack)      # list[Finding]: the rules file's problems, or what the rules find

Used by `pnp build` (it refuses a deck with errors) and `pnp check` (it reports them with its own
load, print and language findings). Imports neither of them.

- schema.py    the rules file's keys and every rule kind's, declared once (pnp.schema)
- rules.py     what each kind checks; loading and running
- items.py     what a rule looks at: cards and collection entries, with their files and lines
- findings.py  Finding, the one report line of rules and checks
"""
from pnp.composition.findings import ERROR, SEVERITIES, WARNING, Finding, finding
from pnp.composition.rules import check_composition, load_rules, run_rules

__all__ = ["ERROR", "SEVERITIES", "WARNING", "Finding", "check_composition", "finding", "load_rules", "run_rules"]
