"""`pnp check`: composition rules (data/<game>/rules.yaml) plus print and language checks.

    from pnp.check import check_pack, exit_code
    findings = check_pack("cimiterio")          # list[Finding], sorted by file and line
    if any(f.severity == "error" for f in findings): ...

See rules.py for the rule vocabulary and printing.py for the built-in checks.
"""
from pnp.check.findings import ERROR, WARNING, Finding, exit_code
from pnp.check.runner import ALL_CHECKS, check_pack

__all__ = ["ALL_CHECKS", "ERROR", "WARNING", "Finding", "check_pack", "exit_code"]
