"""check_pack: load a pack as far as it goes, then run its rules and the print checks."""
from __future__ import annotations

import re
from pathlib import Path

from pnp.check.findings import ERROR, Finding, finding
from pnp.check.printing import render_findings
from pnp.check.rules import load_rules, run_rules
from pnp.errors import Problem, Problems
from pnp.pack import Pack, UnknownGameError, find_pack, read_pack

# Load problems, classified by the loader's wording (see pnp/pack.py, pnp/yamlsource.py).
_LOAD_RULES = [
    (re.compile(r"^YAML syntax error"), "yaml.syntax"),
    (re.compile(r"^duplicate key "), "yaml.duplicate-key"),
    (re.compile(r"^YAML merge keys|^keys must be plain"), "yaml.unsupported"),
    (re.compile(r"^file not found|^cannot read"), "pack.file"),
    (re.compile(r"^duplicate card id "), "cards.duplicate-id"),
    (re.compile(r"^duplicate deck id "), "decks.duplicate-id"),
    (re.compile(r"^text key '[^']*' has no '[^']*' text"), "text.missing"),
    (re.compile(r"^unknown key "), "schema.unknown-key"),
    (re.compile(r"^missing required key "), "schema.missing-key"),
    (re.compile(r"is not an id in |refers to collection "), "schema.reference"),
    (re.compile(r"^unknown kind "), "schema.unknown-kind"),
    (re.compile(r"^expected "), "schema.type"),
]
# Load problems that leave a complete pack behind: the other checks still run and exit is 1, not 2.
NON_FATAL = {"text.missing"}
ALL_CHECKS = frozenset({"rules", "print"})


def load_rule_id(message: str) -> str:
    for pattern, rule in _LOAD_RULES:
        if pattern.search(message):
            return rule
    return "schema.invalid"


def _load_finding(problem: Problem, game: str) -> Finding:
    rule = load_rule_id(problem.message)
    hint = {"text.missing": "add the key to the language's text file",
            "yaml.syntax": f"the line shown (or the one before it): {problem.snippet}" if problem.snippet else "",
            "cards.duplicate-id": "give every card its own id"}.get(rule, problem.snippet and f"at: {problem.snippet}")
    return finding(ERROR, rule, problem.file, problem.line, problem.key, problem.message, hint or "", game,
                   fatal=rule not in NON_FATAL)


def load_for_check(name_or_path: str | Path) -> tuple[Pack | None, list[Finding]]:
    """Like load_pack, but returns the pack read so far with its problems as findings."""
    try:
        root = find_pack(name_or_path)
    except UnknownGameError as error:
        return None, [finding(ERROR, "pack.unknown", str(name_or_path), 0, "", error.message,
                              "give a shipped game's name or a folder holding pack.yaml", str(name_or_path), True)]
    game = root.name
    problems = Problems()
    pack = read_pack(root, problems)
    findings = [_load_finding(p, pack.id if pack else game) for p in sorted(set(problems.items))]
    return pack, findings


def check_pack(name_or_path: str | Path, checks: frozenset | set = ALL_CHECKS,
               languages: list[str] | None = None) -> list[Finding]:
    """Every finding for one pack, sorted by file and line.

    `checks` picks the optional groups: "rules" (data/<game>/rules.yaml) and "print" (render every
    face in every language: text fit, glyph coverage, face size; the slow part). Load problems are
    always reported; a finding with `fatal=True` means the pack cannot be used (exit 2)."""
    pack, findings = load_for_check(name_or_path)
    if pack is None or any(f.fatal for f in findings):
        return _sorted(findings)
    if "rules" in checks:
        rules, rule_problems = load_rules(pack.root, pack.id)
        findings.extend(rule_problems)
        if not rule_problems:
            findings.extend(run_rules(pack, rules))
    if "print" in checks:
        missing = set()
        for f in findings:
            match = re.search(r"text key '([^']+)' has no '([^']+)' text", f.message)
            if match:   # already reported (by the loader or a rules check): printing adds nothing
                missing.add((match.group(1), match.group(2)))
        findings.extend(render_findings(pack, languages, missing))
    return _sorted(findings)


def _sorted(findings: list[Finding]) -> list[Finding]:
    unique = list(dict.fromkeys(findings))
    return sorted(unique, key=Finding.sort_key)
