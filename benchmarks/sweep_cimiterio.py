"""Cimiterio: the sweep that chose the default map and readings (docs/rules/cimiterio.md).

Two tables, played by bots that see only ``observation(seat)`` (no peeking at the event deck):
``random``, ``greedy``, ``planner``, the ``tactician`` (plans every action card up to the next
event) and the ``ismcts`` search bot.

1. Maps: every map of the pack (map.yaml and maps.yaml) with the seed-literal readings (C13
   ``arrive``, the bell tower captures) and the bots of ``--bots``.
2. Readings: the default map with the other C13 readings (``arrive`` / ``adjacent``) x bell
   tower (captures / ignores tombs), the bots of ``--reading-bots``; then the slower
   ``--deep-bots`` on the default map and readings.

Each row: the gate-break rate, the players' win rate (a game some seat won, C22/C23), both with
95% Wilson intervals, the games that hit the turn cap, the median length in turns, the median
number of zombies captured (all seats) and the rule points of the seed that never fired (those
only a variant can fire, ``rule_variants``, are left out).

    python benchmarks/sweep_cimiterio.py                 # the tables in docs/rules/cimiterio.md
    python benchmarks/sweep_cimiterio.py --games 4 --bots tactician --maps mid-gate --reading-bots "" --deep-bots ""

Fixed seeds (``--seed``, per game ``derive_seed``): the same command prints the same tables.
About 10 CPU minutes with the defaults.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from pnp.engines.cimiterio.pack_data import map_ids
from pnp.engines.core import get_game
from pnp.engines.simulate import simulate, wilson

LITERAL = ("arrive", "bell-captures")
READINGS = (("arrive", "bell-captures"), ("adjacent", "bell-captures"),
            ("arrive", "bell-ignores"), ("adjacent", "bell-ignores"))
HEADER = ("| map | C13 | bell | bot | gate broken | players win | did not end | median turns "
          "| zombies captured (median) | never fired |\n|---|---|---|---|---|---|---|---|---|---|")


def row(game: str, players: int, games: int, seed: int, bot: str, mp: str, reading: tuple,
        max_turns: int, workers: int) -> dict:
    variants = [f"map={mp}", *reading]
    rep = simulate(game, games=games, players=players, seed=seed, bot=bot, variants=variants,
                   max_turns=max_turns, workers=workers)
    s = rep.summary()
    s_rows = [r for r in rep.results if not r["error"]]
    cls = get_game(game)
    only_variant = set(getattr(cls, "rule_variants", {}) or {})
    won = s["completed"] - s["no_winner"]          # finished games that some seat won
    broken = s.get("gate_broken", 0)
    return {"map": mp, "attack": reading[0], "bell": reading[1], "bot": bot, "games": games,
            "gate": broken, "gate_ci": wilson(broken, games), "won": won,
            "won_ci": wilson(won, games), "capped": s["did_not_end"],
            "captured": statistics.median(sum(r["stats"].get("captures_seat") or [0]) for r in s_rows),
            "turns": statistics.median(s["turns_finished"]) if s["turns_finished"] else None,
            "never": [r for r in s["never_exercised"] if r not in only_variant]}


def pct(k: int, n: int, ci: tuple) -> str:
    return f"{100 * k / n:.0f}% ({100 * ci[0]:.0f}-{100 * ci[1]:.0f})"


def line(r: dict) -> str:
    return (f"| {r['map']} | {r['attack']} | {r['bell'].removeprefix('bell-')} | {r['bot']} | "
            f"{pct(r['gate'], r['games'], r['gate_ci'])} | {pct(r['won'], r['games'], r['won_ci'])} | "
            f"{r['capped']} | {r['turns'] if r['turns'] is not None else '-'} | {r['captured']:g} | "
            f"{', '.join(r['never']) or '-'} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="random,greedy,tactician", help="bots of the maps table")
    ap.add_argument("--maps", default="", help="map ids, comma separated (default: all)")
    ap.add_argument("--reading-bots", default="greedy,tactician",
                    help="bots of the readings table (default map)")
    ap.add_argument("--deep-bots", default="planner,ismcts@20",
                    help="slower bots, on the default map and readings only")
    ap.add_argument("--max-turns", type=int, default=300)
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)
    maps = [m for m in a.maps.split(",") if m] or list(map_ids())
    default_map = map_ids()[0]

    def play(bot: str, mp: str, reading: tuple) -> None:
        t = time.process_time()
        print(line(row("cimiterio", a.players, a.games, a.seed, bot, mp, reading, a.max_turns,
                       a.workers)), flush=True)
        print(f"  ({time.process_time() - t:.0f} s CPU)", file=sys.stderr, flush=True)

    print(f"Cimiterio sweep: {a.games} games per row, {a.players} players, seed {a.seed}, "
          f"turn cap {a.max_turns}; 95% Wilson intervals in brackets.\n")
    bots = [b for b in a.bots.split(",") if b]
    if bots:
        print(f"Maps (C13 {LITERAL[0]}, bell tower captures):\n\n{HEADER}")
        for mp in maps:
            for bot in bots:
                play(bot, mp, LITERAL)
        print()
    reading_bots = [b for b in a.reading_bots.split(",") if b]
    deep_bots = [b for b in a.deep_bots.split(",") if b]
    if reading_bots or deep_bots:
        print(f"Readings and deeper bots (map {default_map}):\n\n{HEADER}")
        for reading in READINGS:
            for bot in reading_bots:
                if reading != LITERAL or bot not in bots:     # (already in the maps table)
                    play(bot, default_map, reading)
        for bot in deep_bots:
            play(bot, default_map, LITERAL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
