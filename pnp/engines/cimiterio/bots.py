"""Cimiterio: what a player cannot see, and the bots that play from what they can.

Two decks lie face down: the event deck (C15) and the zombie deck (C17). Their contents are
public (every card not on the table or in the discard pile), their order is not. So
``observation(seat)`` is the position with both decks as sorted lists of their cards and
without the seed and RNG state (which would replay every shuffle); bots get only that.

- ``determinize`` is the same position with both decks in an order drawn from the search's RNG
  and the game's RNG reseeded (the reshuffles of C20 are not known either): the ismcts search
  bot samples these.
- ``from_observation`` rebuilds such a position from an observation alone; the observation
  bots (``random``, ``greedy``, ``planner``) search it, so a lookahead that draws an event draws
  a card sampled from the known contents of the deck, never the real next card (the shipped
  bots used to peek at it: a "lucky greedy").
"""
from __future__ import annotations

from typing import Any, Callable

from pnp.engines.core import GameState, Rng

# The keys of the position that hold face-down cards: written as their sorted contents.
HIDDEN_ORDER = ("event_deck", "zombie_deck")


def determinize(st, seat: int, rng: Rng):
    """A copy of ``st`` with the face-down event and zombie decks shuffled by ``rng`` (their
    cards are known, their order is not) and the game's RNG reseeded. ``seat`` sees what every
    player sees, so it does not change the result."""
    copy = st.copy()
    copy.edeck = rng.shuffled(sorted(copy.edeck))
    copy.zdeck = rng.shuffled(sorted(copy.zdeck))
    copy.rng = Rng(rng.next64())
    return copy


def observation(st, seat: int) -> dict:
    """What ``seat`` may see: the whole table, the discard pile in order, the decks' contents
    (sorted, not their order), and the legal move texts when ``seat`` is to move."""
    d = st.to_dict()
    for key in ("seed", "rng"):
        d.pop(key, None)
    state = d["state"]
    for key in HIDDEN_ORDER:
        state[key] = sorted(state[key])
    return {"game": d["game"], "seat": seat, "to_move": st.turn, "position": d,
            "legal": [st.move_text(m) for m in st.legal_moves()] if seat == st.turn else []}


def from_observation(cls, obs: dict, rng: Rng) -> GameState:
    """A position consistent with ``obs``: its decks in an order drawn from ``rng``."""
    d = dict(obs["position"])
    state = dict(d["state"])
    for key in HIDDEN_ORDER:
        state[key] = list(rng.shuffled(state[key]))
    d.update(state=state, seed=0, rng=rng.next64())
    return cls.from_dict(d)


def _observation_bot(name: str, play: Callable[[GameState, Rng], Any]) -> Callable[[dict, Rng], str]:
    """An observation bot that rebuilds a sampled position and lets ``play`` pick its move."""

    def bot(obs: dict, rng: Rng) -> str:
        from pnp.engines.core import get_game
        st = from_observation(get_game(obs["game"]), obs, rng)
        return st.move_text(play(st, rng))

    bot.__name__ = f"cimiterio_{name}_bot"
    return bot


def observation_bots() -> dict[str, Callable[[dict, Rng], str]]:
    """The generic bots (pnp.engines.simulate) played on a sampled position."""
    from pnp.engines.simulate import greedy_bot, planner_bot, random_bot
    return {"random": _observation_bot("random", random_bot),
            "greedy": _observation_bot("greedy", greedy_bot),
            "planner": _observation_bot("planner", planner_bot),
            "tactician": _observation_bot("tactician", tactician_bot)}


# ----------------------------------------------------------------------------- the tactician
def _segment(st) -> int:
    """Action cards the seat to move plays before the next event is drawn (C4: 3, then 2)."""
    rest = st.slots[st.si:]
    e = rest.find("E")
    return len(rest) if e < 0 else e


# plan_value's weights (set by simulation, benchmarks/sweep_cimiterio.py): a captured point is
# worth more than any change of the capture costs (W_PULL + W_BEST times the cost cap of 12), so
# the plan never declines a capture to keep a handier leader on top
W_CAPTURE = 400.0       # per point captured by anyone (C21)
W_OWN = 40.0            # per own point: the players still compete (C22)
W_PULL = 3.0            # per action card every leader is from its tomb
W_BEST = 15.0           # per action card the handiest leader is from its tomb
REACH = 14              # groups this many cells from the gate or nearer are a threat (C13)
W_BIG = 8.0             # per zombie a group has over what the gate holds, per cell of closeness


def plan_value(st, seat: int) -> float:
    """The tactician's evaluation of a position between two events: the players' captures (all
    seats: a broken gate loses every player, C14, so captures by anyone help), the gate's
    health, and for every group how near the gate and how big it is (C13: the gate holds 5,
    then 3), and how far its leader is from its own tomb (C9)."""
    r = st.result
    if r is not None:
        if r.rule == "C14":
            return -1e6
        return 1e5 if seat in r.winners else 5e4
    B = st.B
    sc = st.scores
    v = W_CAPTURE * sum(sc) + W_OWN * sc[seat]
    intact, damaged = st.holds
    hold = damaged if st.gate else intact
    if st.gate:
        v -= 400.0
    gd = B.gate_dist
    pulls = B.pulls_to_tomb
    tomb_of = st.tomb_of
    costs = []
    for c, stk in st.stacks.items():
        n = len(stk)
        d = gd.get(c, 30)
        close = max(0, REACH - d)
        v -= 0.4 * n * close * close / 14.0
        if n > hold:
            v -= W_BIG * (n - hold) * close
        t = tomb_of[stk[-1]]
        cost = _capture_cost(B, st.guards, c, t, pulls[t])
        costs.append(cost)
        v -= W_PULL * cost
    if costs:
        v -= W_BEST * min(costs)
    return v


def _capture_cost(B, guards: tuple, c: int, t: int, to_tomb: dict) -> int:
    """About how many action cards bring the leader on ``c`` into its tomb ``t``: the Moves
    that bring a guardian to a stop in line with it, one noise, then the noises still needed
    from where that noise leaves it (C6, C8, C9)."""
    if to_tomb.get(c) == 0:
        return 0
    best = 12
    moves = B.ring_moves
    g1, g2 = guards
    for s, paths in enumerate(B.pull_paths):
        path = paths.get(c)
        if path is None:
            continue
        # captured on the way (C9), or the noises still needed from where it stops
        rest = 0 if any(to_tomb.get(x) == 0 for x in path) else to_tomb.get(path[-1])
        if rest is None:
            continue
        cost = min(moves[g1][s], moves[g2][s]) + 1 + rest
        if cost < best:
            best = cost
    return best


def tactician_bot(st, rng: Rng, width: int = 8):
    """Searches the action cards left before the next event (C4: three, then two) as one plan:
    a beam of ``width`` positions per card, every legal card at each, evaluated by
    :func:`plan_value` before the event is drawn (the event deck's order is hidden, so the plan
    stops there). Passing (C5) only draws more events, so it is never planned."""
    seat = st.to_move
    if st.pending is not None:
        moves = st.legal_moves()
        scored = []
        for m in moves:
            st.push_unchecked(m)
            scored.append((plan_value(st, seat), m))
            st.pop()
        return _best(scored, rng)
    k = _segment(st)
    st.slots = st.slots[:st.si + k]      # the plan ends where the next event would be drawn
    frontier: list[tuple] = [()]
    best: list[tuple] = []
    seen: set = set()
    for _ in range(k):
        cand = []
        for path in frontier:
            for m in path:
                st.push_unchecked(m)
            for m in st.legal_moves():
                if m[0] == "pass":
                    continue
                st.push_unchecked(m)
                key = (st.guards, tuple(sorted(st.stacks.items())), st.scores, st.gate, st.turn)
                if key not in seen:
                    seen.add(key)
                    v = plan_value(st, seat)
                    done = st.result is not None or st.turn != seat or st.pending is not None
                    cand.append((v, path + (m,), done))
                st.pop()
            for _m in path:
                st.pop()
        if not cand:
            break
        cand.sort(key=lambda x: -x[0])
        best.extend(cand[:width])
        frontier = [p for _, p, done in cand if not done][:width]
        if not frontier:
            break
    return _best([(v, p[0]) for v, p, _ in best], rng)


def _best(scored: list, rng: Rng):
    top = max(v for v, _ in scored)
    ms = [m for v, m in scored if v > top - 1e-9]
    return ms[rng.randbelow(len(ms))]
