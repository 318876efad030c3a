"""Engine speed under one definition: random play with the full move list every ply.

    .venv/bin/python benchmarks/bench_engines.py [--quick] [--before /path/to/old/checkout]

The one throughput definition (docs/engines.md, issue 13): a game is played from ``new()`` to
its end; at every ply ``legal_moves()`` is generated (the whole list, as a search or RL agent
needs it), one move is picked uniformly from it (``Rng.randbelow``) and ``push``-ed (its
legality check and every automatic step it triggers included). **actions/s** = pushes per CPU
second of one process (``time.process_time``: per core); **games/s** = complete games per CPU
second, set-up included. Best of ``--repeat`` runs inside a process, best of ``--rounds``
processes.

Baselines in the same run: a fixed pure-Python calibration loop runs just before each metric
(its seconds are printed; "per cal." multiplies a rate by them, so runs on a busy and an idle
machine compare); with ``--before DIR`` (e.g. ``git archive <old commit> | tar -x -C DIR``)
every workload also runs in child processes importing ``pnp`` from DIR, alternating with ours,
and the speed-up is printed.

Targets, per core: Zombie Run 150,000 actions/s (OpenSpiel's C++ crazy_eights driven from
Python did 141k on the issue's machine), Cimiterio 100,000, Zombies vs Vampires 50,000.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

TARGETS = {"zombie-run": 150_000, "cimiterio": 100_000, "zombies-vs-vampires": 50_000}
PLAYERS = {"cimiterio": (1, 2, 3, 4), "zombie-run": (3, 4, 5, 6, 7),
           "zombies-vs-vampires": (2, 3, 4)}
GAMES = {"cimiterio": 200, "zombie-run": 200, "zombies-vs-vampires": 4}   # per timed run
CAL_ITERS = 2_000_000
MASTER_SEED = 12345


def calibrate() -> float:
    """CPU seconds of a fixed pure-Python loop, best of 3 (an idle modern core: ~0.1 s)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        x = 0
        for i in range(CAL_ITERS):
            x += i & 7
        best = min(best, time.process_time() - t0)
    return best


def random_play(game: str, games: int) -> tuple[int, int]:
    """(actions, games) of ``games`` complete games of uniform random play over the full
    ``legal_moves()`` list, seeds derived from MASTER_SEED (same games in every run)."""
    from pnp.engines import get_game
    from pnp.engines.core import Rng, derive_seed
    cls = get_game(game)
    players = PLAYERS[game]
    actions = 0
    for i in range(games):
        seed = derive_seed(MASTER_SEED, i)
        st = cls.new(players=players[i % len(players)], seed=seed)
        rng = Rng(seed)
        while st.outcome() is None:
            moves = st.legal_moves()
            st.push(moves[rng.randbelow(len(moves))])
            actions += 1
    return actions, games


def measure(game: str, quick: bool, repeats: int) -> dict:
    """One child's figures for ``game``: best actions/s and games/s, and the calibration."""
    import pnp
    n = max(1, GAMES[game] // (4 if quick else 1))
    random_play(game, 1)                                 # warm-up: pack, tables, caches
    cal = calibrate()
    best_a = best_g = 0.0
    for _ in range(repeats):
        t0 = time.process_time()
        acts, done = random_play(game, n)
        dt = time.process_time() - t0
        best_a, best_g = max(best_a, acts / dt), max(best_g, done / dt)
    return {"pnp": pnp.__file__, "cal": cal, "actions": best_a, "games": best_g}


def run_child(root: Path, game: str, a) -> dict:
    """``measure`` in a fresh process that imports pnp from ``root``."""
    args = ["--child", game, "--repeat", str(a.repeat)] + (["--quick"] if a.quick else [])
    cmd = [sys.executable, "-c",
           f"import sys; sys.path.insert(0, {str(root)!r}); sys.argv = ['bench'] + {args!r}; "
           f"exec(open({str(Path(__file__).resolve())!r}).read())"]
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True)
    if proc.returncode:
        print(proc.stderr, file=sys.stderr)
        raise SystemExit(f"{root} {game}: benchmark failed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a quarter of the games")
    ap.add_argument("--repeat", type=int, default=2, help="best of N inside each process")
    ap.add_argument("--rounds", type=int, default=2, help="processes per side (best of them)")
    ap.add_argument("--before", help="an old checkout to measure in the same run")
    ap.add_argument("--games", nargs="*", choices=sorted(TARGETS), default=sorted(TARGETS))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(json.dumps(measure(a.child, a.quick, a.repeat)))
        return
    here = Path(__file__).resolve().parent.parent
    roots = [("after", here)] + ([("before", Path(a.before).resolve())] if a.before else [])
    best: dict = {}                 # (side, game, metric) -> best rate; also x calibration
    cals: dict = {label: [] for label, _ in roots}
    where = {}
    for _ in range(a.rounds):
        for game in a.games:
            for label, root in roots:                   # after / before back to back
                got = run_child(root, game, a)
                where[label] = got["pnp"]
                cals[label].append(got["cal"])
                for metric in ("actions", "games"):
                    for key, value in (((label, game, metric), got[metric]),
                                       ((label, game, metric, "cal"), got[metric] * got["cal"])):
                        best[key] = max(value, best.get(key, 0.0))
    for label, _ in roots:
        c = cals[label]
        print(f"{label} ({where[label]}): calibration loop ({CAL_ITERS:,} iterations) "
              f"{min(c):.3f}-{max(c):.3f} s (an idle core: ~0.10 s)")
    print("random play, legal_moves() every ply, uniform pick, push, games to the end; per core "
          f"(CPU time); best of {a.rounds} processes x {a.repeat} runs; 'per cal.' = rate x "
          "calibration seconds")
    head = f"{'':34s} {'after':>10s} {'x target':>8s}"
    if a.before:
        head += f" {'before':>10s} {'speed-up':>8s} {'per cal.':>8s}"
    print(head)
    for game in a.games:
        for metric in ("actions", "games"):
            aft = best[("after", game, metric)]
            t = TARGETS[game] if metric == "actions" else None
            line = f"{game + ' ' + metric + '/s':34s} {aft:10,.1f} " + (f"{aft / t:7.2f}x" if t else " " * 8)
            if a.before:
                bef = best[("before", game, metric)]
                ratio = best[("after", game, metric, "cal")] / best[("before", game, metric, "cal")]
                line += f" {bef:10,.1f} {aft / bef:7.2f}x {ratio:7.2f}x"
            print(line)


if __name__ == "__main__":
    main()
