"""Seat fairness of every game at every player count: the tables of docs/rules/<game>.md.

    .venv/bin/python benchmarks/fairness.py [--game NAME ...] [--games 300] [--players 3]
        [--arm "variant,variant" ...] [--bot NAME] [--seed 0] [--workers 2] [--json out.json]

One Markdown table per game (pnp.engines.fairness.sweep): for each player count the game
allows (or ``--players``) and each ``--arm`` (a comma-separated list of variants; ``default``
for the rules as shipped; the first arm is the default when none is given), the games that
ended, the median length in turns, and each seat's share of the single-winner games with its
Wilson 95% interval and the Holm-corrected binomial test against the fair share. Cooperative
games (the players win or lose together) get the players' win rate instead. The bot is the
game's own fair bot unless ``--bot`` names one (``pnp.engines.fairness.fair_bot``). Same
arguments, same tables, on any machine (seeded).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pnp.engines.core import game_names  # noqa: E402
from pnp.engines.fairness import fair_bot, markdown, sweep  # noqa: E402
from pnp.engines.playtest import parse_arm  # noqa: E402
from pnp.engines.simulate import check_games, check_workers  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", help="a game (repeatable); default: every game")
    ap.add_argument("--games", type=int, default=300, help="games per player count and arm")
    ap.add_argument("--players", type=int, action="append", help="player counts (repeatable)")
    ap.add_argument("--arm", action="append", help="variants of one arm, comma-separated")
    ap.add_argument("--bot", help="bot in every seat (default: the game's fair bot)")
    ap.add_argument("--seed", default="0")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-turns", type=int, default=500)
    ap.add_argument("--json", help="also write every row as JSON here")
    a = ap.parse_args(argv)
    try:        # --games / --workers beyond pnp.limits: refused before the first game
        check_games(a.games)
        check_workers(a.workers)
    except ValueError as error:
        ap.error(str(error))
    seed = int(a.seed) if a.seed.lstrip("-").isdigit() else a.seed
    arms = [parse_arm(x) for x in a.arm] if a.arm else None
    dump = {}
    for game in a.game or game_names():
        bot = a.bot or fair_bot(game)
        rows = sweep(game, games=a.games, players=a.players, arms=arms, bot=bot, seed=seed,
                     workers=a.workers, max_turns=a.max_turns)
        print(f"## {game}\n")
        print(markdown(rows, bot, seed))
        print(flush=True)
        dump[game] = [asdict(r) for r in rows]
    if a.json:
        Path(a.json).write_text(json.dumps(dump, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
