"""What a playtest concludes, in words and numbers: who wins how often (with Wilson intervals),
whether the seats are fair (exact binomial tests against the fair share, Holm-corrected), how
long games last (turns and estimated minutes), whether every game ended, which rule points never
fired and which A/B differences survive the correction.

``conclude(...)`` returns a JSON-able mapping (``pnp playtest --json``'s ``conclusions``); its
``findings`` are the sentences of the report's first page, each with a ``code`` saying what it
is (read the code, never the wording).

Players against the game: a game where a finished game can end with no winner (the zombies
broke the gate) is reported as "the players against the game": the headline is how often the
players win. A game says so with the class attribute ``game_win_rules`` (outcome rules meaning
"the game won"); without it, a finished game with no winner in any run shows it.
"""
from __future__ import annotations

from pnp.engines.simulate import wilson
from pnp.engines.stats_tests import ALPHA, binomial_test, holm

PLAYERS_VS_GAME = "players-vs-game"
COMPETITIVE = "competitive"
CORRECTION = "Holm-Bonferroni (written out in pnp.engines.stats_tests; scipy is not used)"
SEAT_TEST = ("exact two-sided binomial test of each seat's wins among the games with a single "
             "winner, against the fair share 1/players")


def game_kind(cls, summaries: list[dict]) -> tuple[str, str]:
    """(kind, why): players against the game, or players against each other."""
    declared = tuple(getattr(cls, "game_win_rules", ()) or ())
    if declared:
        return PLAYERS_VS_GAME, f"the game declares that outcome {', '.join(declared)} is its win"
    won_by = sorted({rule for s in summaries for rule in s["no_winner_rules"]})
    if won_by:
        return PLAYERS_VS_GAME, (f"finished games ended with no winner (outcome "
                                 f"{', '.join(won_by)}): the game beat the players (if these are draws, "
                                 "the engine declares them in draw_rules)")
    if not any(s["completed"] for s in summaries):      # "every finished game" of none says nothing
        return COMPETITIVE, "no game ended, so no one won"
    return COMPETITIVE, "every finished game had a winner among the players"


def _rate(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"wins": k, "games": n, "rate": k / n if n else None, "ci95": [round(lo, 4), round(hi, 4)]}


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def ci_text(ci: list[float]) -> str:
    return f"95% CI {100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def conclude(game: str, cls, runs: list[tuple[str, int, dict]], comparisons: list[dict],
             seconds_per_turn: float | None) -> dict:
    """``runs``: (variant label, players, SimulationReport.summary()) in report order;
    ``comparisons``: the A/B tables (each row gets ``p_holm`` and ``significant_holm``)."""
    kind, why = game_kind(cls, [s for _, _, s in runs])
    out_runs = [_run(label, n, s, kind, seconds_per_turn) for label, n, s in runs]
    seat_tests = [seat for r in out_runs for seat in r["seats"] if seat["p"] is not None]
    for seat, p in zip(seat_tests, holm([s["p"] for s in seat_tests])):
        seat["p_holm"] = p
        seat["unfair"] = p < ALPHA
    ab_rows = [(c, row) for c in comparisons for row in c["rows"]]
    for (_, row), p in zip(ab_rows, holm([row["p"] for _, row in ab_rows])):
        row["p_holm"] = p
        row["significant_holm"] = p < ALPHA
    never_all = set.intersection(*(set(s["never_exercised"]) for _, _, s in runs)) if runs else set()
    points = runs[0][2]["rule_points"] if runs else []
    never = [r for r in points if r in never_all]
    some = [r for r in points if r not in never_all
            and any(r in s["never_exercised"] for _, _, s in runs)]
    result = {
        "game": game, "kind": kind, "kind_reason": why, "alpha": ALPHA,
        "seconds_per_turn": seconds_per_turn,
        "runs": out_runs,
        "seat_fairness": {
            "test": SEAT_TEST, "correction": CORRECTION, "tests": len(seat_tests),
            "unfair": [{"variant": r["variant"], "players": r["players"], "seat": s["seat"],
                        "share": s["share"], "fair": s["fair"], "p": s["p"], "p_holm": s["p_holm"]}
                       for r in out_runs for s in r["seats"] if s.get("unfair")]},
        "ab": {"tests": len(ab_rows), "correction": CORRECTION,
               "significant": [{"a": c["a"], "b": c["b"], "players": c["players"],
                                "metric": row["metric"], "value_a": row["a"], "value_b": row["b"],
                                "diff": row["diff"], "p": row["p"], "p_holm": row["p_holm"]}
                               for c, row in ab_rows if row["significant_holm"]]},
        "all_ended": all(r["all_ended"] for r in out_runs),
        "never_exercised": never, "never_exercised_some_runs": some,
    }
    result["headline"] = _headline(result)
    result["findings"] = _findings(result, comparisons)
    return result


def _run(label: str, n: int, s: dict, kind: str, spt: float | None) -> dict:
    m = s["metrics"]
    played = m["games"]
    run = {"variant": label, "players": n, "games": s["games"], "played": played,
           "finished": s["completed"], "did_not_end": s["did_not_end"], "crashed": s["crashed"],
           "all_ended": s["did_not_end"] == 0 and s["crashed"] == 0,
           "length": _length(s, spt), "metrics": m, "seats": _seats(s, n),
           "rule_findings": s.get("rule_findings", [])}
    if kind == PLAYERS_VS_GAME:
        run["players_win"] = _rate(played - m["game_won"] - m["unfinished"], played)
        run["game_wins"] = _rate(m["game_won"], played)
    return run


def _seats(s: dict, n: int) -> list[dict]:
    """Each seat's share of the single-winner games, its interval and the fair-share test."""
    single = s["single_winner_seats"]
    decided = sum(single)
    seats = []
    for q in range(n):
        lo, hi = wilson(single[q], decided)
        testable = n > 1 and decided > 0
        seats.append({"seat": q, "wins": single[q], "games": decided,
                      "share": single[q] / decided if decided else None,
                      "ci95": [round(lo, 4), round(hi, 4)], "fair": 1 / n,
                      "p": binomial_test(single[q], decided, 1 / n) if testable else None,
                      "p_holm": None, "unfair": False})
    return seats


def _length(s: dict, spt: float | None) -> dict:
    t = s["turns"]

    def minutes(turns):
        return None if turns is None or spt is None else round(turns * spt / 60, 1)

    return {"turns_median": t["median"], "turns_p95": t["p95"], "turns_max": t["max"],
            "minutes_median": minutes(t["median"]), "minutes_p95": minutes(t["p95"])}


# ----------------------------------------------------------------------------- words
def _where(r: dict) -> str:
    return f"{r['players']} player{'s' if r['players'] != 1 else ''}"


def _headline(c: dict) -> list[str]:
    """One line per player count of the first variant (the others are in the A/B findings)."""
    first = c["runs"][0]["variant"] if c["runs"] else None
    lines = []
    for r in (r for r in c["runs"] if r["variant"] == first):
        head = f"{_where(r)}: "
        if not r["finished"]:       # no rate, share or winner to state: say why instead
            crashed = f", {r['crashed']} crashed" if r["crashed"] else ""
            lines.append(head + f"no game ended, so no one won ({r['did_not_end']}/{r['games']} "
                         f"did not end: turn cap or repetition guard{crashed})")
            continue
        if c["kind"] == PLAYERS_VS_GAME:
            w = r["players_win"]
            lines.append(head + f"the players win {pct(w['rate'])} of games ({w['wins']}/"
                         f"{w['games']}, {ci_text(w['ci95'])}); the game wins "
                         f"{pct(r['game_wins']['rate'])}")
            continue
        seats = [s for s in r["seats"] if s["share"] is not None]
        if not seats:
            lines.append(head + "no game had a single winner")
            continue
        hi = max(seats, key=lambda s: s["share"])
        lo = min(seats, key=lambda s: s["share"])
        lines.append(head + f"seat {hi['seat']} wins most, {pct(hi['share'])} "
                     f"({ci_text(hi['ci95'])}); seat {lo['seat']} least, {pct(lo['share'])} "
                     f"({ci_text(lo['ci95'])}); fair share {pct(hi['fair'])}")
    return lines


def _findings(c: dict, comparisons: list[dict]) -> list[dict]:
    f: list[dict] = []

    def add(code: str, text: str, **detail) -> None:
        f.append({"code": code, "text": text, **detail})

    # a run where no game ended is no evidence the players never (or always) win: "ended.not"
    decided = [r for r in c["runs"] if r["finished"] and r.get("players_win")
               and r["players_win"]["games"]]
    never = [r for r in decided if r["players_win"]["wins"] == 0]
    always = [r for r in decided if r["players_win"]["wins"] == r["players_win"]["games"]]
    if never:
        add("winrate.never", "The players NEVER beat the game: " + _runs_text(never) +
            "; a 0% win rate.", runs=_run_keys(never))
    if always:
        add("winrate.always", "The players ALWAYS beat the game: " + _runs_text(always) +
            "; a 100% win rate.", runs=_run_keys(always))
    for r in c["runs"]:
        for s in r["seats"]:
            if r["players"] > 1 and s["games"] and s["wins"] in (0, s["games"]):
                what = "never wins" if s["wins"] == 0 else "wins every game"
                add("seat.extreme", f"Seat {s['seat']} {what} with a single winner "
                    f"({r['variant']}, {_where(r)}: {s['wins']} of {s['games']}).",
                    variant=r["variant"], players=r["players"], seat=s["seat"])
    sf = c["seat_fairness"]
    if not sf["tests"]:
        add("seats.untested", "Seat fairness not tested: no run had two or more players and a "
            "game with a single winner.")
    elif sf["unfair"]:
        parts = [f"seat {u['seat']} at {u['players']} players ({u['variant']}) wins "
                 f"{pct(u['share'])} against a fair {pct(u['fair'])} (Holm p = {u['p_holm']:.3g})"
                 for u in sf["unfair"]]
        add("seats.unfair", f"Seats are NOT fair: {'; '.join(parts)}. {sf['tests']} seat tests, "
            f"Holm-corrected at {c['alpha']}.", tests=sf["tests"])
    else:
        least = min((s["p_holm"] for r in c["runs"] for s in r["seats"]
                     if s["p_holm"] is not None), default=1.0)
        add("seats.fair", f"Seats look fair: no seat's share of wins differs from the fair share "
            f"after Holm correction ({sf['tests']} tests at {c['alpha']}; smallest adjusted p = "
            f"{least:.3g}).", tests=sf["tests"])
    for variant in dict.fromkeys(r["variant"] for r in c["runs"]):
        runs = [r for r in c["runs"] if r["variant"] == variant]
        parts = []
        for r in runs:
            L = r["length"]
            if L["turns_median"] is None:
                parts.append(f"{_where(r)}: no game ended")
                continue
            mins = (f", about {L['minutes_median']:g} min (p95 {L['minutes_p95']:g})"
                    if L["minutes_median"] is not None else "")
            parts.append(f"{_where(r)}: median {L['turns_median']:g} turns (p95 "
                         f"{L['turns_p95']:g}){mins}")
        how = ("" if all(r["length"]["turns_median"] is None for r in runs) else
               f" (minutes at {c['seconds_per_turn']:g} s per turn, pack.yaml seconds_per_turn)"
               if c["seconds_per_turn"] is not None else
               " (minutes not estimated: pack.yaml declares no seconds_per_turn)")
        add("length", f"Length, {variant}: " + "; ".join(parts) + how + ".", variant=variant,
            minutes={r["players"]: r["length"]["minutes_median"] for r in runs},
            turns={r["players"]: r["length"]["turns_median"] for r in runs})
    not_ended = [r for r in c["runs"] if not r["all_ended"]]
    if not_ended:
        parts = [f"{r['variant']}, {_where(r)}: {r['did_not_end']}/{r['games']}"
                 for r in not_ended if r["did_not_end"]]
        add("ended.not", "NOT every game ended: " + ("; ".join(parts) or "games crashed") +
            " did not end (turn cap or repetition guard; not counted as finished).")
    else:
        add("ended.all", "Every game ended (no turn cap, no repetition guard, no crash).")
    if c["never_exercised"]:
        add("rules.never", "Rule points never fired in any run: " +
            ", ".join(c["never_exercised"]) + ".", rules=c["never_exercised"])
    else:
        add("rules.all", "Every rule point fired in at least one run.")
    if c["never_exercised_some_runs"]:
        add("rules.some", "Not fired in some runs: " + ", ".join(c["never_exercised_some_runs"]) + ".",
            rules=c["never_exercised_some_runs"])
    if comparisons:
        ab = c["ab"]
        if ab["significant"]:
            parts = [f"{s['metric']} at {s['players']} players ({s['b']} vs {s['a']}: "
                     f"{_diff(s)}, Holm p = {s['p_holm']:.3g})" for s in ab["significant"]]
            add("ab.significant", f"A/B: significant after Holm correction ({ab['tests']} tests): "
                + "; ".join(parts) + ".", tests=ab["tests"])
        else:
            add("ab.none", f"A/B: no difference between the variants is significant after Holm "
                f"correction ({ab['tests']} tests at {c['alpha']}).", tests=ab["tests"])
    # each rule point that did not fire, with its configuration: last, after the headline findings
    grouped: dict[tuple, list] = {}             # one finding per rule and configuration, with its player counts
    for r in c["runs"]:
        for rf in r.get("rule_findings", ()):
            if rf["code"] != "rules.variant":      # a variant-only rule the run did not play is no news
                grouped.setdefault((rf["code"], rf["rule"], rf["where"], rf["message"]), []).append(r["players"])
    for (code, rule, where, message), counts in grouped.items():
        add(code, f"{message} (at {', '.join(map(str, counts))} player{'s' * (counts != [1])}).",
            rules=[rule], where=where, players=counts)
    return f


def _runs_text(runs: list[dict]) -> str:
    """"default at 1, 2 players (0/20, 0/20; 95% CI up to 16.1%); quick at 3 players (...)"."""
    parts = []
    for variant in dict.fromkeys(r["variant"] for r in runs):
        mine = [r for r in runs if r["variant"] == variant]
        counts = ", ".join(f"{r['players_win']['wins']}/{r['players_win']['games']}" for r in mine)
        lo = min(r["players_win"]["ci95"][0] for r in mine)
        hi = max(r["players_win"]["ci95"][1] for r in mine)
        parts.append(f"{variant} at {', '.join(str(r['players']) for r in mine)} players "
                     f"({counts} games; 95% CI within {100 * lo:.1f}-{100 * hi:.1f}%)")
    return "; ".join(parts)


def _run_keys(runs: list[dict]) -> list[dict]:
    return [{"variant": r["variant"], "players": r["players"]} for r in runs]


def _diff(s: dict) -> str:
    d = s["diff"]
    if d is None:
        return "-"
    return f"{d:+.1f} turns" if s["metric"].startswith("game length") else f"{100 * d:+.1f} pts"
