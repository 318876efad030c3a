"""What the engine reads from the printed pack (``data/zombies-vs-vampires``).

``board.yaml``: the board's size, its home zones and the seating by player count (V1, V2);
``walls.yaml``: the wall supply (V7-V10); ``dice.yaml``: the action die and the size die (V3, V4,
V7, V8). Read through ``pnp.pack.load_pack`` only (the printer's loader, which validates the
pack): a pack that cannot be loaded is its ``DataError``; a loaded pack the engine cannot play
(a board that is not square, a wall of size 4, an action it does not know...) is refused the
same way, a ``DataError`` naming the file, line and key. Nothing is ever defaulted.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.engines.core import RecordError
from pnp.engines.zombies_vs_vampires.geometry import ZoneSpec
from pnp.engines.zombies_vs_vampires.moves import GAME
from pnp.errors import DataError, Problem, display_path
from pnp.pack import Pack, load_pack
from pnp.yamlsource import dotted

SIZES = range(7, 27)                # board sizes the engine plays (the lane layout's limits)
WALL_SIZES = (1, 2, 3)              # V7: the size die's sizes
# the action die's faces (dice.yaml `action`) -> the engine's face names
ACTIONS = {"build": "build", "build-or-remove": "pm", "two-star": "2*"}    # and move: its steps

UNPLAYABLE = "engine.unplayable"   # valid data the engine cannot play (a non-square board...)


@dataclass(frozen=True)
class ZvvData:
    """The printed game as the engine plays it."""

    size: int                               # squares a side
    zones: tuple[ZoneSpec, ...]             # home zones, rows counted from the top
    seats: dict[int, tuple[str, ...]]       # player count -> start zones in seat order
    walls: tuple[int, ...]                  # walls of size 1, 2, 3 in the supply
    action_die: tuple[str, ...]             # faces: "2" "4" "6" (move), "build", "pm", "2*"
    size_die: tuple[int, ...]               # faces: wall sizes
    source: str                             # the pack folder


class _Collection:
    """One collection of the pack, with the problems found in it located like the loader's."""

    def __init__(self, pack: Pack, name: str, problems: list[Problem]):
        self.problems = problems
        if name not in pack.collections:
            main = pack.sources["pack"]
            problems.append(Problem(display_path(main.file), main.line(("collections",)),
                                    f"collections.{name}",
                                    f"Zombies vs Vampires needs the collection {name!r}", code=UNPLAYABLE))
            self.value: Any = None
            return
        self.value = pack.collections[name]
        self.source = pack.sources[f"collection:{name}"]

    def refuse(self, path: tuple, message: str) -> None:
        s = self.source
        self.problems.append(Problem(display_path(s.file), s.line(path), dotted(path), message, code=UNPLAYABLE))


def read_zvv(pack: Pack) -> ZvvData:
    """The board, walls and dice of a loaded pack, or a DataError listing what cannot be played."""
    problems: list[Problem] = []
    board = _Collection(pack, "board", problems)
    walls = _Collection(pack, "walls", problems)
    dice = _Collection(pack, "dice", problems)
    if problems:
        raise DataError(problems)
    size, zones, seats = _board(board, pack.players)
    data = ZvvData(size=size, zones=zones, seats=seats, walls=_walls(walls),
                   action_die=_die(dice, "action"), size_die=_die(dice, "size"),
                   source=str(pack.root))
    if problems:
        raise DataError(problems)
    return data


def _board(b: _Collection, players: dict) -> tuple[int, tuple[ZoneSpec, ...], dict]:
    v = b.value
    size = v["size"]["cols"]
    if v["size"]["rows"] != size:
        b.refuse(("size",), "the engine plays square boards only")
    if size not in SIZES:
        b.refuse(("size",), f"the engine plays boards of {SIZES.start} to {SIZES.stop - 1} "
                            "squares a side")
    zones = []
    for i, z in enumerate(v["zones"]):
        if len(z["cols"]) != 2 or len(z["rows"]) != 2:
            b.refuse(("zones", i), "a zone's cols and rows are [first, last]")
            continue
        (c0, c1), (r0, r1) = z["cols"], z["rows"]
        if not (0 <= c0 <= c1 < size and 0 <= r0 <= r1 < size):
            b.refuse(("zones", i), f"zone {z['id']} is off the {size}x{size} board")
        zones.append((z["id"], c0, c1, r0, r1, z["opposite"]))
    ids = [z[0] for z in zones]
    if not ids:
        b.refuse(("zones",), "no home zones (V1)")
    for i, z in enumerate(zones):
        if z[5] not in ids:
            b.refuse(("zones", i, "opposite"), f"{z[5]!r} is not a zone ({', '.join(ids)})")
    seats = {}
    for i, st in enumerate(v["seats"]):
        seats[st["players"]] = tuple(st["zones"])
        for zid in st["zones"]:
            if zid not in ids:
                b.refuse(("seats", i, "zones"), f"{zid!r} is not a zone ({', '.join(ids)})")
        if len(st["zones"]) != st["players"]:
            b.refuse(("seats", i), f"{st['players']} players need {st['players']} start zones")
    for n in range(players["min"], players["max"] + 1):
        if n not in seats:
            b.refuse(("seats",), f"no seating for {n} players (pack.yaml allows "
                                 f"{players['min']} to {players['max']})")
    return size, tuple(zones), seats


def _walls(w: _Collection) -> tuple[int, ...]:
    counts = dict.fromkeys(WALL_SIZES, 0)
    for i, wall in enumerate(w.value):
        if wall["size"] not in counts:
            w.refuse((i, "size"), "walls are 1, 2 or 3 squares long (V7)")
        else:
            counts[wall["size"]] += wall["count"]
    return tuple(counts.values())


def _die(d: _Collection, die_id: str) -> tuple:
    found = [(i, die) for i, die in enumerate(d.value) if die["id"] == die_id]
    if not found:
        d.refuse((), f"no die with id {die_id!r}")
        return ()
    i, die = found[0]
    if not die["faces"]:
        d.refuse((i, "faces"), "a die needs faces")
    faces = []
    for j, f in enumerate(die["faces"]):
        where = (i, "faces", j)
        action = f.get("action")            # size, action and steps: optional fields
        if die_id == "size":
            if f.get("size") not in WALL_SIZES:
                d.refuse(where + ("size",), "the size die shows wall sizes 1, 2 or 3 (V7)")
            faces.append(f.get("size"))
        elif action == "move":
            steps = f.get("steps")
            if not isinstance(steps, int) or steps < 1:
                d.refuse(where + ("steps",), "a move face needs its steps (V4)")
            faces.append(str(steps))
        elif action in ACTIONS:
            faces.append(ACTIONS[action])
        else:
            d.refuse(where + ("action",), f"the engine knows the actions move, "
                                          f"{', '.join(ACTIONS)}")
    return tuple(faces)


def load_zvv_data(root: str | Path) -> ZvvData:
    """The game data of the pack at ``root`` (a folder, or a shipped pack's name)."""
    return read_zvv(load_pack(root))


@functools.cache
def zvv_data(root: str | Path = GAME) -> ZvvData:
    """The game data of a pack, read once (default: the shipped pack)."""
    return load_zvv_data(root)


def zones_for(d: ZvvData, n: int) -> tuple[ZoneSpec, ...]:
    """The home zones on an n x n board: the pack's own on its size; on another size (variants
    board11, board15...) the pack's zones, each kept against the board edges it touches."""
    if n == d.size:
        return d.zones
    out = []
    for zid, c0, c1, r0, r1, opp in d.zones:
        (c0, c1), (r0, r1) = (_anchor(zid, lo, hi, d.size, n) for lo, hi in ((c0, c1), (r0, r1)))
        out.append((zid, c0, c1, r0, r1, opp))
    return tuple(out)


def _anchor(zid: str, lo: int, hi: int, size: int, n: int) -> tuple[int, int]:
    if lo == 0:
        return lo, hi
    if hi == size - 1:
        return lo + n - size, hi + n - size
    raise RecordError(f"zone {zid} touches no board edge: it has no place on a {n}x{n} board")
