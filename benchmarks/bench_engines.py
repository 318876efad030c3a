"""Engine speed, all three engines: legal-checked actions per second per core (random and greedy
play) and complete random Zombie Run games per second per core.

    .venv/bin/python benchmarks/bench_engines.py [--quick] [--before /path/to/old/checkout]

- A *legal-checked action* is one ``push(move)``: the engine verifies the move's legality (and
  plays every automatic step it triggers: draws, events, zombie movement, dice). The bot picks
  the move: **random** = the game's uniform sampler (``random_move`` when the game has one, else
  a uniform pick from ``legal_moves()``); **greedy** = Cimiterio's generic one-ply heuristic bot
  (``simulate.greedy_bot``, its lookahead pushes not counted), Zombie Run's observation bot
  (it sees only its observation and answers a move text, which is parsed), Zombies vs Vampires'
  racer (``greedy_bot``). The bot's thinking is included in the time.
- Times are CPU seconds of one process (``time.process_time``), i.e. per core; best of N.
- A fixed pure-Python calibration loop runs first; every rate is also given "per calibration
  unit" (rate x calibration seconds) so runs on a busy and an idle machine compare.
- ``--before DIR``: the same workloads are also run, in this same run, in child processes that
  import ``pnp`` from DIR (e.g. ``git archive <old commit> | tar -x -C /tmp/before``): for each
  engine, an "after" child and a "before" child run back to back, for ``--rounds`` rounds; each
  metric keeps its best rate, and the calibration loop runs just before each metric, so the last
  column ("per cal.") compares rate x calibration time, i.e. corrected for the load.

Targets: 50,000 legal-checked actions/s per core for each engine; 3,000 complete random Zombie
Run games/s per core.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

TARGET_ACTIONS = 50_000
TARGET_ZR_GAMES = 3_000
CAL_ITERS = 2_000_000


def calibrate() -> float:
    best = None
    for _ in range(3):
        t0 = time.process_time()
        x = 0
        for i in range(CAL_ITERS):
            x += i & 7
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    return best


def best_of(fn, repeats):
    best = None
    for _ in range(repeats):
        t0 = time.process_time()
        n = fn()
        dt = time.process_time() - t0
        rate = n / dt if dt > 0 else float("inf")
        best = rate if best is None else max(best, rate)
    return best


# ----------------------------------------------------------------------------- workloads
def recorded(game: str, bot: str, games: int, players, cap: int):
    """The bot's games as (players, seed, moves), played untimed."""
    out = []
    play = random_actions if bot == "random" else greedy_actions
    for i in range(games):
        rec = []
        play(game, 1, [players[i % len(players)]], cap, record=rec, first=i)
        out.append(rec[0])
    return out


def replay_pushes(game: str, games) -> int:
    """Legal-checked actions only: replay recorded games with push (each move verified)."""
    from pnp.engines import get_game
    cls = get_game(game)
    acts = 0
    for players, seed, moves in games:
        st = cls.new(players=players, seed=seed)
        push = st.push
        for m in moves:
            push(m)
        acts += len(moves)
    return acts


def new_games(game: str, games: int, players, master: int, record=None, first=0):
    """Games ``first`` .. ``first + games - 1`` of ``game``: (fresh state, its seeded ``Rng``,
    a ``random.Random`` on the same seed), seeds derived from ``master``. Once the caller has
    played a game, its (players, seed, moves) goes to ``record`` when given."""
    from pnp.engines import get_game
    from pnp.engines.core import Rng, derive_seed
    cls = get_game(game)
    cls.new(players=players[0], seed=0)
    for i in range(first, first + games):
        seed = derive_seed(master, i)
        n = players[i % len(players)]
        st = cls.new(players=n, seed=seed)
        yield st, Rng(seed), random.Random(seed)
        if record is not None:
            record.append((n, seed, list(st.move_stack)))


def random_actions(game: str, games: int, players, cap: int, record=None, first=0) -> int:
    acts = 0
    for st, rng, ch in new_games(game, games, players, 12345, record, first):
        rnd = ch.random
        rm = getattr(st, "random_move", None)
        while st.outcome() is None and st.turn_count <= cap:
            if rm is not None:
                m = rm(rnd)
            else:
                ms = st.legal_moves()
                m = ms[rng.randbelow(len(ms))]
            st.push(m)
            acts += 1
    return acts


def greedy_actions(game: str, games: int, players, cap: int, record=None, first=0) -> int:
    if game == "zombie-run":
        from pnp.engines.zombie_run import greedy_bot as zr_greedy

        def decide(st, rng, ch):
            return st.parse_move(zr_greedy(st.observation(st.turn), ch))
    elif game == "zombies-vs-vampires":
        from pnp.engines.zombies_vs_vampires import greedy_bot as zvv_greedy

        def decide(st, rng, ch):
            return zvv_greedy(st, ch)
    else:
        from pnp.engines.simulate import greedy_bot

        def decide(st, rng, ch):
            return greedy_bot(st, rng)
    acts = 0
    for st, rng, ch in new_games(game, games, players, 777, record, first):
        while st.outcome() is None and st.turn_count <= cap:
            st.push(decide(st, rng, ch))
            acts += 1
    return acts


def zr_games(n: int) -> int:
    from pnp.engines.zombie_run import ZombieRun
    for i in range(n):
        st = ZombieRun(players=3 + i % 5, seed=i)
        st.playout(random.Random(i))
    return n


PLAYERS = {"cimiterio": [1, 2, 3, 4], "zombie-run": [3, 4, 5, 6, 7],
           "zombies-vs-vampires": [2, 3, 4]}
CAPS = {"cimiterio": 500, "zombie-run": 2000, "zombies-vs-vampires": 300}


GROUPS = ("cimiterio", "zombie-run", "zombies-vs-vampires", "zombie-run-games")


def measure(quick: bool, repeats: int, group: str) -> dict:
    """{metric: [rate, calibration seconds measured just before it]} for one group."""
    k = 0.3 if quick else 1.0
    import pnp
    out = {"pnp": pnp.__file__, "metrics": {}}
    if group == "zombie-run-games":
        zr_games(20)                                  # warm-up
        cal = calibrate()
        out["metrics"]["zombie-run complete random games/s"] = [
            best_of(lambda: zr_games(int(2000 * k)), repeats), cal]
        return out
    game = group
    nr, ng = {"cimiterio": (int(60 * k) or 1, max(2, int(4 * k))),
              "zombie-run": (int(400 * k) or 1, int(60 * k) or 1),
              "zombies-vs-vampires": (max(2, int(10 * k)), max(2, int(4 * k)))}[game]
    pl, cap = PLAYERS[game], CAPS[game]
    random_actions(game, 1, pl, 20)                   # warm-up: packs, tables, caches
    greedy_actions(game, 1, pl, 5)
    rec_r = recorded(game, "random", nr, pl, cap)
    rec_g = recorded(game, "greedy", ng, pl, cap)
    jobs = [
        (f"{game} legal-checked actions/s (random games)", lambda: replay_pushes(game, rec_r)),
        (f"{game} legal-checked actions/s (greedy games)", lambda: replay_pushes(game, rec_g)),
        (f"{game} random bot + push, actions/s", lambda: random_actions(game, nr, pl, cap)),
        (f"{game} greedy bot + push, actions/s", lambda: greedy_actions(game, ng, pl, cap)),
    ]
    for name, fn in jobs:
        cal = calibrate()
        out["metrics"][name] = [best_of(fn, repeats), cal]
    return out


def target_of(name: str):
    if "games/s" in name:
        return TARGET_ZR_GAMES
    if "legal-checked" in name:
        return TARGET_ACTIONS
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=2, help="best of N inside each run")
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternating runs of each side (best of them)")
    ap.add_argument("--before", help="an old checkout to measure in the same run")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(json.dumps(measure(a.quick, a.repeat, a.child)))
        return
    here = Path(__file__).resolve().parent.parent
    roots = [("after", here)] + ([("before", Path(a.before).resolve())] if a.before else [])
    best: dict = {label: {} for label, _ in roots}      # name -> best rate
    norm: dict = {label: {} for label, _ in roots}      # name -> best rate x calibration s
    cals: dict = {label: [] for label, _ in roots}
    where = {}
    for _ in range(a.rounds):
        for group in GROUPS:
            for label, root in roots:                   # after / before back to back
                cmd = [sys.executable, "-c",
                       f"import sys; sys.path.insert(0, {str(root)!r}); "
                       f"sys.argv = ['bench', '--child', {group!r}, '--repeat', '{a.repeat}'"
                       f"{', ' + repr('--quick') if a.quick else ''}]; "
                       f"exec(open({str(Path(__file__).resolve())!r}).read())"]
                env = dict(os.environ, PYTHONPATH=str(root))
                proc = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True)
                if proc.returncode:
                    print(proc.stderr, file=sys.stderr)
                    raise SystemExit(f"{label} {group}: benchmark failed")
                got = json.loads(proc.stdout.strip().splitlines()[-1])
                where[label] = got["pnp"]
                for name, (rate, cal) in got["metrics"].items():
                    best[label][name] = max(rate, best[label].get(name, 0.0))
                    norm[label][name] = max(rate * cal, norm[label].get(name, 0.0))
                    cals[label].append(cal)
    for label, _ in roots:
        c = cals[label]
        print(f"{label} ({where[label]}): calibration loop ({CAL_ITERS:,} iterations) "
              f"{min(c):.3f}-{max(c):.3f}s over the run (an idle core: ~0.10s)")
    print(f"best of {a.rounds} alternating rounds x {a.repeat} repeats; 'per cal.' = rate x "
          f"calibration seconds of the same run, i.e. corrected for the machine's load")
    head = f"{'per core (CPU time), per second':50s} {'after':>9s} {'x target':>8s}"
    if a.before:
        head += f" {'before':>9s} {'speed-up':>8s} {'per cal.':>8s}"
    print(head)
    for name in best["after"]:
        aft = best["after"][name]
        t = target_of(name)
        line = f"{name:50s} {aft:9,.0f} " + (f"{aft / t:7.2f}x" if t else " " * 8)
        if a.before:
            bef = best["before"][name]
            line += (f" {bef:9,.0f} {aft / bef:7.2f}x "
                     f"{norm['after'][name] / norm['before'][name]:7.2f}x")
        print(line)


if __name__ == "__main__":
    main()
