"""Simulate many games with simple bots and report balance, length and rule coverage.

``simulate(game, games, players, seed, bot, variants, workers)`` is what ``pnp simulate`` calls.
Bots: ``random`` (uniform over legal moves), ``greedy`` (one ply on ``state.heuristic(seat)``),
``planner`` (two plies of the same seat's own moves; slower). A game with hidden information
(it defines ``observation(seat)``, e.g. Zombie Run's hands) is played only by its own
``observation_bots``: they get the observation of the seat to move, never the state.
Game-specific figures come from ``state.stats()`` (see ``aggregate_stats``); games that hit a
turn cap or a repetition guard are reported as "did not end" with a reproducing seed and are
not counted as finished.
Per-game seeds are derived from the master seed and the game index (``core.derive_seed``), and
results are gathered in index order, so the report is the same whatever the number of workers.
Seeds are derived chunk by chunk as the chunks are sent, at most ``IN_FLIGHT_PER_WORKER`` per
worker ahead of the results, so a large ``games`` costs nothing before its games are played;
``games`` is bounded by ``pnp.limits.MAX_GAMES``.
"""
from __future__ import annotations

import json
import math
import statistics
import traceback
from collections import Counter, deque
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from pnp.engines.botload import BotError
from pnp.engines.core import GameState, Rng, derive_seed, get_game
from pnp.engines.metrics import run_metrics
from pnp.limits import MAX_GAMES, MAX_WORKERS

BOTS = ("random", "greedy", "planner")
DEFAULT_MAX_TURNS = 500


# ----------------------------------------------------------------------------- bots
def random_bot(st: GameState, rng: Rng):
    """Uniform over the legal moves (the game's own ``random_move`` sampler when it has one:
    same distribution, without building the move list)."""
    rm = getattr(st, "random_move", None)
    if rm is not None:
        return rm(rng.random)
    moves = st.legal_moves()
    return moves[rng.randbelow(len(moves))]


def _one_ply(st: GameState, seat: int) -> list:
    """(heuristic(seat) after the move, move) for every legal move, in legal-move order."""
    scored = []
    for m in st.legal_moves():
        st.push_unchecked(m)
        scored.append((st.heuristic(seat), m))
        st.pop()
    return scored


def _pick_best(scored: list, rng: Rng):
    """A uniform pick among the best of ``scored`` ((value, move) pairs, in the order the bot
    met them): values within 1e-9 of the best so far tie with it."""
    best, best_v = [], -math.inf
    for v, m in scored:
        if v > best_v + 1e-9:
            best, best_v = [m], v
        elif v > best_v - 1e-9:
            best.append(m)
    return best[rng.randbelow(len(best))]


def greedy_bot(st: GameState, rng: Rng):
    """One-ply lookahead on ``state.heuristic(seat)``. Note: the lookahead resolves the automatic
    chance that follows a move (an event drawn after an action), so it is a lucky greedy."""
    return _pick_best(_one_ply(st, st.to_move), rng)


def planner_bot(st: GameState, rng: Rng, width: int = 6):
    """Two plies of the same seat's own moves: the ``width`` best first moves (by heuristic) are
    expanded with every follow-up, so "move a guardian, then make noise" is seen as a plan.
    Slower (~8x greedy); same lucky lookahead caveat as greedy."""
    seat = st.to_move
    first = _one_ply(st, seat)
    order = sorted(range(len(first)), key=lambda i: -first[i][0])
    scored = []
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
        scored.append((v, m))
    return _pick_best(scored, rng)


def get_bot(name: str) -> Callable:
    try:
        return {"random": random_bot, "greedy": greedy_bot, "planner": planner_bot}[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None


def hidden_information(cls) -> bool:
    """Does the game hide things from its players (it defines ``observation(seat)``)?"""
    return callable(getattr(cls, "observation", None))


def observation_random(observation: dict, rng: Rng) -> str:
    """The random bot of a game with hidden information that has none of its own: a uniformly
    random move text of the observation's ``legal`` list (the protocol puts the seat's legal
    moves there: what it may play, it may see)."""
    legal = observation["legal"]
    return legal[rng.randbelow(len(legal))]


def observation_bots(cls) -> dict[str, Callable]:
    """The bots that play ``cls`` from an observation: the game's ``observation_bots``, and
    ``random`` even when the game declares none."""
    return {"random": observation_random, **(getattr(cls, "observation_bots", None) or {})}


def bot_names(cls) -> tuple[str, ...]:
    """The bots that may play ``cls``: a game with hidden information only offers its
    observation bots (they see what their player may see); others offer the generic ones and
    the game's own ``bots`` (e.g. the Zombies vs Vampires racer)."""
    if hidden_information(cls):
        searchable = callable(getattr(cls, "determinize", None))
        return tuple(observation_bots(cls)) + (("ismcts",) if searchable else ())
    return BOTS + tuple(getattr(cls, "bots", {}) or {}) + ("mcts",)


class RandomShim:
    """``random.Random``-like view (random, choice, sample) of the simulator's seeded ``Rng``,
    for game bots written against the standard library."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def random(self) -> float:
        return self.rng.random()

    def choice(self, seq):
        return seq[self.rng.randbelow(len(seq))]

    def sample(self, seq, k: int) -> list:
        pool = list(seq)
        out = []
        for _ in range(k):
            out.append(pool.pop(self.rng.randbelow(len(pool))))
        return out


def search_or_designer_bot(cls, name: str) -> Callable | None:
    """``mcts[@budget]`` (no hidden information) / ``ismcts[@budget]`` (hidden information,
    from determinisations: :mod:`pnp.engines.search`), a designer's ``module:function``
    (:mod:`pnp.engines.botload`); None for any other name."""
    from pnp.engines.botload import designer_bot, is_designer_bot
    from pnp.engines.search import ismcts_bot, mcts_bot, parse_search_bot

    if is_designer_bot(name):
        return designer_bot(cls, name)
    found = parse_search_bot(name)
    if found is None:
        return None
    kind, budget = found
    if hidden_information(cls):
        if kind == "mcts":
            raise ValueError(f"bot {name!r} would see hidden information in {cls.name}; "
                             f"ismcts searches only what the seat to move may see")
        if "ismcts" not in bot_names(cls):
            raise ValueError(f"bot {name!r}: {cls.name} hides information but has no "
                             f"determinize(seat, rng), so it cannot be searched")
        return ismcts_bot(budget)
    if kind == "ismcts":
        raise ValueError(f"bot {name!r}: {cls.name} hides nothing from its players; use mcts")
    return mcts_bot(budget)


def get_game_bot(cls, name: str) -> Callable:
    """A ``fn(state, rng) -> move`` for ``cls``. With hidden information the bot is one of the
    game's ``observation_bots``: it gets ``state.observation(seat)`` only (never the state)
    and answers a move text, which is parsed (and then legality-checked by ``push``). Also
    the search bots (``mcts`` / ``ismcts``, ``@budget``) and a designer's ``module:function``."""
    searcher = search_or_designer_bot(cls, name)
    if searcher is not None:
        return searcher
    if hidden_information(cls):
        obs_bots = observation_bots(cls)
        if name not in obs_bots:
            # a bot that plays from the whole position exists but would cheat here; any other
            # name is simply not a bot (a typo, or another game's bot)
            if name not in BOTS and name not in (getattr(cls, "bots", None) or {}):
                raise unknown_bot(cls, name)
            raise ValueError(f"bot {name!r} would see hidden information in {cls.name}; the bots "
                             f"that see only what their seat may see: {', '.join(bot_names(cls))}")
        fn = obs_bots[name]

        def play(st, rng, _fn=fn):
            return st.parse_move(_fn(st.observation(st.to_move), rng))

        play.__name__ = f"{name}_observation_bot"
        return play
    game_bots = getattr(cls, "bots", None) or {}
    if name in game_bots:
        fn = game_bots[name]

        def play_full(st, rng, _fn=fn):
            return _fn(st, RandomShim(rng))

        return play_full
    if name not in BOTS:
        raise unknown_bot(cls, name)
    return get_bot(name)


def unknown_bot(cls, name: str) -> ValueError:
    """The error for a name that is no bot of ``cls``: it lists ``bot_names(cls)``, the very
    names ``get_game_bot`` takes, and the designer's own bot."""
    return ValueError(f"unknown bot {name!r}; known for {cls.name}: {', '.join(bot_names(cls))}"
                      f" (or module:function, your own bot: `pnp docs bots`)")


# ----------------------------------------------------------------------------- one game
def play_one(game: str, players: int, seed: int, bot: str | Iterable[str] = "random",
             variants=None, max_turns: int = DEFAULT_MAX_TURNS, check_every: int = 1) -> dict:
    """Play one game; return a JSON-able summary (never raises: errors are reported).

    ``capped`` is true when the game did not end: the simulator's turn cap (``max_turns``) or
    one of the game's own never-ending guards (``unfinished_rules``: turn cap, repetition)."""
    cls = get_game(game)
    bots = [bot] * players if isinstance(bot, str) else list(bot)
    res: dict[str, Any] = {"seed": seed, "turns": 0, "plies": 0, "outcome": None, "scores": None,
           "capped": False, "unfinished": None, "problems": [], "error": None, "rules": {},
           "stats": {}, "metrics": {}}
    try:
        fns = [get_game_bot(cls, b) for b in bots]
        st = cls.new(players=players, seed=seed, variants=variants)
        brng = Rng(seed ^ 0x5BD1E995)
        plies = 0
        watch = PlayWatch(players)
        while st.outcome() is None:
            if st.turn_count > max_turns:
                res["capped"] = True
                res["unfinished"] = f"simulator turn cap {max_turns}"
                break
            watch.before_move(st)
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
        if out is not None and out.rule in cls.unfinished_rules:
            res["capped"] = True
            res["unfinished"] = f"{out.rule}: {out.reason}"
        res.update(turns=st.turn_count, plies=plies, rules=dict(st.rules_fired),
                   outcome=None if out is None else out.to_dict(),
                   scores=list(out.scores) if out else list(getattr(st, "scores", ()) or ()),
                   stats=st.stats(), metrics=watch.result(st.turn_count, plies))
    except BotError:          # a designer's bot answered an illegal move: their bug, said as a message
        raise
    except Exception as exc:  # reported as an anomaly with its seed
        res["error"] = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
    return res


class PlayWatch:
    """What play_one measures besides the outcome (Ludii-style metrics): the number of legal
    moves at every decision (branching factor) and the leading seat by ``heuristic(seat)``,
    sampled once per turn (lead changes). A tie for the lead keeps the previous leader, so a
    level position is not counted as a change."""

    def __init__(self, players: int):
        self.players = players
        self.choices: list[int] = []
        self.leader: int | None = None
        self.lead_changes = 0
        self.sampled_turn: int | None = None

    def before_move(self, st: GameState) -> None:
        self.choices.append(len(st.legal_moves()))
        if self.players > 1 and st.turn_count != self.sampled_turn:
            self.sampled_turn = st.turn_count
            self._sample_leader(st)

    def _sample_leader(self, st: GameState) -> None:
        values = [st.heuristic(q) for q in range(self.players)]
        best = max(values)
        leaders = [q for q, v in enumerate(values) if v >= best - 1e-9]
        if len(leaders) != 1:
            return
        if self.leader is not None and leaders[0] != self.leader:
            self.lead_changes += 1
        self.leader = leaders[0]

    def result(self, turns: int, plies: int) -> dict:
        c = self.choices
        return {"branching_mean": statistics.fmean(c) if c else None,
                "branching_median": statistics.median(c) if c else None,
                "decisions": len(c),
                "lead_changes": self.lead_changes if self.players > 1 else None,
                "moves_per_turn": plies / turns if turns else None}


def _play_chunk(args) -> list[dict]:
    game, players, seeds, bot, variants, max_turns, check_every = args
    return [play_one(game, players, s, bot, variants, max_turns, check_every) for s in seeds]


# ----------------------------------------------------------------------------- statistics
def two_proportion_z(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """Two-sided two-proportion z-test (pooled): (z, p). (0, 1) when undefined."""
    if n1 == 0 or n2 == 0:
        return 0.0, 1.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (k1 / n1 - k2 / n2) / se
    return z, math.erfc(abs(z) / math.sqrt(2))


def mann_whitney(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """Mann-Whitney U test, normal approximation with tie correction and continuity
    correction: (U of a, z, two-sided p). Pure Python (no scipy)."""
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        return 0.0, 0.0, 1.0
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks_a = 0.0
    ties = 0.0
    i = 0
    n = n1 + n2
    while i < n:
        j = i
        while j + 1 < n and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        rank = (i + j) / 2 + 1
        t = j - i + 1
        if t > 1:
            ties += t ** 3 - t
        ranks_a += rank * sum(1 for k in range(i, j + 1) if pooled[k][1] == 0)
        i = j + 1
    u = ranks_a - n1 * (n1 + 1) / 2
    mu = n1 * n2 / 2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0:
        return u, 0.0, 1.0
    d = u - mu
    d = d - 0.5 if d > 0 else d + 0.5 if d < 0 else 0.0
    z = d / math.sqrt(var)
    return u, z, math.erfc(abs(z) / math.sqrt(2))


def aggregate_stats(rows: list[dict]) -> dict:
    """Combine per-game ``stats()`` mappings: numbers -> mean / total / max / games with a
    non-zero value over the games where defined; per-seat lists -> per-seat means and totals."""
    keys: list = []
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    agg = {}
    for k in keys:
        vals = [r.get(k) for r in rows]
        lists = [v for v in vals if isinstance(v, (list, tuple))]
        if lists:
            seats = max(len(v) for v in lists)
            per = []
            for q in range(seats):
                xs = [v[q] for v in lists if q < len(v) and v[q] is not None]
                per.append({"mean": statistics.fmean(xs) if xs else None,
                            "total": sum(xs), "games": len(xs)})
            agg[k] = {"per_seat": per, "games": len(lists)}
            continue
        xs = [float(v) for v in vals if isinstance(v, (int, float))]   # None: undefined
        agg[k] = {"mean": statistics.fmean(xs) if xs else None,
                  "median": statistics.median(xs) if xs else None,
                  "total": sum(xs), "max": max(xs) if xs else None,
                  "games": len(xs), "games_nonzero": sum(1 for x in xs if x),
                  "undefined": len(vals) - len(xs)}
    return agg


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
        """The report's figures (computed once; a fresh top-level dict each call)."""
        cached = self.__dict__.get("_summary")
        if cached is None:
            cached = self.__dict__["_summary"] = self._summary_now()
        return dict(cached)

    def _summary_now(self) -> dict:
        res = self.results
        n = len(res)
        crashed = [r for r in res if r["error"]]
        unfinished = [r for r in res if not r["error"] and (r["capped"] or r["outcome"] is None)]
        finished = [r for r in res if not r["error"] and not r["capped"]
                    and r["outcome"] is not None]
        nf = len(finished)
        cls = get_game(self.game)
        draw_rules = tuple(cls.draw_rules)
        no_winner = [r for r in finished if not r["outcome"]["winners"]]
        # the game's own wins (a cooperative game's loss, e.g. Cimiterio's broken gate)
        game_wins = sum(1 for r in finished if r["outcome"]["rule"] in cls.game_win_rules)
        turns = [r["turns"] for r in finished]
        wins: Counter = Counter()
        shared = 0
        for r in finished:
            w = r["outcome"]["winners"]
            if len(w) > 1:
                shared += 1
            for s in w:
                wins[s] += 1
        tie_break = sum(1 for r in res if any(r["rules"].get(rule, 0) > 0 for rule in cls.tie_break_rules))
        spreads = [max(r["scores"]) - min(r["scores"]) for r in finished if r["scores"]]
        tops = [max(r["scores"]) for r in finished if r["scores"]]
        fired: Counter = Counter()
        games_fired: Counter = Counter()
        for r in res:
            fired.update(r["rules"])
            games_fired.update(r["rules"].keys())
        anomalies = []
        rep = ("pnp.engines.simulate.play_one({game!r}, {players}, {seed}, {bot!r}, {variants!r}"
               ", max_turns={mt})")
        why: Counter = Counter()
        for r in res:
            if r["error"]:
                anomalies.append({"seed": r["seed"], "kind": "error", "detail": r["error"]})
            elif r["problems"]:
                anomalies.append({"seed": r["seed"], "kind": "invariant", "detail": r["problems"][:5]})
            elif r["capped"] or r["outcome"] is None:
                reason = r.get("unfinished") or "no outcome"
                why[reason.split(":")[0].split(" (")[0]] += 1
                anomalies.append({"seed": r["seed"], "kind": "non-terminating",
                                  "detail": f"did not end: {reason} (after {r['turns']} turns)"})
        for a in anomalies:
            a["reproduce"] = rep.format(game=self.game, players=self.players, seed=a["seed"],
                                        bot=self.bot, variants=self.variants, mt=self.max_turns)
        seat_share = {}
        for s in range(self.players):
            lo, hi = wilson(wins[s], nf)
            seat_share[s] = {"wins": wins[s], "share": wins[s] / nf if nf else 0.0,
                             "ci95": [round(lo, 4), round(hi, 4)]}
        never = [r for r in self.rule_points if fired.get(r, 0) == 0]
        stats = aggregate_stats([r.get("stats") or {} for r in res if not r["error"]])
        out = {
            "game": self.game, "games": n, "players": self.players, "seed": self.seed,
            "bot": self.bot, "variants": list(self.variants), "max_turns": self.max_turns,
            "completed": nf, "completion_rate": nf / n if n else 0.0,
            "did_not_end": len(unfinished), "did_not_end_rate": len(unfinished) / n if n else 0.0,
            "did_not_end_ci95": [round(x, 4) for x in wilson(len(unfinished), n)],
            "did_not_end_reasons": dict(sorted(why.items())),
            "did_not_end_seeds": [r["seed"] for r in unfinished[:20]],
            "crashed": len(crashed),
            "invariant_failures": sum(1 for r in res if r["problems"] and not r["error"]),
            "turns": {"median": statistics.median(turns) if turns else None,
                      "mean": statistics.fmean(turns) if turns else None,
                      "p95": _pct(turns, 0.95) if turns else None,
                      "max": max(turns) if turns else None},
            "turns_finished": turns,
            "score_spread": {"mean": statistics.fmean(spreads) if spreads else None,
                             "max": max(spreads) if spreads else None,
                             "top_score_median": statistics.median(tops) if tops else None},
            "win_share": seat_share,
            "no_winner": len(no_winner),
            "no_winner_rate": len(no_winner) / nf if nf else 0.0,
            "shared_wins": shared,
            "tie_rate": tie_break / n if n else 0.0,
            "tie_breaks": tie_break,
            "rules_fired": dict(sorted(fired.items(), key=lambda kv: _rule_key(kv[0]))),
            "rules_games": dict(sorted(games_fired.items(), key=lambda kv: _rule_key(kv[0]))),
            "rule_points": list(self.rule_points),
            "never_exercised": never,
            "stats": stats,
            "stat_labels": dict(getattr(cls, "stat_labels", {}) or {}),
            "outcome_rules": dict(sorted(Counter(r["outcome"]["rule"] for r in finished).items(),
                                         key=lambda kv: _rule_key(kv[0]))),
            "metrics": run_metrics(res, draw_rules),
            # seat wins among the games with exactly one winner (the seat-fairness test's data)
            "single_winner_seats": [sum(1 for r in finished if r["outcome"]["winners"] == [q])
                                    for q in range(self.players)],
            # the no-winner outcomes that are not declared draws (read as the game's win)
            "no_winner_rules": sorted({r["outcome"]["rule"] for r in no_winner} - set(draw_rules)),
            "anomalies": anomalies,
        }
        # rule points that never fired, as findings with a code and the configuration (C13...)
        from pnp.engines.reachability import run_findings
        out["rule_findings"] = run_findings(self.game, out)
        if cls.game_win_rules:              # players against the game: how often it won
            out["game_win_rules"] = list(cls.game_win_rules)
            out["game_wins"] = game_wins
            out["game_win_rate"] = game_wins / n if n else 0.0
            out["game_win_ci95"] = [round(x, 4) for x in wilson(game_wins, n)]
        if cls.tie_break_rules:
            out["tie_break_rules"] = list(cls.tie_break_rules)
        return out

    def to_json(self, indent: int | None = 2) -> str:
        s = self.summary()
        s.pop("turns_finished")
        kinds = Counter(a["kind"] for a in s["anomalies"])
        if len(s["anomalies"]) > 50:       # keep the JSON readable: first 20 of each kind
            keep: list = []
            seen: Counter = Counter()
            for a in s["anomalies"]:
                seen[a["kind"]] += 1
                if seen[a["kind"]] <= 20:
                    keep.append(a)
            s["anomalies"] = keep
            s["anomalies_total"] = dict(kinds)
        return json.dumps(s, indent=indent)

    def to_text(self) -> str:
        s = self.summary()
        L = [f"{s['game']}: {s['games']} games, {s['players']} players, bot {s['bot']}, "
             f"seed {s['seed']}, variants {s['variants'] or '-'}",
             f"  completed        {s['completed']}/{s['games']} ({100 * s['completion_rate']:.1f}%)"]
        if s["did_not_end"]:
            reasons = ", ".join(f"{k} {v}" for k, v in s["did_not_end_reasons"].items())
            L.append(f"  DID NOT END      {s['did_not_end']}/{s['games']} "
                     f"({100 * s['did_not_end_rate']:.1f}%: {reasons}); not counted as finished;"
                     f" seeds e.g. {s['did_not_end_seeds'][:3]}")
        if "game_wins" in s:
            L.append(f"  the game won     {s['game_wins']} ({100 * s['game_win_rate']:.1f}%, "
                     f"95% CI {100 * s['game_win_ci95'][0]:.1f}-{100 * s['game_win_ci95'][1]:.1f}%; "
                     f"outcome {', '.join(s['game_win_rules'])})")
        if s["completed"]:
            spread = s["score_spread"]
            L += [f"  turns            median {s['turns']['median']}, p95 {s['turns']['p95']}, "
                  f"max {s['turns']['max']} (finished games)",
                  f"  score spread     mean {_f(spread['mean'])}, max {_s(spread['max'])}, "
                  f"median top score {_s(spread['top_score_median'])}",
                  "  win share per seat among finished games (95% Wilson CI):"]
            for seat, w in s["win_share"].items():
                L.append(f"    seat {seat}: {w['wins']} ({100 * w['share']:.1f}%, "
                         f"{100 * w['ci95'][0]:.1f}-{100 * w['ci95'][1]:.1f}%)")
        else:
            # lengths, scores and win shares count finished games: with none there is nothing
            # to show, and a 0% share "of no games" would read as a result
            L.append("  turns, scores, win shares: none, no game ended (they count finished "
                     "games only)")
        L.append(f"  no winner        {s['no_winner']}   draws {s['metrics']['draws']}   shared wins "
                 f"{s['shared_wins']}" + (f"   tie-breaks {s['tie_breaks']} ({100 * s['tie_rate']:.1f}%; "
                                          f"{', '.join(s['tie_break_rules'])})" if "tie_break_rules" in s else ""))
        m = s["metrics"]
        L.append(f"  metrics          decisiveness {_f(m['decisiveness'])}, drawishness "
                 f"{_f(m['drawishness'])}, lead changes mean {_f(m['lead_changes']['mean'])}, "
                 f"branching factor mean {_f(m['branching_mean'])} (median "
                 f"{_g(m['branching_median'])}), moves per turn {_f(m['moves_per_turn'])}")
        if s["stats"]:
            L.append("  game figures (per game, all games played):")
            labels = s["stat_labels"]
            for k, a in s["stats"].items():
                label = labels.get(k, k)
                if "per_seat" in a:
                    vals = "  ".join(f"seat {q}: {_f(x['mean'])}" for q, x in enumerate(a["per_seat"]))
                    L.append(f"    {k:24s} {vals}   ({label})")
                else:
                    extra = f", undefined in {a['undefined']}" if a["undefined"] else ""
                    L.append(f"    {k:24s} mean {_f(a['mean'])}, max {_g(a['max'])}, "
                             f"in {a['games_nonzero']}/{a['games']} games{extra}   ({label})")
        L.append("  rule points fired (total / games):")
        row = []
        for r, k in s["rules_fired"].items():
            row.append(f"{r}:{k}/{s['rules_games'][r]}")
        for i in range(0, len(row), 6):
            L.append("    " + "  ".join(row[i:i + 6]))
        if s["never_exercised"]:
            L.append("  NEVER EXERCISED: " + ", ".join(s["never_exercised"]))
            for f in s["rule_findings"]:
                L.append(f"    {f['code']} {f['rule']}: {f['message']}")
        bad = [a for a in s["anomalies"] if a["kind"] != "non-terminating"]
        if bad:
            L.append(f"  ANOMALIES ({len(bad)}):")
        else:
            L.append("  anomalies        none (no crash; invariants held in every game)")
        shown = bad[:10] + [a for a in s["anomalies"] if a["kind"] == "non-terminating"][:3]
        for a in shown:
            detail = a["detail"] if isinstance(a["detail"], str) else "; ".join(a["detail"])
            L.append(f"    seed {a['seed']} {a['kind']}: {detail.splitlines()[0]}")
            L.append(f"      reproduce: {a['reproduce']}")
        return "\n".join(L)


def _g(x):
    if x is None:
        return "-"
    return f"{x:g}" if isinstance(x, float) else str(x)


def _f(x):
    return "-" if x is None else f"{x:.2f}"


def _s(x):
    """``x`` as Python prints it; "-" for None (a game that keeps no score)."""
    return "-" if x is None else str(x)


def _rule_key(r: str):
    head = r.rstrip("0123456789")
    tail = r[len(head):]
    return (head, int(tail) if tail else 0)


# ----------------------------------------------------------------------------- driver
IN_FLIGHT_PER_WORKER = 2    # chunks sent ahead per worker: each has its next one queued


def check_games(games: int, runs: int = 1, runs_are: str = "player counts x variants") -> None:
    """A ValueError, quoting the count and naming the limit, when ``games`` games in each of
    ``runs`` runs (``runs_are``: what makes them, playtest's player counts x variants) is more
    than MAX_GAMES in all."""
    if games > MAX_GAMES:
        raise ValueError(f"--games {games} is more than MAX_GAMES, the {MAX_GAMES} games one "
                         f"command may play (`pnp docs limits`)")
    if games * runs > MAX_GAMES:
        raise ValueError(f"--games {games} in each of {runs} runs ({runs_are}) is "
                         f"{games * runs} games, more than MAX_GAMES, the {MAX_GAMES} games one "
                         f"command may play (`pnp docs limits`)")


def check_workers(workers: int) -> None:
    """A ValueError quoting ``workers`` when it is more than MAX_WORKERS."""
    if workers > MAX_WORKERS:
        raise ValueError(f"--workers {workers} is more than MAX_WORKERS, the {MAX_WORKERS} "
                         f"processes one command may start (`pnp docs limits`)")


def _jobs(game: str, players: int, seed: int | str, games: int, size: int, bot: str,
          variants: list, max_turns: int, check_every: int) -> Iterator[tuple]:
    """The chunks' jobs in game order, each made (its seeds derived) only when it is sent:
    a run of many games never holds more seeds than the chunks in flight."""
    for start in range(0, games, size):
        seeds = [derive_seed(seed, i) for i in range(start, min(start + size, games))]
        yield (game, players, seeds, bot, variants, max_turns, check_every)


def _play_in_order(executor: Executor, jobs: Iterator[tuple], window: int,
                   collect: Callable[[list[dict]], None]) -> None:
    """Play ``jobs`` on ``executor`` and ``collect`` their results in job order (so the report
    does not depend on which worker finishes first), with at most ``window`` jobs sent and not
    yet collected: ``Executor.map`` would submit every job of the run before the first result."""
    pending: deque = deque()
    try:
        for job in jobs:
            pending.append(executor.submit(_play_chunk, job))
            if len(pending) >= window:
                collect(pending.popleft().result())
        while pending:
            collect(pending.popleft().result())
    finally:
        for future in pending:      # stopped by an error or Ctrl-C: nothing more to play
            future.cancel()


def simulate(game: str, games: int = 100, players: int | None = None, seed: int | str = 0,
             bot: str = "random", variants=None, workers: int = 1,
             executor: Executor | None = None, progress: Callable[[int, int], None] | None = None,
             max_turns: int = DEFAULT_MAX_TURNS, chunk: int = 0,
             check_every: int = 1) -> SimulationReport:
    """Run ``games`` games; same ``seed`` gives the same report whatever ``workers`` is.
    ``players`` None: the game's default count (``GameState.players_by_default``)."""
    check_games(games)
    cls = get_game(game)
    if players is None:
        players = cls.players_by_default()
    if isinstance(variants, str):
        variants = [v for v in variants.replace(",", " ").split() if v]
    variants = list(variants or [])
    cls.new(players=players, seed=0, variants=variants)   # validate options early
    get_game_bot(cls, bot)                                  # and the bot (hidden hands)
    size = chunk or max(1, min(50, games // (max(1, workers) * 4) or 1))
    jobs = _jobs(game, players, seed, games, size, bot, variants, max_turns, check_every)
    results: list[dict] = []

    def collect(part: list[dict]) -> None:
        results.extend(part)
        if progress:
            progress(len(results), games)

    own = None
    if executor is None and workers > 1:
        check_workers(workers)
        own = executor = ProcessPoolExecutor(max_workers=workers)
    try:
        if executor is None:
            for job in jobs:
                collect(_play_chunk(job))
        else:
            _play_in_order(executor, jobs, IN_FLIGHT_PER_WORKER * max(1, workers), collect)
    finally:
        if own is not None:
            own.shutdown(cancel_futures=True)
    return SimulationReport(game, games, players, seed, bot, variants, results, cls.rule_points,
                            max_turns)
