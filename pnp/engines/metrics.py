"""Game-design metrics of a batch of simulated games (after Ludii's: decisiveness, drawishness,
lead changes, branching factor, moves per turn), computed from ``play_one`` rows.

How a game ended, by its outcome (``Outcome.winners``):

- one winner: a decisive game;
- no winner in a finished game: the game itself won (Outcome's convention: ``()`` when nobody
  wins, e.g. the zombies broke the gate) -- also a clear result; unless its outcome rule is one
  of the engine's ``draw_rules``: a draw;
- several winners: a shared win, counted as a draw;
- a game that hit a turn cap or a repetition guard did not end, also counted as drawish.

Crashed games are left out of every share (they are reported as anomalies).
"""
from __future__ import annotations

import statistics


def ending(row: dict, draw_rules: tuple[str, ...] = ()) -> str:
    """"single", "game", "draw", "shared" or "unfinished" for one ``play_one`` row without an
    error (``draw_rules``: the engine's no-winner outcomes that are draws)."""
    if row["capped"] or row["outcome"] is None:
        return "unfinished"
    winners = row["outcome"]["winners"]
    if not winners:
        return "draw" if row["outcome"]["rule"] in draw_rules else "game"
    return "single" if len(winners) == 1 else "shared"


def run_metrics(results: list[dict], draw_rules: tuple[str, ...] = ()) -> dict:
    """Decisiveness, drawishness, lead changes, branching factor and moves per turn over the
    games of one run (``play_one`` rows)."""
    played = [r for r in results if not r["error"]]
    n = len(played)
    kinds = {"single": 0, "game": 0, "draw": 0, "shared": 0, "unfinished": 0}
    for r in played:
        kinds[ending(r, draw_rules)] += 1
    per_game = [r.get("metrics") or {} for r in played]
    leads = [m["lead_changes"] for m in per_game if m.get("lead_changes") is not None]
    weighted = [(m["branching_mean"], m["decisions"]) for m in per_game
                if m.get("branching_mean") is not None]
    decisions = sum(d for _, d in weighted)
    medians = [m["branching_median"] for m in per_game if m.get("branching_median") is not None]
    per_turn = [m["moves_per_turn"] for m in per_game if m.get("moves_per_turn") is not None]
    return {
        "games": n,
        "single_winner": kinds["single"], "game_won": kinds["game"], "draws": kinds["draw"],
        "shared": kinds["shared"], "unfinished": kinds["unfinished"],
        # a clear result: one winner, or the game beat every player
        "decisiveness": (kinds["single"] + kinds["game"]) / n if n else None,
        "drawishness": (kinds["draw"] + kinds["shared"] + kinds["unfinished"]) / n if n else None,
        "lead_changes": _spread(leads),
        # every ply is a decision of the seat to move: pooled over all of them
        "branching_mean": sum(b * d for b, d in weighted) / decisions if decisions else None,
        "branching_median": statistics.median(medians) if medians else None,
        "decisions": decisions,
        "moves_per_turn": statistics.fmean(per_turn) if per_turn else None,
    }


def _spread(xs: list[float]) -> dict:
    return {"mean": statistics.fmean(xs) if xs else None,
            "median": statistics.median(xs) if xs else None,
            "max": max(xs) if xs else None, "games": len(xs)}
