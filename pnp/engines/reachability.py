"""Can every rule point of a game happen? Findings from the engine's rule-point metadata.

Generic: it reads only what a registered game declares (``rule_points``, the optional
``rule_variants`` mapping a rule to the variants that can fire it, the optional
``unreachable_rules(options)`` hook for rules the position's tables show can never fire, and
the optional ``config_label(options)`` naming a configuration, e.g. Cimiterio's map) and the
``never_exercised`` list of simulation summaries. Findings (plain dicts, ``code`` set here):

- ``rules.unreachable`` (error): the rule cannot fire in this configuration (the game says so),
  or its variant was played and it still never fired;
- ``rules.unfired`` (warning): the rule could fire in the configuration but did not in N games;
- ``rules.variant`` (note): the rule belongs to a variant this run did not play.

``run_findings`` reads one simulation summary (``pnp simulate`` / ``pnp playtest`` reports);
``check_reachability`` simulates a small fixed-seed batch per configuration for ``pnp check``.
"""
from __future__ import annotations

from typing import Any

from pnp.engines.core import GameState, RecordError, game_names, get_game, resolve_options

UNREACHABLE, UNFIRED, VARIANT_ONLY = "rules.unreachable", "rules.unfired", "rules.variant"
CHECK_GAMES = 8          # games per configuration in `pnp check` (fixed seed: same findings every run)
CHECK_MAX_TURNS = 120    # and the turn cap that bounds its time
CHECK_SEED = 1


def config_label(cls: type[GameState], variants: list[str]) -> str:
    """How a finding names the configuration: the game's own label (e.g. the map) and the
    variants played, or "defaults"."""
    label = ""
    hook = getattr(cls, "config_label", None)
    if callable(hook):
        label = hook(resolve_options(cls, variants))
    played = ", ".join(v for v in variants if not v.startswith("pack=")) or "defaults"
    return f"{label} ({played})" if label else played


def _static(cls: type[GameState], variants: list[str]) -> dict[str, str]:
    hook = getattr(cls, "unreachable_rules", None)
    return dict(hook(resolve_options(cls, variants))) if callable(hook) else {}


def run_findings(game: str, summary: dict) -> list[dict]:
    """Findings for the rule points one simulation run (its summary) never fired."""
    cls = get_game(game)
    variants = list(summary.get("variants") or [])
    where = config_label(cls, variants)
    games = summary.get("games", 0)
    opts = resolve_options(cls, variants)
    by_variant = getattr(cls, "rule_variants", {}) or {}
    static = _static(cls, variants)
    out = []
    for rule in summary.get("never_exercised", []):
        enabling = by_variant.get(rule, ())
        if rule in static:
            out.append(_finding(UNREACHABLE, rule, where, f"{rule} cannot fire with {where}: {static[rule]}"))
        elif enabling and not any(_enabled(cls, v, opts) for v in enabling):
            out.append(_finding(VARIANT_ONLY, rule, where, f"{rule} fires only in variant "
                                f"{' / '.join(enabling)}, not played in this run", variants=list(enabling)))
        else:
            out.append(_finding(UNFIRED, rule, where, f"{rule} did not fire in {games} games "
                                f"({summary.get('bot', '?')} bot) with {where}", games=games))
    return out


def _enabled(cls: type[GameState], variant: str, opts: dict) -> bool:
    """Are the options of ``variant`` all in force in ``opts``?"""
    wanted = (getattr(cls, "variants", {}) or {}).get(variant, {})
    return bool(wanted) and all(opts.get(k) == v for k, v in wanted.items())


def _finding(code: str, rule: str, where: str, message: str, **detail: Any) -> dict:
    return {"code": code, "rule": rule, "where": where, "message": message, **detail}


def check_bot(cls: type[GameState]) -> str:
    """The bot the check plays: the best cheap one the game offers (greedy, else random)."""
    from pnp.engines.simulate import bot_names
    names = bot_names(cls)
    return "greedy" if "greedy" in names else "random"


def check_reachability(game: str, games: int = CHECK_GAMES, seed: int = CHECK_SEED,
                       max_turns: int = CHECK_MAX_TURNS, base: tuple[str, ...] = ()) -> list[dict]:
    """Simulate ``games`` games of the defaults, then of each variant some rule point needs
    (``rule_variants``) that the defaults did not fire; findings for what never fired.
    ``base``: options every run gets (e.g. ``pack=<folder>``)."""
    from pnp.engines.simulate import simulate
    cls = get_game(game)
    # a game may name the bots whose games together show what can happen (``check_bots``: e.g.
    # a weak one that passes and loses, a strong one that wins); a rule fired by any counts
    bots = tuple(getattr(cls, "check_bots", ()) or (check_bot(cls),))
    bot = "+".join(bots)

    def run(variants: list[str]) -> dict:
        # the variants' own rules need no strong play: the first bot alone plays them
        runs = [simulate(game, games=games, seed=seed, bot=b, variants=[*base, *variants],
                         max_turns=max_turns).summary() for b in (bots if not variants else bots[:1])]
        first = dict(runs[0], bot=bot if not variants else bots[0])
        first["never_exercised"] = [r for r in first["never_exercised"]
                                    if all(r in other["never_exercised"] for other in runs[1:])]
        return first

    first = run([])
    findings = [f for f in run_findings(game, first) if f["code"] != VARIANT_ONLY]
    missing = set(first["never_exercised"])
    by_variant = getattr(cls, "rule_variants", {}) or {}
    tried: dict[str, set] = {}
    for rule in cls.rule_points:
        if rule not in missing or rule not in by_variant:
            continue
        fired = False
        for variant in by_variant[rule]:
            if variant not in tried:
                tried[variant] = set(run([variant])["never_exercised"])
            if rule not in tried[variant]:
                fired = True
                break
        if not fired:
            where = config_label(cls, list(by_variant[rule]))
            findings.append(_finding(UNREACHABLE, rule, where, f"{rule} never fired in {games} games "
                                     f"({bots[0]} bot) even in its variant{'s' if len(by_variant[rule]) > 1 else ''} "
                                     f"{' / '.join(by_variant[rule])}", games=games))
    return findings


ENGINE_MISSING = "engine.missing"     # pack.yaml names an engine that is not installed or does not load
_ENGINE_HINT = ("install the package that registers the engine under the `pnp.engines` entry points "
                "(pnp docs engines), or correct the name")


def _engine_line(pack) -> int:
    source = pack.sources.get("pack")
    return source.line(("engine",)) if source is not None else 0


def engine_finding(pack, severity: str, load: bool = False):
    """A ``pnp check`` finding when pack.yaml's ``engine`` is not an installed engine (``load``:
    nor one that imports: the engine's code is loaded), else None."""
    from pnp.composition import finding
    try:
        if load:
            get_game(pack.engine)
        elif pack.engine not in game_names():
            raise RecordError(f"no installed engine is called {pack.engine!r} (installed: {', '.join(game_names())})")
    except RecordError as error:
        return finding(severity, ENGINE_MISSING, pack.root / "pack.yaml", _engine_line(pack), "engine",
                       f"the game's engine cannot be played: {error}", _ENGINE_HINT, pack.id)
    return None


def pack_findings(pack) -> list:
    """``check_reachability`` for a loaded pack with an engine, as ``pnp check`` findings
    (rules.unreachable: error; rules.unfired: warning; engine.missing: error), located at
    pack.yaml's ``engine`` key."""
    from pnp.composition import ERROR, WARNING, finding
    missing = engine_finding(pack, ERROR, load=True)
    if missing is not None:
        return [missing]
    cls = get_game(pack.engine)
    base = (f"pack={pack.root}",) if "pack" in cls.default_options else ()
    out = []
    for f in check_reachability(pack.engine, base=base):
        severity = ERROR if f["code"] == UNREACHABLE else WARNING
        out.append(finding(severity, f["code"], pack.root / "pack.yaml", _engine_line(pack), "engine", f["message"],
                           f"see the rule point in the rules (pnp docs rules/{pack.engine}): a variant or option (a map...) "
                           "that lets it happen, or more games (pnp simulate)",
                           pack.id, rule_point=f["rule"], where=f["where"]))
    return out
