"""`pnp check`'s exit status from its findings (Finding itself: pnp.composition.findings)."""
from __future__ import annotations

from pnp.composition.findings import ERROR, Finding

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_UNUSABLE = 2


def exit_code(findings: list[Finding], strict: bool = False) -> int:
    if any(f.fatal for f in findings):
        return EXIT_UNUSABLE
    if any(f.severity == ERROR for f in findings):
        return EXIT_FINDINGS
    if strict and findings:
        return EXIT_FINDINGS
    return EXIT_CLEAN
