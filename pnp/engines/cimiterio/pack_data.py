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


def pack_maps(loaded: Pack) -> dict[str, dict]:
    """The pack's maps by id, the default first: the ``map`` collection (the map the pack prints
    and plays unless told otherwise) and the alternatives listed in the optional ``maps``
    collection (option ``map=<id>``, C1)."""
    main = loaded.collections["map"]
    maps = {str(main.get("id") or "default"): main}
    for alt in loaded.collections.get("maps") or ():
        maps.setdefault(str(alt["id"]), alt)
    return maps


@functools.lru_cache(maxsize=4)
def pack_data(pack: str) -> tuple[dict[str, dict], Cards]:
    """(maps by id, the default first; cards) of the pack named (or at the path) ``pack``."""
    loaded = load_pack(pack)
    return pack_maps(loaded), cards_from_pack(loaded)


def map_ids(pack: str = "") -> tuple[str, ...]:
    """The ids of the pack's maps, the default first."""
    return tuple(pack_data(pack or PACK_NAME)[0])


@functools.lru_cache(maxsize=32)
def tables(pack: str, metric: str, step: str, map_id: str = "") -> tuple[Board, Cards]:
    """The board tables and the cards for a game's options (shared by every game with them);
    ``map_id`` "" is the pack's default map."""
    maps, cards = pack_data(pack or PACK_NAME)
    if not map_id:
        map_id = next(iter(maps))
    if map_id not in maps:
        raise RecordError(f"cimiterio: unknown map {map_id!r} (the pack has: {', '.join(maps)})")
    return Board(maps[map_id], cards.max_stops, metric, step, cards.pull, cards.movement), cards
