"""`pnp check`: composition rules (data/<game>/rules.yaml) plus print and language checks.

    from pnp.check import check_pack, exit_code
    findings = check_pack("cimiterio")          # list[Finding], sorted by file and line
    if any(f.severity == "error" for f in findings): ...

The rules are pnp.composition's (shared with `pnp build`); runner.py maps load problems to
findings by their code, printing.py renders every face through pnp.build.
"""
from pnp.check.findings import exit_code
from pnp.check.runner import ALL_CHECKS, check_pack
from pnp.composition.findings import ERROR, WARNING, Finding

__all__ = ["ALL_CHECKS", "ERROR", "WARNING", "Finding", "check_pack", "exit_code"]
