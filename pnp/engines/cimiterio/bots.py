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
            "planner": _observation_bot("planner", planner_bot)}
