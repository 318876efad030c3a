"""The engine's game data, read from the validated pack through ``pnp.pack.load_pack`` (the
printer's loader, so the engine plays the printed cards): the map from the ``map`` collection
and the cards from the pack's decks (quantities already expanded). A pack that does not load
raises pnp's ``DataError``; nothing here falls back to defaults.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from pnp.engines.cimiterio.board import Board
from pnp.engines.core import RecordError
from pnp.pack import Card, Pack, load_pack

PACK_NAME = "cimiterio"


@dataclass(frozen=True)
class Cards:
    """What the engine needs from the cards (C1, C13, C6-C8, C15-C21)."""

    zombies: tuple[tuple[str, int], ...]   # per zombie, deck order: (deceased id, points) (C21)
    events: tuple[tuple, ...]              # ("noise", avenue) | ("awakening", spot, count) | (kind,)
    holds: tuple[int, int]                 # the gate holds this many: intact, damaged (C13)
    n_actions: int                         # action cards (C4)
    max_stops: int                         # a Move walks up to this many stops (C6)
    pull: int                              # cells a noise pulls a group (C8)
    movement: int                          # cells an event moves a group (C16, C19)


def _deck(pack: Pack, deck_id: str) -> list[Card]:
    try:
        cards = pack.deck(deck_id).cards
    except KeyError:
        raise RecordError(f"cimiterio: the pack {pack.id!r} has no deck {deck_id!r}") from None
    if not cards:
        raise RecordError(f"cimiterio: the pack {pack.id!r} has no cards in deck {deck_id!r}")
    return cards


def _event(card: Card) -> tuple:
    if card.kind == "noise":
        return ("noise", card.fields["avenue"])
    if card.kind == "awakening":
        return ("awakening", card.fields["spot"], card.fields["count"])
    return (card.kind,)


def cards_from_pack(pack: Pack) -> Cards:
    zombies = _deck(pack, "zombies")
    gate = _deck(pack, "gate")[0].fields
    actions = _deck(pack, "actions")
    return Cards(
        zombies=tuple((c.fields["deceased"], c.fields["points"]) for c in zombies),
        events=tuple(_event(c) for c in _deck(pack, "events")),
        holds=(gate["intact_holds"], gate["damaged_holds"]),
        n_actions=len(actions),
        max_stops=actions[0].fields["max_stops"],
        pull=actions[0].fields["pull"],
        movement=max(c.fields["movement"] for c in zombies),
    )


@functools.lru_cache(maxsize=4)
def pack_data(pack: str) -> tuple[dict, Cards]:
    """(map collection, cards) of the pack named (or at the path) ``pack``."""
    loaded = load_pack(pack)
    return loaded.collections["map"], cards_from_pack(loaded)


@functools.lru_cache(maxsize=16)
def tables(pack: str, metric: str, step: str) -> tuple[Board, Cards]:
    """The board tables and the cards for a game's options (shared by every game with them)."""
    mp, cards = pack_data(pack or PACK_NAME)
    return Board(mp, cards.max_stops, metric, step), cards
