"""Soak test: many simulated games of every game at every player count.

Every game must end or be flagged "did not end" (with a reproducing seed), with no crash and no
broken invariant. ``benchmarks/soak_engines.py`` runs 10,000 games per player count; the test
suite a small version (``tests/test_playtest.py``).
"""
from __future__ import annotations

import time

from pnp.engines.core import get_game
from pnp.engines.simulate import DEFAULT_MAX_TURNS, check_games, check_workers, simulate

GAMES = ("cimiterio", "zombie-run", "zombies-vs-vampires")


def soak(games: int = 10_000, workers: int = 2, seed: int | str = "soak", names=GAMES,
         bot: str = "random", max_turns: int = DEFAULT_MAX_TURNS, check_every: int = 1,
         players=None, progress=None) -> list[dict]:
    """One row per (game, player count): games, finished, did not end (+ reasons, seeds),
    crashes, invariant failures, seconds. ``check_every``: invariants after every N plies (and
    always at the end)."""
    runs = []
    for name in names:
        cls = get_game(name)
        counts = players or range(cls.min_players, cls.max_players + 1)
        runs += [(name, n) for n in counts if cls.min_players <= n <= cls.max_players]
    # refused before the first game, not when the last run is reached
    check_games(games, runs=len(runs), runs_are="games x player counts")
    check_workers(workers)
    rows = []
    for name, n in runs:
        t0 = time.perf_counter()
        rep = simulate(name, games=games, players=n, seed=seed, bot=bot, workers=workers,
                       max_turns=max_turns, check_every=check_every)
        s = rep.summary()
        errors = [a for a in s["anomalies"] if a["kind"] == "error"]
        broken = [a for a in s["anomalies"] if a["kind"] == "invariant"]
        row = {"game": name, "players": n, "games": s["games"], "finished": s["completed"],
               "did_not_end": s["did_not_end"], "reasons": s["did_not_end_reasons"],
               "did_not_end_seeds": s["did_not_end_seeds"][:3],
               "crashes": len(errors), "invariant_failures": len(broken),
               "first_problem": (errors + broken)[0] if errors or broken else None,
               "median_turns": s["turns"]["median"], "max_turns_finished": s["turns"]["max"],
               "never_exercised": s["never_exercised"],
               "seconds": time.perf_counter() - t0}
        rows.append(row)
        if progress:
            progress(row)
    return rows


def row_text(r: dict) -> str:
    dne = ""
    if r["did_not_end"]:
        reasons = ", ".join(f"{k} {v}" for k, v in r["reasons"].items())
        dne = f" ({reasons}; e.g. seed {r['did_not_end_seeds'][0]})"
    bad = ""
    if r["first_problem"]:
        p = r["first_problem"]
        d = p["detail"] if isinstance(p["detail"], str) else "; ".join(p["detail"])
        bad = f"\n      FIRST PROBLEM seed {p['seed']} {p['kind']}: {d.splitlines()[0]}"
    length = ("no game ended" if r["median_turns"] is None else
              f"median {r['median_turns']} turns")
    return (f"  {r['game']:20s} {r['players']}p: {r['games']:6d} games, finished "
            f"{r['finished']:6d}, did not end {r['did_not_end']:6d}{dne}, crashes "
            f"{r['crashes']}, invariant failures {r['invariant_failures']}, {length}  "
            f"[{r['seconds']:.1f}s]{bad}")
