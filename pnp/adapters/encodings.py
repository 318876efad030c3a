"""Fixed-size encodings of each shipped game's moves and positions, for learning agents.

An :class:`Encoding` is made once per game configuration (engine, player count, options) from a
fresh position and then serves every position of that configuration:

- actions: a fixed enumeration of every move the game can express (``keys``; action ``i`` is
  ``keys[i]``), so an action number always means the same move and ``N = len(keys)`` never
  depends on the position. A key is the engine's own move where the move is already position-
  free (Zombie Run, Zombies vs Vampires: ints), else a position-free form of it (Cimiterio: the
  guardians' destinations, the starting stops being wherever they stand now);
- observations: a flat vector of small non-negative integers, blocks in a fixed order
  (``layout``) each with its upper bound (``high``). A game with hidden information (it defines
  ``observation(seat)``) is encoded from that observation alone, never from the position.

A game's engine names its encoding in ``GameState.agent_encoding`` (``"module:Class"``), so a
designer's engine, an installed ``pnp.engines`` plugin, brings its own Encoding subclass without
any change here; the shipped games' encodings below are found the same way. Layouts and N per
game: docs/agents.md.
"""
from __future__ import annotations

import pkgutil
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from pnp.adapters import EXTRA_HINT

try:
    import numpy as np
except ImportError as error:   # numpy comes with the `agents` extra (gymnasium needs it)
    raise ImportError(f"pnp.adapters needs NumPy: {EXTRA_HINT}") from error

from pnp.engines.core import GameState, designer_class

__all__ = ["Encoding", "EncodingError", "Features", "encoding_class", "encoding_for"]


class EncodingError(RuntimeError):
    """A legal move the encoding has no action for, or two legal moves on one action: a bug in
    the encoding (never the agent's fault), raised instead of silently dropping a move."""


class Features:
    """One observation vector under construction: named blocks, each with its upper bound."""

    def __init__(self) -> None:
        self.blocks: list[Any] = []
        self.highs: list[float] = []
        self.layout: list[tuple[str, int]] = []

    def add(self, name: str, values: Sequence[float] | np.ndarray, high: float) -> None:
        self.blocks.append(values)
        self.highs.extend([high] * len(values))
        self.layout.append((name, len(values)))

    def one_hot(self, name: str, index: int, size: int) -> None:
        """``size`` flags with ``index`` set; a negative index (nothing) sets none."""
        flags = [0] * size
        if index >= 0:
            flags[index] = 1
        self.add(name, flags, 1)

    def counts(self, name: str, items: Iterable[Hashable], order: Sequence[Hashable], high: float) -> None:
        """How many times each of ``order`` occurs in ``items``."""
        seen = Counter(items)
        self.add(name, [seen[x] for x in order], high)

    def vector(self) -> np.ndarray:
        return np.concatenate([np.asarray(b, dtype=np.float32) for b in self.blocks])


class Encoding:
    """A game's action numbering and observation vector (see the module docstring)."""

    def __init__(self, probe: GameState):
        self.game = probe.name   # the engine's registered name, for messages
        self.players = probe.players
        self.keys: tuple = tuple(self._action_keys(probe))
        self.index: dict[Hashable, int] = {k: i for i, k in enumerate(self.keys)}
        features = self._features(probe, 0)
        self.layout: tuple[tuple[str, int], ...] = tuple(features.layout)
        self.high = np.asarray(features.highs, dtype=np.float32)

    @property
    def n_actions(self) -> int:
        return len(self.keys)

    # -- per game
    def _action_keys(self, probe: GameState) -> Iterable[Hashable]:
        raise NotImplementedError

    def _features(self, state: GameState, seat: int) -> Features:
        raise NotImplementedError

    def action_key(self, state: GameState, move: Any) -> Hashable:
        """The position-free key of a legal ``move`` of ``state`` (default: the move itself)."""
        return move

    def move_for(self, state: GameState, key: Hashable) -> Any:
        """The engine move that ``key`` stands for in ``state`` (default: the key itself)."""
        return key

    # -- shared
    def mask(self, state: GameState) -> np.ndarray:
        """1 for every action that is a legal move of the seat to move, else 0: exactly one
        action per legal move (EncodingError otherwise)."""
        moves = state.legal_moves()
        index, key = self.index, self.action_key
        try:
            actions = [index[key(state, m)] for m in moves]
        except KeyError:
            missing = next(m for m in moves if key(state, m) not in index)
            raise EncodingError(f"{self.game}: the legal move {state.move_text(missing)!r} has no action "
                                f"number (the encoding of {self.n_actions} actions is incomplete)") from None
        if len(set(actions)) != len(actions):
            raise EncodingError(f"{self.game}: two legal moves share one action number "
                                f"({', '.join(state.move_text(m) for m in moves)})")
        mask = np.zeros(self.n_actions, dtype=np.int8)
        mask[actions] = 1
        return mask

    def observe(self, state: GameState, seat: int) -> np.ndarray:
        return self._features(state, seat).vector()


# --------------------------------------------------------------------------------- Cimiterio
class CimiterioEncoding(Encoding):
    """Actions: both guardians' destination stops (or "stays"), the five noises, pass, which
    tied group goes first (one per gap cell) and the personalised zombie's four choices.
    Observation: the public table (groups with their face-up leader, tombs, guardians, gate,
    scores, captures, deck sizes, the turn's slots); never the order of a deck or the covered
    cards of a group."""


    def __init__(self, probe: GameState):
        from pnp.engines.cimiterio.actions import NOISE_MODES, PERSONAL_CHOICES
        board = probe.B   # type: ignore[attr-defined]
        self._noises = NOISE_MODES
        self._personal = PERSONAL_CHOICES
        self._stops = len(board.ring)
        self._cells = tuple(c for c in range(board.W * board.H) if board.gap[c])
        self._slot_number = {cell: i for i, cell in enumerate(board.slots)}
        super().__init__(probe)

    def _action_keys(self, probe: GameState) -> Iterable[Hashable]:
        stops = range(-1, self._stops)     # -1: the guardian stays
        yield from (("move", t1, t2) for t1 in stops for t2 in stops if (t1, t2) != (-1, -1))
        yield from (("noise", mode) for mode in self._noises)
        yield ("pass",)
        yield from (("first", cell) for cell in self._cells)
        yield from (("personal", n) for n in self._personal)

    def action_key(self, state: GameState, move: Any) -> Hashable:
        # a guardian move starts where the guardian stands: only the destinations tell moves apart
        return ("move", move[2], move[4]) if move[0] == "move" else move

    def move_for(self, state: GameState, key: Any) -> Any:
        if key[0] != "move":
            return key
        _, t1, t2 = key
        g1, g2 = state.guards   # type: ignore[attr-defined]
        return ("move", g1 if t1 != -1 else -1, t1, g2 if t2 != -1 else -1, t2)

    def _features(self, state: Any, seat: int) -> Features:
        f = Features()
        nz, players, events = state.nz, state.players, len(state.ev)
        stacks = state.stacks
        f.add("group size per gap cell", [len(stacks.get(c, ())) for c in self._cells], nz)
        f.add("leader zombie + 1 per gap cell (0: empty)",
              [stacks[c][-1] + 1 if c in stacks else 0 for c in self._cells], nz)
        f.add("tomb slot per zombie", [self._slot_number[c] for c in state.tomb_of], len(self._slot_number))
        f.add("points per zombie for this seat", [state.value(z, seat) for z in range(nz)],
              max(4, *state.values))
        captor = [0] * nz
        for who, pile in enumerate(state.captured):
            for z in pile:
                captor[z] = who + 1
        f.add("capturing seat + 1 per zombie (0: not captured)", captor, players)
        f.one_hot("G1 stop", state.guards[0], self._stops)
        f.one_hot("G2 stop", state.guards[1], self._stops)
        f.one_hot("gate intact/damaged/broken", state.gate, 3)
        f.add("score per seat", state.scores, 4 * nz)
        f.add("zombies awakened, in the deck", [state.awakened, len(state.zdeck)], nz)
        f.add("event deck, discard sizes", [len(state.edeck), len(state.ediscard)], events)
        f.one_hot("last event drawn", state.last_event, events)
        f.add("this turn's slots (1: action, 0: event)", [int(s == "A") for s in state.slots], 1)
        f.add("next slot", [state.si], len(state.slots))
        pending = state.pending
        f.one_hot("pending choice: none/order/personal",
                  0 if pending is None else 1 if pending[0] == "order" else 2, 3)
        f.add("tie-break zombie + 1 (0: none)", [state.tiebreak + 1], nz)
        f.one_hot("seat to move", state.turn, players)
        f.one_hot("observing seat", seat, players)
        return f


# --------------------------------------------------------------------------------- Zombie Run
class ZombieRunEncoding(Encoding):
    """Actions: every move int the engine can make (play / special a card type onto a seat,
    discard a card type, discard-hand, pass). Observation: only ``observation(seat)`` (hands
    are hidden, Z1): the own hand, every table, hand sizes, who is alive, deck size, discard
    pile, the special rule's use, the phase and whose turn it is."""

    PHASES = ("living", "zombie", "over")

    def __init__(self, probe: GameState):
        data = probe.data   # type: ignore[attr-defined]
        self._names = data.names                 # the card types, in the engine's order
        self._copies = max(data.copies)
        self._total = data.total
        super().__init__(probe)

    def _action_keys(self, probe: GameState) -> Iterable[Hashable]:
        from pnp.engines.zombie_run.moves import DISCARD, DISCARD_HAND, PASS, PLAY, SPECIAL, mk
        types, seats = range(len(self._names)), range(self.players)
        yield from (mk(PLAY, t, q) for t in types for q in seats)
        yield from (mk(SPECIAL, t, q) for t in types for q in seats)
        yield from (mk(DISCARD, t) for t in types)
        yield mk(DISCARD_HAND)
        yield mk(PASS)

    def _features(self, state: GameState, seat: int) -> Features:
        # hidden information: read what the seat may see and nothing else
        return self._from_observation(state.observation(seat))   # type: ignore[attr-defined]

    def _from_observation(self, obs: dict) -> Features:
        f = Features()
        names, players, copies = self._names, self.players, self._copies
        f.counts("own hand: cards per type", obs["hand"], names, copies)
        f.counts("discard pile: cards per type", obs["discard"], names, copies)
        for q, table in enumerate(obs["tables"]):
            f.counts(f"table of seat {q}: cards per type", table, names, copies)
        f.add("hand size per seat", obs["hand_sizes"], self._total)
        f.add("alive per seat", [int(a) for a in obs["alive"]], 1)
        f.add("deck size", [obs["deck"]], self._total)
        f.add("special rule used this turn", [int(obs["special_used"])], 1)
        f.one_hot("phase living/zombie/over", self.PHASES.index(obs["phase"]), 3)
        f.one_hot("seat to move", obs["to_move"], players)
        f.one_hot("observing seat", obs["seat"], players)
        return f


# --------------------------------------------------------------------------------- Zombies vs Vampires
class ZombiesVsVampiresEncoding(Encoding):
    """Actions: a piece's move from any square to any other square, building or removing any
    wall candidate, and the five word moves (build under +/-, pass, reroll, roll action, roll
    size). Observation: the whole position (nothing is hidden; the dice are rolled by the
    engine's RNG, which is never shown)."""


    def __init__(self, probe: Any):
        geo = probe.geo
        self._squares = tuple(geo.squares)
        self._square_bits = np.asarray(geo.squares)
        self._bytes = (max(geo.squares) + 8) // 8
        self._cands = len(geo.cands)
        self._supply_high = [max(1, n) for n in probe.total_walls[1:]]
        self._home_high = max(probe.pieces_needed)
        self._steps_high = max([int(face) for face in probe.action_die if face.isdigit()] + [2])
        self._size_high = max(probe.size_die)
        super().__init__(probe)

    def _action_keys(self, probe: GameState) -> Iterable[Hashable]:
        from pnp.engines.zombies_vs_vampires.moves import BUILD, MOVE, PASS, PMBUILD, REMOVE, REROLL, ROLL, mkmove
        squares = self._squares
        yield from (mkmove(MOVE, a, b) for a in squares for b in squares if a != b)
        yield from (mkmove(BUILD, ci) for ci in range(self._cands))
        yield from (mkmove(REMOVE, ci) for ci in range(self._cands))
        yield from (mkmove(PMBUILD), mkmove(PASS), mkmove(REROLL), mkmove(ROLL), mkmove(ROLL, 0, 1))

    def _on_squares(self, bitset: int) -> np.ndarray:
        """1 per board square whose bit is set in ``bitset`` (squares are bits, geometry.py)."""
        raw = np.frombuffer(bitset.to_bytes(self._bytes, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[self._square_bits]

    def _features(self, state: Any, seat: int) -> Features:
        f = Features()
        players = self.players
        for q, pieces in enumerate(state.occ_by):
            f.add(f"pieces of seat {q} per square", self._on_squares(pieces), 1)
        built = [0] * self._cands
        for ci in state.walls:
            built[ci] = 1
        f.add("wall built per candidate", built, 1)
        for size, high in enumerate(self._supply_high, start=1):
            f.add(f"walls of size {size} in the supply", [state.supply[size]], high)
        f.add("pieces home per seat", state.home, self._home_high)
        f.add("finished per seat", [int(q in state.finishers) for q in range(players)], 1)
        f.one_hot("phase choose/act/build/over", state.phase, 4)
        f.one_hot("die face none/move/build/+-/2* choice", state.face + 1, 5)
        f.add("steps to move", [state.steps], self._steps_high)
        f.add("wall size to build", [state.wsize], self._size_high)
        f.add("rerolled this turn", [int(state.rerolled)], 1)
        f.one_hot("seat to move", state.turn, players)
        f.one_hot("observing seat", seat, players)
        return f


def encoding_class(game: type[GameState]) -> type[Encoding]:
    """The Encoding subclass that ``game`` declares in ``agent_encoding``, importing a
    ``"module:Class"`` now. ValueError, one line naming the engine, when it declares none or the
    declaration does not give an Encoding subclass."""
    declared = game.agent_encoding
    if declared is None:
        raise ValueError(f"no agent encoding for the engine {game.name!r}: its GameState class needs "
                         f"agent_encoding = 'package.module:EncodingClass', a subclass of "
                         f"pnp.adapters.encodings.Encoding (docs/agents.md, Other engines)")
    load = (lambda: pkgutil.resolve_name(declared)) if isinstance(declared, str) else (lambda: declared)
    return designer_class(load, Encoding, "subclass of pnp.adapters.encodings.Encoding", ValueError,
                          f"the engine {game.name!r} declares agent_encoding = {declared!r}")


def encoding_for(probe: GameState) -> Encoding:
    """The encoding of ``probe``'s game, players and options (ValueError as in
    :func:`encoding_class`)."""
    return encoding_class(type(probe))(probe)
