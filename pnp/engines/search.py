"""Search bots: Monte Carlo tree search (UCT) over the common engine protocol.

``mcts`` plays games without hidden information, ``ismcts`` games whose players see only
``observation(seat)``. Both are one algorithm, single-observer information-set MCTS: every
iteration starts from a fresh *determinisation* of the position (a full position consistent
with what the seat to move can see, with a freshly seeded RNG so future dice and draws are not
known in advance), walks the tree by UCB1 among the moves legal in that determinisation
(counting how often each move was available, so moves that exist only in some
determinisations are judged fairly), adds one node, plays random moves to the end (or to the
playout cap, where ``state.heuristic(seat)`` says who leads) and backs the result up. The move
played is the root move visited most.

What a game supplies:

- ``determinize(seat, rng) -> GameState``: a copy with everything ``seat`` cannot see
  re-sampled from ``rng`` (Zombie Run: the other hands and the deck; Cimiterio: the order of the
  event and zombie decks). Required for ``ismcts``; without it ``mcts`` searches copies of the
  position with a reseeded RNG.
- ``search_playout(rng, cap)`` (optional): a faster random playout of the copy in place.
- ``heuristic(seat)`` (optional): who is ahead when a playout stops at the cap.

The search is deterministic: its RNG is derived from the bot's RNG (one draw per move), so the
same game seed plays the same moves.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

from pnp.engines.core import GameState, Move, Rng
from pnp.limits import MAX_BUDGET

SEARCH_BOTS = ("mcts", "ismcts")
DEFAULT_BUDGET = 200        # iterations per move when the bot name gives none
PLAYOUT_CAP = 2             # random plies after the new node before the heuristic decides
                            # (longer random walks only blur it: mcts@50 won Zombies vs
                            # Vampires against random in 216 turns with 2, in 380 with 10)
LEAD_SCALE = 10.0           # a heuristic lead of this much is worth a 3-in-4 chance of winning
EXPLORATION = 0.7           # UCB1 constant for rewards in [0, 1]

Sampler = Callable[[Rng], GameState]


# ----------------------------------------------------------------------------- names
def parse_search_bot(name: str) -> tuple[str, int] | None:
    """``"mcts"`` -> ("mcts", DEFAULT_BUDGET), ``"ismcts@50"`` -> ("ismcts", 50); None when
    ``name`` is not a search bot. A bad budget is a ValueError naming the bot."""
    base, at, budget = name.partition("@")
    if base not in SEARCH_BOTS:
        return None
    if not at:
        return base, DEFAULT_BUDGET
    if not budget.isdigit() or not 1 <= int(budget) <= MAX_BUDGET:
        raise ValueError(f"bot {name!r}: the budget after '@' must be a whole number of "
                         f"iterations from 1 to {MAX_BUDGET}")
    return base, int(budget)


def with_budget(bot: str, budget: int | None) -> str:
    """The bot name the simulator takes for ``--bot BOT --budget N`` (``mcts@N``)."""
    if budget is None:
        return bot
    if bot not in SEARCH_BOTS:
        raise ValueError(f"--budget applies to the search bots ({', '.join(SEARCH_BOTS)}), "
                         f"not to bot {bot!r}")
    if not 1 <= budget <= MAX_BUDGET:
        raise ValueError(f"--budget must be from 1 to {MAX_BUDGET}, not {budget}")
    return f"{bot}@{budget}"


# ----------------------------------------------------------------------------- bots
def mcts_bot(budget: int) -> Callable[[GameState, Rng], Move]:
    """A ``fn(state, rng) -> move`` for a game without hidden information. The game's
    ``determinize`` is used when it has one (Cimiterio's face-down decks)."""

    def play(st: GameState, rng: Rng) -> Move:
        moves = st.legal_moves()
        if len(moves) == 1:
            return moves[0]
        seat = st.to_move
        return search(lambda r: determinised(st, seat, r), seat, Rng(rng.next64()), budget,
                      root_moves=moves)

    play.__name__ = f"mcts_{budget}"
    return play


def ismcts_bot(budget: int) -> Callable[[GameState, Rng], Move]:
    """A ``fn(state, rng) -> move`` for a game with hidden information: the search sees the
    position only through ``state.determinize(seat, rng)`` samples, and the moves it may answer
    are the legal move texts of ``state.observation(seat)``."""

    def play(st: GameState, rng: Rng) -> Move:
        seat = st.to_move
        seen = st.observation(seat)          # type: ignore[attr-defined]
        moves = [st.parse_move(text) for text in seen["legal"]]
        if len(moves) == 1:
            return moves[0]
        sample = st.determinize          # type: ignore[attr-defined]
        return search(lambda r: sample(seat, r), seat, Rng(rng.next64()), budget,
                      root_moves=moves)

    play.__name__ = f"ismcts_{budget}"
    return play


def determinised(st: GameState, seat: int, rng: Rng) -> GameState:
    """A position to search from: the game's ``determinize`` when it has one, else a copy
    whose RNG is reseeded (the search must not know the coming dice)."""
    own = getattr(st, "determinize", None)
    if callable(own):
        return own(seat, rng)
    copy = st.copy()
    copy.rng = Rng(rng.next64())
    return copy


# ----------------------------------------------------------------------------- the tree
class Node:
    """A move in the tree: ``seat`` made it; ``value`` is that seat's summed reward."""

    __slots__ = ("move", "seat", "children", "visits", "value", "available")

    def __init__(self, move: Move = None, seat: int = -1):
        self.move = move
        self.seat = seat
        self.children: dict = {}
        self.visits = 0
        self.value = 0.0
        self.available = 0          # iterations in which this move was legal (ISMCTS)

    def ucb(self, exploration: float) -> float:
        return (self.value / self.visits
                + exploration * math.sqrt(math.log(self.available) / self.visits))


def search(sample: Sampler, seat: int, rng: Rng, budget: int, *,
           root_moves: Sequence[Move], playout_cap: int = PLAYOUT_CAP,
           exploration: float = EXPLORATION) -> Move:
    """The root move (one of ``root_moves``) visited most in ``budget`` iterations, each on a
    fresh ``sample(rng)`` of the position ``seat`` is to move in."""
    root = Node()
    allowed = set(root_moves)
    for _ in range(budget):
        st = sample(rng)
        path = _descend(root, st, rng, exploration, allowed)
        rewards = _playout(st, rng, playout_cap)
        for node in path:
            node.visits += 1
            node.value += rewards[node.seat]
    best = max((c for c in root.children.values()), default=None,
               key=lambda c: (c.visits, c.value))
    return best.move if best is not None else root_moves[0]


def _descend(root: Node, st: GameState, rng: Rng, exploration: float,
             allowed: set) -> list[Node]:
    """Selection and expansion on ``st`` (moves are pushed): the nodes visited, root excluded."""
    node, path = root, []
    while st.outcome() is None:
        moves = st.legal_moves()
        if node is root:
            moves = [m for m in moves if m in allowed]
            if not moves:        # a determinisation that disagrees with the real position
                break
        untried = [m for m in moves if m not in node.children]
        for m in moves:
            child = node.children.get(m)
            if child is not None:
                child.available += 1
        mover = st.to_move
        if untried:
            move = untried[rng.randbelow(len(untried))]
            child = node.children[move] = Node(move, mover)
            child.available = 1
            st.push_unchecked(move)
            path.append(child)
            break
        node = max((node.children[m] for m in moves), key=lambda c: c.ucb(exploration))
        st.push_unchecked(node.move)
        path.append(node)
    return path


def _playout(st: GameState, rng: Rng, cap: int) -> list[float]:
    """Random moves from ``st`` (changed in place) to the end or ``cap`` plies; the reward of
    every seat."""
    fast = getattr(st, "search_playout", None)
    if callable(fast):
        fast(rng, cap)
    else:
        from pnp.engines.simulate import random_bot
        for _ in range(cap):
            if st.outcome() is not None:
                break
            st.push_unchecked(random_bot(st, rng))
    return rewards(st)


def rewards(st: GameState) -> list[float]:
    """1 for each winner, 0 for the others (nobody wins a game that hit a never-ending guard).
    A game still going, when it has a ``heuristic``: each seat's lead over its best rival,
    squashed into (0, 1) (no lead 0.5, a lead of LEAD_SCALE 0.75), so a search feels every
    step of progress (a plain "who leads" loses it in long race games such as Zombies vs
    Vampires); without a heuristic every seat gets an equal share."""
    n = st.players
    out = st.outcome()
    if out is not None:
        unfinished = out.rule in type(st).unfinished_rules
        return [0.0 if unfinished else float(q in out.winners) for q in range(n)]
    if type(st).heuristic is GameState.heuristic:
        return [1.0 / n] * n
    values = [st.heuristic(q) for q in range(n)]
    shares = []
    for q in range(n):
        lead = values[q] - max(values[p] for p in range(n) if p != q) if n > 1 else values[q]
        shares.append(0.5 + 0.5 * lead / (abs(lead) + LEAD_SCALE))
    return shares
