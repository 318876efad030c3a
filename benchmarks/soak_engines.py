"""Soak: 10,000 simulated games of each game at every player count (random bots, workers=2).

    .venv/bin/python benchmarks/soak_engines.py [--games 10000] [--workers 2] [--check-every 5]

Every game must end or be flagged "did not end" (turn cap / repetition guard, with a seed that
reproduces it), with no crash and no broken invariant (``check_invariants()`` after every
``--check-every`` plies and at the end). Not a test: it takes minutes. The test suite runs a
200-game version (tests/test_playtest.py::test_soak_small). Exit status 1 on any crash or broken
invariant.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pnp.engines.soak import GAMES, row_text, soak  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", default="soak")
    ap.add_argument("--check-every", type=int, default=5)
    ap.add_argument("--max-turns", type=int, default=500)
    ap.add_argument("--game", action="append", choices=GAMES, help="only these games")
    ap.add_argument("--bot", default="random",
                    help="random (default) | greedy | a game's bot (zombies-vs-vampires: racer)")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    print(f"soak: {a.games} games per player count, {a.bot} bots, workers {a.workers}, seed "
          f"{a.seed!r}, turn cap {a.max_turns}, invariants every {a.check_every} plies",
          flush=True)
    try:        # --games / --workers beyond pnp.limits: refused before the first game
        rows = soak(games=a.games, workers=a.workers, seed=a.seed, names=a.game or GAMES,
                    max_turns=a.max_turns, check_every=a.check_every, bot=a.bot,
                    progress=lambda r: print(row_text(r), flush=True))
    except ValueError as error:
        ap.error(str(error))
    total = sum(r["games"] for r in rows)
    fin = sum(r["finished"] for r in rows)
    dne = sum(r["did_not_end"] for r in rows)
    crash = sum(r["crashes"] for r in rows)
    broken = sum(r["invariant_failures"] for r in rows)
    print(f"summary: {total} games, {fin} finished, {dne} did not end (flagged with seeds), "
          f"{crash} crashes, {broken} broken invariants  ({time.perf_counter() - t0:.0f}s)")
    raise SystemExit(1 if crash or broken else 0)


if __name__ == "__main__":
    main()
