"""Simulate many games with simple bots and report balance, length and rule coverage.

``simulate(game, games, players, seed, bot, variants, workers)`` is what ``pnp simulate`` calls.
Bots: ``random`` (uniform over legal moves), ``greedy`` (one ply on ``state.heuristic(seat)``),
``planner`` (two plies of the same seat's own moves; slower).
Per-game seeds are derived from the master seed and the game index (``core.derive_seed``), and
results are gathered in index order, so the report is the same whatever the number of workers.
"""
from __future__ import annotations

import json
import math
import statistics
import traceback
from collections import Counter
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable

from pnp.engines.core import GameState, Rng, derive_seed, get_game

BOTS = ("random", "greedy", "planner")
DEFAULT_MAX_TURNS = 500


# ----------------------------------------------------------------------------- bots
def random_bot(st: GameState, rng: Rng):
    moves = st.legal_moves()
    return moves[rng.randbelow(len(moves))]


def greedy_bot(st: GameState, rng: Rng):
    """One-ply lookahead on ``state.heuristic(seat)``. Note: the lookahead resolves the automatic
    chance that follows a move (an event drawn after an action), so it is a lucky greedy."""
    seat = st.to_move
    moves = st.legal_moves()
    best, best_v = [], -math.inf
    for m in moves:
        st.push_unchecked(m)
        v = st.heuristic(seat)
        st.pop()
        if v > best_v + 1e-9:
            best, best_v = [m], v
        elif v > best_v - 1e-9:
            best.append(m)
    return best[rng.randbelow(len(best))]


def planner_bot(st: GameState, rng: Rng, width: int = 6):
    """Two plies of the same seat's own moves: the ``width`` best first moves (by heuristic) are
    expanded with every follow-up, so "move a guardian, then make noise" is seen as a plan.
    Slower (~8x greedy); same lucky lookahead caveat as greedy."""
    seat = st.to_move
    moves = st.legal_moves()
    first = []
    for m in moves:
        st.push_unchecked(m)
        first.append((st.heuristic(seat), m))
        st.pop()
    order = sorted(range(len(first)), key=lambda i: -first[i][0])
    best, best_v = [], -math.inf
    for rank, i in enumerate(order):
        v, m = first[i]
        if rank < width:
            st.push_unchecked(m)
            if st.outcome() is None and st.to_move == seat:
                follow = st.legal_moves()
                v2 = -math.inf
                for m2 in follow:
                    st.push_unchecked(m2)
                    h = st.heuristic(seat)
                    st.pop()
                    if h > v2:
                        v2 = h
                v = max(v, v2)
            st.pop()
        if v > best_v + 1e-9:
            best, best_v = [m], v
        elif v > best_v - 1e-9:
            best.append(m)
    return best[rng.randbelow(len(best))]


def get_bot(name: str) -> Callable:
    try:
        return {"random": random_bot, "greedy": greedy_bot, "planner": planner_bot}[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None


# ----------------------------------------------------------------------------- one game
def play_one(game: str, players: int, seed: int, bot: str | Iterable[str] = "random",
             variants=None, max_turns: int = DEFAULT_MAX_TURNS, check_every: int = 1) -> dict:
    """Play one game; return a JSON-able summary (never raises: errors are reported)."""
    cls = get_game(game)
    bots = [bot] * players if isinstance(bot, str) else list(bot)
    fns = [get_bot(b) for b in bots]
    res = {"seed": seed, "turns": 0, "plies": 0, "outcome": None, "scores": None,
           "capped": False, "problems": [], "error": None, "rules": {}}
    try:
        st = cls.new(players=players, seed=seed, variants=variants)
        brng = Rng(seed ^ 0x5BD1E995)
        plies = 0
        while st.outcome() is None:
            if st.turn_count > max_turns:
                res["capped"] = True
                break
            move = fns[st.to_move](st, brng)
            st.push(move)
            plies += 1
            if check_every and plies % check_every == 0:
                probs = st.check_invariants()
                if probs:
                    res["problems"] = [f"ply {plies}: {p}" for p in probs]
                    break
        if not res["problems"]:
            res["problems"] = st.check_invariants()
        out = st.outcome()
        res.update(turns=st.turn_count, plies=plies, rules=dict(st.rules_fired),
                   outcome=None if out is None else out.to_dict(),
                   scores=list(out.scores) if out else list(getattr(st, "scores", ()) or ()))
    except Exception as exc:  # reported as an anomaly with its seed
        res["error"] = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
    return res


def _play_chunk(args) -> list[dict]:
    game, players, seeds, bot, variants, max_turns = args
    return [play_one(game, players, s, bot, variants, max_turns) for s in seeds]


# ----------------------------------------------------------------------------- report
def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q * len(s)) - 1))
    return s[k]


@dataclass
class SimulationReport:
    game: str
    games: int
    players: int
    seed: int | str
    bot: str
    variants: list
    results: list[dict] = field(repr=False)
    rule_points: tuple = ()
    max_turns: int = DEFAULT_MAX_TURNS

    # -- derived
    def summary(self) -> dict:
        res = self.results
        n = len(res)
        finished = [r for r in res if r["outcome"] is not None]
        broken = [r for r in finished if r["outcome"]["rule"] == "C14" or
                  (not r["outcome"]["winners"] and "gate" in r["outcome"]["reason"])]
        turns = [r["turns"] for r in finished]
        wins = Counter()
        shared = 0
        for r in finished:
            w = r["outcome"]["winners"]
            if len(w) > 1:
                shared += 1
            for s in w:
                wins[s] += 1
        tie_break = sum(1 for r in res if r["rules"].get("C23", 0) > 0)
        spreads = [max(r["scores"]) - min(r["scores"]) for r in finished if r["scores"]]
        tops = [max(r["scores"]) for r in finished if r["scores"]]
        fired = Counter()
        games_fired = Counter()
        for r in res:
            fired.update(r["rules"])
            games_fired.update(r["rules"].keys())
        anomalies = []
        rep = ("pnp.engines.simulate.play_one({game!r}, {players}, {seed}, {bot!r}, {variants!r}"
               ", max_turns={mt})")
        for r in res:
            if r["error"]:
                anomalies.append({"seed": r["seed"], "kind": "error", "detail": r["error"]})
            elif r["problems"]:
                anomalies.append({"seed": r["seed"], "kind": "invariant", "detail": r["problems"][:5]})
            elif r["capped"]:
                anomalies.append({"seed": r["seed"], "kind": "non-terminating",
                                  "detail": f"no outcome after {r['turns']} turns"})
        for a in anomalies:
            a["reproduce"] = rep.format(game=self.game, players=self.players, seed=a["seed"],
                                        bot=self.bot, variants=self.variants, mt=self.max_turns)
        seat_share = {}
        for s in range(self.players):
            lo, hi = wilson(wins[s], n)
            seat_share[s] = {"wins": wins[s], "share": wins[s] / n if n else 0.0,
                             "ci95": [round(lo, 4), round(hi, 4)]}
        never = [r for r in self.rule_points if fired.get(r, 0) == 0]
        return {
            "game": self.game, "games": n, "players": self.players, "seed": self.seed,
            "bot": self.bot, "variants": list(self.variants),
            "completed": len(finished), "completion_rate": len(finished) / n if n else 0.0,
            "gate_broken": len(broken), "gate_break_rate": len(broken) / n if n else 0.0,
            "gate_break_ci95": [round(x, 4) for x in wilson(len(broken), n)],
            "turns": {"median": statistics.median(turns) if turns else None,
                      "p95": _pct(turns, 0.95) if turns else None,
                      "max": max(turns) if turns else None},
            "score_spread": {"mean": statistics.fmean(spreads) if spreads else None,
                             "max": max(spreads) if spreads else None,
                             "top_score_median": statistics.median(tops) if tops else None},
            "win_share": seat_share,
            "no_winner": sum(1 for r in finished if not r["outcome"]["winners"]),
            "shared_wins": shared,
            "tie_rate": tie_break / n if n else 0.0,
            "tie_breaks": tie_break,
            "rules_fired": dict(sorted(fired.items(), key=lambda kv: _rule_key(kv[0]))),
            "rules_games": dict(sorted(games_fired.items(), key=lambda kv: _rule_key(kv[0]))),
            "never_exercised": never,
            "anomalies": anomalies,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.summary(), indent=indent)

    def to_text(self) -> str:
        s = self.summary()
        L = [f"{s['game']}: {s['games']} games, {s['players']} players, bot {s['bot']}, "
             f"seed {s['seed']}, variants {s['variants'] or '-'}",
             f"  completed        {s['completed']}/{s['games']} ({100 * s['completion_rate']:.1f}%)",
             f"  gate broken      {s['gate_broken']} ({100 * s['gate_break_rate']:.1f}%, 95% CI "
             f"{100 * s['gate_break_ci95'][0]:.1f}-{100 * s['gate_break_ci95'][1]:.1f}%)",
             f"  turns            median {s['turns']['median']}, p95 {s['turns']['p95']}, "
             f"max {s['turns']['max']}",
             f"  score spread     mean {_f(s['score_spread']['mean'])}, max "
             f"{s['score_spread']['max']}, median top score {s['score_spread']['top_score_median']}",
             "  win share per seat (95% Wilson CI):"]
        for seat, w in s["win_share"].items():
            L.append(f"    seat {seat}: {w['wins']} ({100 * w['share']:.1f}%, "
                     f"{100 * w['ci95'][0]:.1f}-{100 * w['ci95'][1]:.1f}%)")
        L.append(f"  no winner        {s['no_winner']}   shared wins {s['shared_wins']}   "
                 f"tie-breaks {s['tie_breaks']} ({100 * s['tie_rate']:.1f}%)")
        L.append("  rule points fired (total / games):")
        row = []
        for r, k in s["rules_fired"].items():
            row.append(f"{r}:{k}/{s['rules_games'][r]}")
        for i in range(0, len(row), 6):
            L.append("    " + "  ".join(row[i:i + 6]))
        if s["never_exercised"]:
            L.append("  NEVER EXERCISED: " + ", ".join(s["never_exercised"]))
        if s["anomalies"]:
            L.append(f"  ANOMALIES ({len(s['anomalies'])}):")
            for a in s["anomalies"][:10]:
                detail = a["detail"] if isinstance(a["detail"], str) else "; ".join(a["detail"])
                L.append(f"    seed {a['seed']} {a['kind']}: {detail.splitlines()[0]}")
                L.append(f"      reproduce: {a['reproduce']}")
        else:
            L.append("  anomalies        none (invariants held in every game)")
        return "\n".join(L)


def _f(x):
    return "-" if x is None else f"{x:.2f}"


def _rule_key(r: str):
    head = r.rstrip("0123456789")
    tail = r[len(head):]
    return (head, int(tail) if tail else 0)


# ----------------------------------------------------------------------------- driver
def simulate(game: str, games: int = 100, players: int = 2, seed: int | str = 0,
             bot: str = "random", variants=None, workers: int = 1,
             executor: Executor | None = None, progress: Callable[[int, int], None] | None = None,
             max_turns: int = DEFAULT_MAX_TURNS, chunk: int = 0) -> SimulationReport:
    """Run ``games`` games; same ``seed`` gives the same report whatever ``workers`` is."""
    cls = get_game(game)
    if isinstance(variants, str):
        variants = [v for v in variants.replace(",", " ").split() if v]
    variants = list(variants or [])
    cls.new(players=players, seed=0, variants=variants)   # validate options early
    get_bot(bot)
    seeds = [derive_seed(seed, i) for i in range(games)]
    size = chunk or max(1, min(50, games // (max(1, workers) * 4) or 1))
    chunks = [seeds[i:i + size] for i in range(0, games, size)]
    jobs = [(game, players, c, bot, variants, max_turns) for c in chunks]
    results: list[dict] = []
    done = 0
    own = None
    if executor is None and workers > 1:
        own = executor = ProcessPoolExecutor(max_workers=workers)
    try:
        if executor is None:
            for job in jobs:
                part = _play_chunk(job)
                results.extend(part)
                done += len(part)
                if progress:
                    progress(done, games)
        else:
            for part in executor.map(_play_chunk, jobs):   # map keeps the order of the jobs
                results.extend(part)
                done += len(part)
                if progress:
                    progress(done, games)
    finally:
        if own is not None:
            own.shutdown()
    return SimulationReport(game, games, players, seed, bot, variants, results, cls.rule_points,
                            max_turns)
