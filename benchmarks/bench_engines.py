"""Engine speed: legal-checked actions per second and games per second, per core.

    .venv/bin/python benchmarks/bench_engines.py [--game cimiterio] [--games 200] [--players 2]

An "action" is one ``push(move)`` with its legality check (and every automatic step it triggers:
events, zombie movement...). The random bot draws from ``legal_moves()``; the greedy bot also
pushes/pops every candidate to evaluate it (those lookahead pushes are counted separately).
Times are CPU seconds of this process (time.process_time), i.e. per core, so a busy machine
skews them less. Prints a ratio against the 50,000 actions/s target.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pnp.engines import get_game  # noqa: E402
from pnp.engines.core import Rng, derive_seed  # noqa: E402
from pnp.engines.simulate import greedy_bot, random_bot  # noqa: E402

TARGET = 50_000


def bench(game: str, bot: str, games: int, players: int, max_turns: int = 500) -> dict:
    cls = get_game(game)
    cls.new(players=players, seed=0)          # warm-up: load the pack and the tables untimed
    pushes = 0
    lookahead = 0
    t0 = time.process_time()
    for i in range(games):
        seed = derive_seed(12345, i)
        st = cls.new(players=players, seed=seed)
        rng = Rng(seed)
        while st.outcome() is None and st.turn_count <= max_turns:
            if bot == "random":
                moves = st.legal_moves()
                move = moves[rng.randbelow(len(moves))]
            else:
                n0 = st.ply
                lookahead += len(st.legal_moves())
                move = greedy_bot(st, rng)
                assert st.ply == n0
            st.push(move)
            pushes += 1
    dt = time.process_time() - t0
    return {"game": game, "bot": bot, "games": games, "seconds": dt, "actions": pushes,
            "actions_per_s": pushes / dt, "games_per_s": games / dt,
            "all_pushes_per_s": (pushes + lookahead) / dt}


def bench_push_pop(game: str, n: int = 20000, players: int = 2) -> dict:
    """Raw legal-checked push + pop throughput from typical mid-game positions."""
    cls = get_game(game)
    cls.new(players=players, seed=0)
    st = cls.new(players=players, seed=7)
    rng = Rng(7)
    done = 0
    t0 = time.process_time()
    while done < n:
        if st.outcome() is not None:
            st = cls.new(players=players, seed=rng.next64())
        moves = st.legal_moves()
        for m in moves[:8]:
            st.push(m)
            st.pop()
            done += 1
        st.push(moves[rng.randbelow(len(moves))])
        done += 1
    dt = time.process_time() - t0
    return {"push_pop_per_s": done / dt}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="cimiterio")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--greedy-games", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (the machine may be busy)")
    a = ap.parse_args(argv)
    for bot, n in (("random", a.games), ("greedy", a.greedy_games)):
        r = max((bench(a.game, bot, n, a.players) for _ in range(a.repeat)),
                key=lambda r: r["actions_per_s"])
        extra = (f", {r['all_pushes_per_s']:,.0f} pushes/s incl. lookahead" if bot == "greedy" else "")
        print(f"{a.game} {bot:6s}: {r['actions']:7d} actions in {r['seconds']:.2f}s = "
              f"{r['actions_per_s']:9,.0f} actions/s ({r['actions_per_s'] / TARGET:.2f}x target), "
              f"{r['games_per_s']:.1f} games/s{extra}")
    pp = max((bench_push_pop(a.game, players=a.players) for _ in range(a.repeat)),
             key=lambda r: r["push_pop_per_s"])
    print(f"{a.game} push+pop: {pp['push_pop_per_s']:,.0f} legal-checked pushes/pops per s "
          f"({pp['push_pop_per_s'] / TARGET:.2f}x target)")


if __name__ == "__main__":
    main()
