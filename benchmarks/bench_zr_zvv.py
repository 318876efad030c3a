"""Zombie Run and Zombies vs Vampires engine figures beyond the headline, per core.

    .venv/bin/python benchmarks/bench_zr_zvv.py [--quick] [--sim [--sim-games 1000]]

The headline throughput (random play with the full ``legal_moves()`` list every ply, a uniform
pick, games to the end, played by ``random_playout``: actions/s and games/s) is
benchmarks/bench_engines.py's, for all three engines, with a before/after mode and the in-process
OpenSpiel reference. The lines here marked "random play via push" are the same play through the
public loop ``legal_moves()`` + ``push`` (its one-move check and undo record each ply: what
bench_engines.py prints as "push actions/s"; their own seeds; ZvV games capped at 300 turns),
after a warm-up game that fills the engines' tables; every other line says what it measures
instead, and none replays recorded moves (best of a few repeats, one process, one core, CPU time):
- Zombie Run: games/s and plies/s of the ``playout`` kernel (``random_move`` sampling, no move
  list, no undo: not comparable with the headline) and of its reference loop; push+pop of
  generated moves/s (a search's pattern, not a game).
- Zombies vs Vampires: random play actions/s, and the legal moves generated per second in it
  (~160 on a move turn); the headline definition per player count (2, 3, 4 players, games to
  the end under the engine's default turn cap, 3000, as bench_engines.py plays them:
  actions/s and games/s); push+pop of generated moves/s; games/s and plies/s with the greedy racer (a bot's
  choices, not uniform).
- A pure-Python calibration loop (the in-process baseline): the machine is shared, so every rate
  is also printed as "per calibration unit" to compare runs on a busy or idle machine.

``--sim``: 1000 games per player count (each: finish or are flagged with their seed), checking the
invariants (all 63 cards accounted for; walls on board + supply == total) at the end of each.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pnp.engines.core import Rng  # noqa: E402
from pnp.engines.zombie_run import ZombieRun  # noqa: E402
from pnp.engines.zombies_vs_vampires import ZombiesVsVampires, greedy_bot  # noqa: E402

TARGET_ZR_ACTIONS = 150_000     # random play with legal_moves() every ply (issue 13)
TARGET_ZVV_ACTIONS = 50_000
CAL_ITERS = 2_000_000


def best_of(fn, repeats):
    """(CPU seconds, result) of the fastest of ``repeats`` runs of ``fn``."""
    best = None
    for _ in range(repeats):
        t0 = time.process_time()
        out = fn()
        dt = time.process_time() - t0
        if best is None or dt < best[0]:
            best = (dt, out)
    return best


def calibrate() -> float:
    """CPU seconds for a fixed pure-Python loop (an idle modern core: about 0.1 s)."""
    def loop():
        x = 0
        for i in range(CAL_ITERS):
            x += i & 7
        return x
    return best_of(loop, 3)[0]


# ----------------------------------------------------------------------------- Zombie Run
def zr_games(n, fast=True, players=None):
    plies = 0
    for i in range(n):
        st = ZombieRun(players=players or 3 + i % 5, seed=i)
        st.playout(random.Random(i), fast=fast)
        plies += st.ply
    return plies


def zr_actions(n_games):
    acts = 0
    for i in range(n_games):
        st = ZombieRun(players=3 + i % 5, seed=i)
        rng = Rng(i)
        while st.outcome() is None:
            ms = st.legal_moves()
            st.push(ms[rng.randbelow(len(ms))])
            acts += 1
    return acts


def push_pop(cls, players, n=20000):
    st = cls(players=players, seed=7)
    rng = Rng(7)
    done = 0
    while done < n:
        if st.outcome() is not None:
            st = cls(players=players, seed=rng.next64())
        moves = st.legal_moves()
        for m in moves[:8]:
            st.push(m)
            st.pop()
            done += 1
        st.push(moves[rng.randbelow(len(moves))])
        done += 1
    return done


# ----------------------------------------------------------------------------- ZvV
def zvv_actions(n_games, max_turns=300, players=None):
    """(actions, moves generated) of random play: games to the end or to ``max_turns``, 2, 3,
    4 players in turn unless ``players`` is given."""
    acts = gen = 0
    for i in range(n_games):
        st = ZombiesVsVampires(players=players or 2 + i % 3, seed=i,
                               options={"max_turns": max_turns})
        rng = Rng(i)
        while st.outcome() is None:
            ms = st.legal_moves()
            gen += len(ms)
            st.push(ms[rng.randbelow(len(ms))])
            acts += 1
    return acts, gen


def zvv_greedy(n_games):
    plies = 0
    for i in range(n_games):
        st = ZombiesVsVampires(players=2 + i % 3, seed=i)
        st.playout(random.Random(i), bot=greedy_bot)
        plies += st.ply
    return plies


# ----------------------------------------------------------------------------- simulations
def simulate(n, n_greedy, games=("zr", "zvv")):
    print(f"\nsimulations: {n} games per player count ({n_greedy} for the ZvV greedy racer)")
    for players in range(3, 8) if "zr" in games else ():
        t0 = time.perf_counter()
        rules = {}
        bad = 0
        turns = []
        for i in range(n):
            st = ZombieRun(players=players, seed=f"bench-{players}-{i}")
            out = st.playout(random.Random(i))
            rules[out.rule] = rules.get(out.rule, 0) + 1
            bad += bool(st.check_invariants())
            turns.append(st.turns)
        flagged = rules.get("cap", 0) + rules.get("repetition", 0)
        print(f"  zombie-run {players}p: finished {n - flagged}, flagged {flagged}, "
              f"invariant failures {bad}, outcomes {rules}, turns {min(turns)}-{max(turns)}"
              f"  ({time.perf_counter() - t0:.1f}s)")
    for players in (2, 3, 4) if "zvv" in games else ():
        for bot, cap in (("random", 200), ("greedy", 3000)):
            t0 = time.perf_counter()
            rules = {}
            bad = 0
            flagged_seeds = []
            for i in range(n if bot == "random" else n_greedy):
                st = ZombiesVsVampires(players=players, seed=f"bench-{players}-{i}",
                                       options={"max_turns": cap})
                out = st.playout(random.Random(i), bot=greedy_bot if bot == "greedy" else None)
                rules[out.rule] = rules.get(out.rule, 0) + 1
                bad += bool(st.check_invariants())
                if out.rule == "cap" and len(flagged_seeds) < 3:
                    flagged_seeds.append(st.seed)
            flagged = rules.get("cap", 0)
            done = n if bot == "random" else n_greedy
            print(f"  zvv {players}p {bot} (cap {cap} turns): finished {done - flagged}, "
                  f"flagged {flagged} (e.g. seeds {flagged_seeds}), invariant failures {bad}, "
                  f"outcomes {rules}  ({time.perf_counter() - t0:.1f}s)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games, one repeat")
    ap.add_argument("--sim", action="store_true", help="also run the 1000-game simulations")
    ap.add_argument("--sim-games", type=int, default=1000)
    ap.add_argument("--sim-greedy", type=int, default=100, help="ZvV greedy games per count")
    ap.add_argument("--sim-only", choices=("zr", "zvv"), help="only the simulations, one game")
    a = ap.parse_args(argv)
    if a.sim_only:
        simulate(a.sim_games, a.sim_greedy, (a.sim_only,))
        return
    rep = 1 if a.quick else 3
    k = 0.3 if a.quick else 1.0

    cal = calibrate()
    print(f"calibration: {CAL_ITERS:,} loop iterations in {cal:.3f}s "
          f"(an idle modern core: ~0.1s; this run is {cal / 0.1:.1f}x slower than that)")

    def line(name, rate, target=None):
        t = f"  ({rate / target:.2f}x target {target:,})" if target else ""
        print(f"  {name:44s} {rate:12,.0f}/s   {rate * cal:9,.0f} per calibration unit{t}")

    print("zombie-run")
    n = int(2000 * k)
    dt, plies = best_of(lambda: zr_games(n, fast=True), rep)
    line("playout() kernel games (random_move, no list)", n / dt)
    line("  its plies (no list, no undo: not actions)", plies / dt)
    dt, _ = best_of(lambda: zr_games(n, fast=False), rep)
    line("playout() reference-loop games (no list)", n / dt)
    m = int(300 * k)
    dt, acts = best_of(lambda: zr_actions(m), rep)
    line("random play via push: actions", acts / dt, TARGET_ZR_ACTIONS)
    line("random play via push: games", m / dt)
    dt, done = best_of(lambda: push_pop(ZombieRun, 4), rep)
    line("push+pop of generated moves (not a game)", done / dt)

    print("zombies-vs-vampires")
    zvv_actions(1, 50, 2)                      # warm-up: the board's tables are filled on first use
    m = max(2, int(12 * k))
    dt, (acts, gen) = best_of(lambda: zvv_actions(m), rep)
    line("random play via push: actions", acts / dt, TARGET_ZVV_ACTIONS)
    line("random play via push: games (300-turn cap)", m / dt)
    line("  legal moves generated in them", gen / dt)
    for players in (2, 3, 4):
        g = 1 if a.quick else 2
        dt, (acts, _) = best_of(lambda players=players, g=g: zvv_actions(g, 3000, players), rep)
        line(f"{players} players: via push, actions to the end", acts / dt, TARGET_ZVV_ACTIONS)
        line(f"{players} players: via push, games ({acts // g:,} actions each)", g / dt)
    dt, done = best_of(lambda: push_pop(ZombiesVsVampires, 2), rep)
    line("push+pop of generated moves (not a game)", done / dt)
    g = max(2, int(6 * k))
    dt, plies = best_of(lambda: zvv_greedy(g), 1)
    line("greedy-bot games (the bot's moves, not uniform)", g / dt)
    line("  their plies", plies / dt)
    if a.sim:
        simulate(a.sim_games, a.sim_greedy)


if __name__ == "__main__":
    main()
