"""The rules-engine protocol shared by every game (python-chess style).

A game is a subclass of :class:`GameState` registered with :func:`register`. A state is mutable:
``push(move)`` applies a legal move (automatic chance and forced steps included), ``pop()``
undoes it exactly (RNG included). Moves are small hashable values (tuples); their text form is
``move_text(move)`` and ``parse_move(text)`` reads it back.

Chance comes from :class:`Rng`, a counter-based generator (splitmix64) whose whole state is one
int: deterministic across Python versions and runs, trivially serialisable and cheap to undo.

Stable API (other engines import it):

- ``GameState``: ``legal_moves()``, ``is_legal(move)``, ``push(move)``, ``push_text(text)``,
  ``pop()``, ``outcome()``, ``to_dict()`` / ``from_dict(data)``, ``parse_move(text)``,
  ``move_text(move)``, ``turn`` / ``to_move``, ``rules_fired``, ``ply``, ``move_stack``,
  ``copy()``, ``describe()``, ``check_invariants()``, ``new(players, seed, variants, options)``,
  ``validate_position(position)`` (a record's start, in game terms; schemas ``compact_position_schema``
  and ``snapshot_state_schema``),
  ``count(key, n)`` / ``counters`` (undoable per-game counters) and ``stats()`` (game-specific
  figures for the simulation report), ``unfinished_rules`` (outcome rules meaning "did not end"),
  ``game_win_rules`` (outcome rules meaning "the game beat the players": a cooperative game),
  ``draw_rules`` (no-winner outcomes that are draws), ``tie_break_rules`` (rule points of a
  broken tie), ``agent_encoding`` (the game's ``pnp.adapters.encodings.Encoding`` for agents'
  environments, as ``"module:Class"``; docs/agents.md).
- ``random_playout(rng)``: uniform random play to the end with ``legal_moves()`` every ply (the
  benchmarks' definition); engines may override it without undo records.
- Hidden information: a game whose players do not see everything defines ``observation(seat)``
  (a JSON-able dict with the legal move texts under ``"legal"`` for the seat to move) and
  ``observation_bots`` (bot name -> ``fn(observation, rng) -> move text``); the simulator then
  asks those bots only.
- ``Outcome(winners, scores, reason, rule)``
- ``IllegalMoveError(ValueError)`` (``.move``, ``.rule``, ``.position``, ``.legal``),
  ``RecordError(ValueError)``
- ``register(name)``, ``get_game(name)``, ``game_names()``, ``resolve_options(cls, variants)``

Optional, for speed (an engine opts in, the protocol is unchanged): ``legal_moves()`` may leave
the moves it just generated in ``self._legal_memo`` (a list, tuple or frozenset the caller cannot
change, i.e. not the list it returns; only ``in`` is asked of it); ``push(move)`` then takes a move
found there as legal without asking ``_illegal_reason`` (it was generated legal in this very
position). ``push``, ``push_unchecked`` and ``pop`` clear it; an engine path that changes the
position without them (a playout kernel, a direct ``_apply``) must clear it too.
"""
from __future__ import annotations

import functools
import sys
from collections import Counter
from dataclasses import dataclass
from operator import mul
from struct import Struct
from typing import Any, Callable, ClassVar, Collection, Hashable, Iterable, Sequence

__all__ = [
    "Move", "Outcome", "IllegalMoveError", "RecordError", "Rng", "GameState",
    "register", "get_game", "game_names", "resolve_options", "derive_seed", "MASK64",
]

Move = Hashable
MASK64 = (1 << 64) - 1


# --------------------------------------------------------------------------------- errors
class IllegalMoveError(ValueError):
    """A move that breaks a rule. The message quotes the move text, the rule point id and a short
    position description; ``legal`` lists the legal alternatives (as text) when known."""

    def __init__(self, move: str, rule: str, position: str, reason: str = "",
                 legal: Sequence[str] | None = None):
        self.move = move
        self.rule = rule
        self.position = position
        self.reason = reason
        self.legal = list(legal) if legal is not None else None
        msg = f"illegal move {move!r}: breaks {rule}"
        if reason:
            msg += f" ({reason})"
        msg += f"; position: {position}"
        super().__init__(msg)


class RecordError(ValueError):
    """A malformed game record (bad YAML, unknown game/variant, missing keys...)."""


# --------------------------------------------------------------------------------- outcome
@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]      # seats (0-based); () when nobody wins (e.g. the zombies win)
    scores: tuple                 # per seat
    reason: str                   # short human text
    rule: str                     # rule point that decided it (e.g. "C14")

    def to_dict(self) -> dict:
        return {"winners": list(self.winners), "scores": list(self.scores),
                "reason": self.reason, "rule": self.rule}

    @classmethod
    def from_dict(cls, d: dict) -> "Outcome":
        return cls(tuple(d["winners"]), tuple(d["scores"]), d["reason"], d["rule"])


# --------------------------------------------------------------------------------- RNG
class Rng:
    """splitmix64 counter-based PRNG. ``state`` is a single int in [0, 2**64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int | str = 0):
        if isinstance(seed, str):
            h = 1469598103934665603
            for b in seed.encode():
                h = ((h ^ b) * 1099511628211) & MASK64
            seed = h
        self.state = int(seed) & MASK64

    def next64(self) -> int:
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform int in [0, n) (rejection sampling, no modulo bias)."""
        if n <= 1:                              # one test on the hot path
            if n == 1:
                return 0
            raise ValueError("randbelow(n) needs n > 0")
        # Lemire's multiply-shift with rejection: exact and one multiplication in the common case;
        # next64 written out here (the hottest call of every engine: dice, shuffles, bots), the
        # mask a literal (a constant, not a global looked up on every use)
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        m = (z ^ (z >> 31)) * n
        if m & 0xFFFFFFFFFFFFFFFF < n:
            low = m & 0xFFFFFFFFFFFFFFFF
            t = ((1 << 64) - n) % n
            while low < t:
                m = self.next64() * n
                low = m & 0xFFFFFFFFFFFFFFFF
        return m >> 64

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence):
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place (``randbelow(i + 1)`` for each i, written out: set-ups shuffle
        every deck of a game). For a deck of BLOCK_SHUFFLE's size the draws' top bits are made
        all at once (`next_tops`): the same numbers, about 2x faster than the loop for 19 to 35
        cards."""
        if BLOCK_SHUFFLE[0] <= len(items) <= BLOCK_SHUFFLE[1]:
            self._block_shuffle(items)
        else:
            self._step_shuffle(items)

    def _step_shuffle(self, items: list) -> None:
        """shuffle() one draw at a time, whatever the length."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            state = z = (state + 0x9E3779B97F4A7C15) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            m = (z ^ (z >> 31)) * n
            if m & MASK64 < n:              # the rare rejection: the general path
                self.state = state
                t = ((1 << 64) - n) % n
                while m & MASK64 < t:
                    m = self.next64() * n
                state = self.state
            j = m >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state

    def _block_shuffle(self, items: list) -> None:
        """shuffle() from the top 16 bits of its n-1 draws, computed together (`next_tops`).
        The draw for ``randbelow(i)`` is decided by its top bits ``top`` unless the low 16 bits
        of ``top * i`` are 0 or above 2**16 - i - 1 (about i in 65,536 draws; `fast_pick` in
        pnp.engines.picks proves it and has the same test): then ``randbelow(i)`` itself makes
        that draw from its state, and when it had to reject it (about i in 2**64) the rest is
        drawn one by one from where it stopped. The products ``top * i`` by a C-level map."""
        start, n = self.state, len(items)
        i = n
        for k in map(mul, next_tops(start, n - 1), range(n, 1, -1)):   # k = top * i
            if (k + i) & 0xFFFF > i:
                j = k >> 16
            else:
                self.state = drawn = (start + (n - i) * 0x9E3779B97F4A7C15) & MASK64
                j = self.randbelow(i)
                if self.state != (drawn + 0x9E3779B97F4A7C15) & MASK64:    # it rejected
                    i -= 1
                    items[i], items[j] = items[j], items[i]
                    rest = items[:i]
                    self._step_shuffle(rest)
                    items[:i] = rest
                    return
            i -= 1
            items[i], items[j] = items[j], items[i]
        self.state = (start + (n - 1) * 0x9E3779B97F4A7C15) & MASK64

    def shuffled(self, items: Iterable) -> tuple:
        out = list(items)
        self.shuffle(out)
        return tuple(out)

    def fork(self, key: int | str) -> "Rng":
        """An independent generator derived from this one's state and ``key`` (no advance)."""
        k = Rng(key).next64() if isinstance(key, str) else (int(key) * 0xD1B54A32D192ED03) & MASK64
        r = Rng(self.state ^ k)
        r.next64()
        return r


# shuffle() draws in one block for this many items (fewer: the loop is faster), on a
# little-endian machine (next_tops reads the lanes' bytes as such)
BLOCK_SHUFFLE = (8, 1024) if sys.byteorder == "little" else (1, 0)
PICK_BLOCK = 24                 # next_tops' draws when not told: a playout's block of picks
                                # (pnp.engines.picks, where the size was measured)
LANE = 128                      # bits a lane: a 64-bit value times a 64-bit constant fits


@functools.cache
def _lanes(k: int) -> tuple[int, int, int, Struct]:
    """``next_tops``' constants for ``k`` lanes: one bit at the bottom of each lane, the steps
    ``j * GAMMA mod 2**64`` of the draws j = 1..k, the 64-bit mask of each lane, and the Struct
    reading bits 48..63 of each lane."""
    ones = sum(1 << LANE * j for j in range(k))
    steps = sum((j + 1) * 0x9E3779B97F4A7C15 % (1 << 64) << LANE * j for j in range(k))
    return ones, steps, MASK64 * ones, Struct("<" + "6xH8x" * k)


def next_tops(state: int, k: int = PICK_BLOCK) -> tuple[int, ...]:
    """The top 16 bits (``>> 48``) of the next ``k`` outputs of an ``Rng`` at ``state``, in
    order, then -1 (a sentinel that ``fast_pick`` refuses: the caller's sign that the block is
    used up). splitmix64 is counter based (the state after j draws is ``state + j * GAMMA``),
    so the draws are computed together: each a 128-bit lane of one Python int (a product of two
    64-bit numbers stays inside its lane, the shifts' spill from the lane above is masked off),
    ``Rng.next64``'s steps a few big-number operations in C for the whole block. The last
    xor-shift (``z ^ z >> 31``) leaves bits 48..63 as they are, and the lanes' bits above 64
    are never read, so neither is done."""
    ones, steps, lanes, tops = _lanes(k)
    z = (state * ones + steps) & lanes                      # the states state + j * GAMMA
    z = ((z ^ z >> 30) & lanes) * 0xBF58476D1CE4E5B9 & lanes
    z = ((z ^ z >> 27) & lanes) * 0x94D049BB133111EB
    return (*tops.unpack(z.to_bytes(LANE // 8 * k, "little")), -1)   # a lane holds its product


def derive_seed(master: int | str, index: int) -> int:
    """Per-game seed ``index`` derived from a master seed (independent of worker count)."""
    r = Rng(master)
    r.state = (r.state + (index + 1) * 0x9E3779B97F4A7C15) & MASK64
    return r.next64()


# --------------------------------------------------------------------------------- registry
_REGISTRY: dict[str, type["GameState"]] = {}


def register(name: str) -> Callable[[type[GameState]], type[GameState]]:
    """Class decorator: ``@register("cimiterio") class Cimiterio(GameState): ...``"""

    def deco(cls: type[GameState]) -> type[GameState]:
        cls.name = name
        _REGISTRY[name] = cls
        return cls

    return deco


ENTRY_POINT_GROUP = "pnp.engines"   # how every engine, shipped or a designer's, is found


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def get_game(name: str) -> type["GameState"]:
    """The engine named `name`: registered in this process, or an installed `pnp.engines` entry
    point (``name = "package.module:GameClass"``), which is imported on first use. `name` may also
    be a pack (a shipped game or a folder) whose pack.yaml names its `engine`."""
    if name not in _REGISTRY and name not in _entry_points():
        name = engine_for(name)
    if name not in _REGISTRY:
        found = _entry_points().get(name)
        if found is not None:
            cls = designer_class(found.load, GameState, "GameState subclass", RecordError,
                                 f"the engine {name!r} is registered as {found.value!r} (pnp.engines entry point)")
            _REGISTRY.setdefault(name, cls)
            cls.name = name   # GameState.name: the engine's registered name
    try:
        return _REGISTRY[name]
    except KeyError:
        raise RecordError(f"unknown game {name!r}; known: {', '.join(game_names())}") from None


def designer_class(load: Callable[[], Any], base: type, kind: str, error: type[ValueError], described: str) -> Any:
    """The class a designer's declaration names, got by ``load`` (an entry point's ``load``, a
    ``"module:Class"`` resolved), which must be a subclass of ``base`` (``kind`` in words);
    else ``error`` whose one line is ``described`` and why."""
    try:
        found = load()
    except Exception as problem:        # noqa: BLE001 - a designer's package may fail to import in any way
        raise error(f"{described}, which does not load: {type(problem).__name__}: {problem}") from None
    if not (isinstance(found, type) and issubclass(found, base)):
        raise error(f"{described}, which is not a {kind} but {found!r}")
    return found


def game_names() -> list[str]:
    """Every engine that can be played: registered ones and installed entry points."""
    return sorted({*_REGISTRY, *_entry_points()})


def engine_for(name_or_pack: str) -> str:
    """The engine name for a GAME argument: an engine's name, or a pack folder (or shipped pack)
    whose pack.yaml names its `engine`."""
    if name_or_pack in _REGISTRY or name_or_pack in _entry_points():
        return name_or_pack
    from pnp.errors import Problems
    from pnp.pack import PACK_FILE, UnknownGameError, find_pack
    from pnp.yamlsource import load_source
    try:
        root = find_pack(name_or_pack)
    except UnknownGameError as error:   # not a pack either
        raise RecordError(f"unknown game {name_or_pack!r}; known engines: {', '.join(game_names())}") from error
    problems = Problems()
    source = load_source(root / PACK_FILE, problems)
    if source is None:                  # unreadable: why, not "names no engine"
        raise RecordError("; ".join(map(str, problems.items)) + f" (pnp check {name_or_pack} tells more)")
    engine = source.value.get("engine") if isinstance(source.value, dict) else None
    if not isinstance(engine, str):
        raise RecordError(f"{name_or_pack}: pack.yaml names no `engine`, so the game cannot be played "
                          f"(known engines: {', '.join(game_names())})")
    return engine


def game_argument(name_or_pack: str) -> tuple[str, list[str]]:
    """(engine name, the options the argument gives it as ``key=value`` variants) for a GAME
    argument: an engine's name gives none; a pack folder (or a shipped pack's name that is no
    engine's) gives ``pack=<its folder>`` when its engine reads a pack's data (declares a
    ``pack`` option, as Cimiterio's map and cards), so a copy of a game plays its own data."""
    engine = engine_for(name_or_pack)
    if engine == name_or_pack:
        return engine, []
    from pnp.pack import find_pack
    if "pack" not in get_game(engine).default_options:
        return engine, []
    return engine, [f"pack={find_pack(name_or_pack).resolve()}"]   # workers may run elsewhere


def _coerce(value: str, like: Any) -> Any:
    if isinstance(like, bool):
        low = value.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise RecordError(f"expected a boolean, got {value!r}")
    if isinstance(like, int):
        try:
            return int(value)
        except ValueError:
            raise RecordError(f"expected an integer, got {value!r}") from None
    if like is None:
        try:
            return int(value)
        except ValueError:
            return value
    return value


def resolve_options(cls: type["GameState"], variants: Iterable[str] | dict | str | None = None,
                    options: dict | None = None) -> dict:
    """Merge ``cls.default_options`` with named variants (``cls.variants[name]``), ``key=value``
    strings and an explicit ``options`` mapping (applied last). Unknown names/keys -> RecordError."""
    opts = dict(cls.default_options)
    items: list = []
    if isinstance(variants, str):
        items = [v for v in variants.replace(",", " ").split() if v]
    elif isinstance(variants, dict):
        options = {**variants, **(options or {})}
    elif variants:
        items = list(variants)
    for item in items:
        if "=" in item:
            key, _, value = item.partition("=")
            key = key.strip()
            if key not in opts:
                raise RecordError(f"{cls.name}: unknown option {key!r}; known: {', '.join(sorted(opts))}")
            try:
                opts[key] = _coerce(value.strip(), opts[key])
            except RecordError as error:        # name the option, as the mapping branch does
                raise RecordError(f"{cls.name}: option {key}: {error}") from None
        elif item in cls.variants:
            opts.update(cls.variants[item])
        else:
            raise RecordError(f"{cls.name}: unknown variant {item!r}; known: "
                              f"{', '.join(sorted(cls.variants))} or key=value with keys "
                              f"{', '.join(sorted(opts))}")
    for key, value in (options or {}).items():
        if key not in opts:
            raise RecordError(f"{cls.name}: unknown option {key!r}; known: {', '.join(sorted(opts))}")
        if not _fits_default(value, cls.default_options[key]):
            raise RecordError(f"{cls.name}: option {key} must be {_kind_of(cls.default_options[key])}, "
                              f"not {value!r}")
        opts[key] = value
    for key, least in cls.option_minimums.items():
        if opts[key] < least:
            raise RecordError(f"{cls.name}: option {key} must be at least {least}, not {opts[key]!r}")
    return opts


_DEFAULTS: dict[type, tuple[dict, dict]] = {}   # class -> (its default_options, resolved)


def _default_options(cls: type["GameState"]) -> dict:
    """``resolve_options(cls)``, the options of a game made without variants or options (every
    game of a simulation or benchmark), resolved once per class (again if the class's
    ``default_options`` is replaced) and copied for each game, which may change its own."""
    hit = _DEFAULTS.get(cls)
    if hit is None or hit[0] is not cls.default_options:
        hit = _DEFAULTS[cls] = (cls.default_options, resolve_options(cls))
    return dict(hit[1])


def _fits_default(value: Any, default: Any) -> bool:
    """An explicit option value has its default's type (an option whose default is None takes
    a number or a text), so a mistyped record is refused here, not deep in a rule."""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str)
    if default is None:
        return value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
    return True


def _kind_of(default: Any) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number"
    if isinstance(default, str):
        return "a text"
    return "a number or a text"


# --------------------------------------------------------------------------------- protocol
class GameState:
    """Abstract game position. Subclasses implement the ``_``-prefixed hooks and the notation.

    Hooks to implement: ``_setup()`` (fresh position from ``self.rng``/``self.options``),
    ``legal_moves()``, ``_illegal_reason(move) -> (rule, reason) | None``, ``_apply(move)``
    (mutates; the core saved an undo record with ``_snapshot()`` first), ``_snapshot()`` /
    ``_restore(snap)`` (small immutable record of everything ``_apply`` may change, rng excluded),
    ``outcome()``, ``_state_dict()`` / ``_load_state(d)``, ``parse_move``, ``move_text``,
    ``describe()``. ``turn`` must hold the seat to move.
    """

    name: ClassVar[str] = "abstract"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int | None] = None   # what a tool plays when not told (None: min)
    default_options: ClassVar[dict] = {}
    variants: ClassVar[dict[str, dict]] = {}
    # least value of a whole-number option (an option not named here takes any whole number)
    option_minimums: ClassVar[dict[str, int]] = {}
    rule_points: ClassVar[tuple[str, ...]] = ()   # every rule id the engine can fire (coverage)
    # outcome rules that mean "the game did not end" (never-ending guards), not a real finish
    unfinished_rules: ClassVar[tuple[str, ...]] = ("cap", "repetition")
    # outcome rules meaning the game itself won (cooperative games: players vs the game); the
    # playtest report then speaks of "the players win X%" (pnp.engines.conclusions)
    game_win_rules: ClassVar[tuple[str, ...]] = ()
    # outcome rules of a finished game with no winner that is a draw among the players (a
    # competitive game ending level); a no-winner outcome not declared here nor in
    # game_win_rules is read as the game's win (pnp.engines.conclusions says so)
    draw_rules: ClassVar[tuple[str, ...]] = ()
    # rule points whose firing means a tie was broken (the report counts those games)
    tie_break_rules: ClassVar[tuple[str, ...]] = ()
    # game-specific figures returned by stats(): key -> short human label (report order)
    stat_labels: ClassVar[dict[str, str]] = {}
    # the engine's rules document, Markdown, beside its module: `pnp docs rules/<engine>`
    rules_doc: ClassVar[str | None] = None
    # agents' environments (pnp.adapters.pettingzoo): the game's Encoding subclass, declared where
    # the engine is so a designer's engine brings its own as it brings its rules. "module:Class" is
    # imported only when an environment is made (the engine itself never loads NumPy, which
    # Encoding needs); the class itself is taken too. None: no environment for this game.
    agent_encoding: ClassVar[str | type | None] = None

    def __init__(self, players: int = 2, seed: int | str = 0, variants=None,
                 options: dict | None = None, *, _empty: bool = False):
        if not (self.min_players <= players <= self.max_players):
            raise RecordError(f"{self.name}: {players} players not in "
                              f"{self.min_players}..{self.max_players}")
        self.players = players
        self.seed = seed
        self.options = (_default_options(type(self)) if variants is None and options is None
                        else resolve_options(type(self), variants, options))
        self.rng = Rng(seed)
        self.turn = 0
        self.ply = 0
        self.move_stack: list = []
        self._undo: list = []
        self._legal_memo: Collection | None = None   # see the module docstring
        self.rules_fired: Counter = Counter()
        self._fire_log: list[str] = []     # rules fired since the first undoable push (for pop)
        self.counters: Counter = Counter()   # game-specific counters (stats), undone by pop()
        self._count_log: list = []
        if not _empty:
            self._setup()

    # -- construction
    @classmethod
    def players_by_default(cls) -> int:
        """The player count tools use when none is given: the declared default, else the least
        the game allows (so the default is always one the game accepts)."""
        n = cls.default_players
        return n if n is not None and cls.min_players <= n <= cls.max_players else cls.min_players

    @classmethod
    def new(cls, players: int = 2, seed: int | str = 0, variants=None, options=None) -> "GameState":
        return cls(players=players, seed=seed, variants=variants, options=options)

    # -- seat
    @property
    def to_move(self) -> int:
        return self.turn

    # -- moves
    def legal_moves(self) -> list:
        raise NotImplementedError

    def is_legal(self, move) -> bool:
        return self._illegal_reason(move) is None

    def _illegal_reason(self, move) -> tuple[str, str] | None:
        """(rule, reason) if ``move`` is illegal here, else None. Default: list membership."""
        if self.outcome() is not None:
            return ("end", "the game is over")
        if move in self.legal_moves():
            return None
        return ("move", "not a legal move here")

    def illegal(self, move, rule: str, reason: str = "") -> IllegalMoveError:
        text = move if isinstance(move, str) else self._safe_text(move)
        try:
            legal = [self.move_text(m) for m in self.legal_moves()]
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):   # a position too broken to list
            legal = None
        return IllegalMoveError(text, rule, self.describe(), reason, legal)

    def _safe_text(self, move) -> str:
        try:
            return self.move_text(move)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):   # not a move of this game
            return repr(move)

    def push(self, move) -> None:
        memo = self._legal_memo
        if memo is None or move not in memo:     # not generated here: the one-move check
            bad = self._illegal_reason(move)
            if bad is not None:
                raise self.illegal(move, *bad)
        self._legal_memo = None
        self._undo.append((self._snapshot(), self.rng.state, self.turn, self.ply,
                           len(self._fire_log), len(self._count_log)))
        self.move_stack.append(move)
        self._apply(move)
        self.ply += 1

    def push_unchecked(self, move) -> None:
        """Apply a move known to be legal (bots use it after picking from legal_moves())."""
        self._legal_memo = None
        self._undo.append((self._snapshot(), self.rng.state, self.turn, self.ply,
                           len(self._fire_log), len(self._count_log)))
        self.move_stack.append(move)
        self._apply(move)
        self.ply += 1

    def push_text(self, text: str):
        move = self.parse_move(text)
        self.push(move)
        return move

    def pop(self):
        if not self._undo:
            raise IndexError("pop from an empty move stack")
        snap, rng_state, turn, ply, mark, cmark = self._undo.pop()
        self._legal_memo = None
        self._restore(snap)
        self.rng.state = rng_state
        self.turn = turn
        self.ply = ply
        log = self._fire_log
        if len(log) > mark:
            fired = self.rules_fired
            for rule in log[mark:]:
                fired[rule] -= 1
                if fired[rule] <= 0:
                    del fired[rule]
            del log[mark:]
        clog = self._count_log
        if len(clog) > cmark:
            counters = self.counters
            for key, n in clog[cmark:]:
                counters[key] -= n
                if not counters[key]:
                    del counters[key]
            del clog[cmark:]
        return self.move_stack.pop()

    def outcome(self) -> Outcome | None:
        raise NotImplementedError

    def random_playout(self, rng: Rng) -> int:
        """Play the game to its end by uniform random play and return the moves played: at
        every ply the whole ``legal_moves()`` list is generated and its move
        ``rng.randbelow(len(list))`` is played as ``push`` plays it (automatic chance and forced
        steps included). This is the engines' one throughput definition
        (benchmarks/bench_engines.py). An engine may override it with a loop that keeps no undo
        records (the moves cannot be popped afterwards: the undo history is then empty), but it
        must generate the same lists and reach the very state this loop reaches (same moves,
        same RNG use, same ``rules_fired`` and counters)."""
        n = 0
        while self.outcome() is None:
            moves = self.legal_moves()
            self.push(moves[rng.randbelow(len(moves))])
            n += 1
        return n

    @property
    def turn_count(self) -> int:
        """Turns played so far (games override; default: plies)."""
        return getattr(self, "turns", self.ply)

    def heuristic(self, seat: int) -> float:
        """Static evaluation for ``seat`` used by the greedy bot (games override)."""
        out = self.outcome()
        if out is None:
            return 0.0
        return 1000.0 if seat in out.winners else -1000.0

    def is_over(self) -> bool:
        return self.outcome() is not None

    # -- notation
    def parse_move(self, text: str):
        raise NotImplementedError

    def move_text(self, move) -> str:
        raise NotImplementedError

    def describe(self) -> str:
        return f"{self.name} ply {self.ply}, seat {self.turn} to move"

    def position_mismatches(self, key: str, want, got: dict) -> list[tuple[tuple, Any, Any, str]] | None:
        """A record's ``expect.position`` key that the game reads in its own terms (e.g. a count
        where the state holds a list): each mismatch as (path, expected, got, message), or None
        to compare ``want`` with ``got[key]`` (the final ``_state_dict()``) as written."""
        return None

    # -- serialisation
    def to_dict(self) -> dict:
        return {
            "game": self.name,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.state,
            "turn": self.turn,
            "ply": self.ply,
            "rules_fired": dict(self.rules_fired),
            "state": self._state_dict(),
        } | ({"counters": dict(self.counters)} if self.counters else {})

    @classmethod
    def from_dict(cls, data: dict) -> "GameState":
        if cls is GameState or data.get("game", cls.name) != cls.name:
            cls = get_game(data["game"])
        try:
            st = cls(players=data["players"], seed=data.get("seed", 0),
                     options=data.get("options") or {}, _empty=True)
            st.rng.state = int(data["rng"]) & MASK64
            st.turn = int(data["turn"])
            st.ply = int(data.get("ply", 0))
            st.rules_fired = Counter(data.get("rules_fired") or {})
            st.counters = Counter(data.get("counters") or {})
            st._load_state(data["state"])
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"{cls.name}: bad position: {exc!r}") from exc
        return st

    def _state_dict(self) -> dict:
        raise NotImplementedError

    def _load_state(self, d: dict) -> None:
        raise NotImplementedError

    def copy(self) -> "GameState":
        """An independent copy of the position (without the undo history)."""
        return type(self).from_dict(self.to_dict())

    # -- undo hooks
    def _setup(self) -> None:
        raise NotImplementedError

    def _snapshot(self):
        raise NotImplementedError

    def _restore(self, snap) -> None:
        raise NotImplementedError

    def _apply(self, move) -> None:
        raise NotImplementedError

    # -- record positions
    # The shape of a record's starting position (pnp.schema types, checked with their lines
    # before the game looks at the values): the compact form (``from_position``) and the
    # ``state`` of a to_dict() snapshot. None: anything goes (the game checks it all itself).
    compact_position_schema: ClassVar[Any] = None
    snapshot_state_schema: ClassVar[Any] = None

    def validate_position(self, position: dict) -> list[tuple[tuple, str]]:
        """Problems with a record's starting ``position`` (the compact form, or a to_dict()
        snapshot when it has ``state``), in the game's terms: (key path inside ``position``,
        message naming the piece, card or square). ``self`` is a fresh game with the record's
        players and options, for the board and the cards. Called by the record loader once the
        schemas above hold; must not raise on any value. Default: no problems."""
        return []

    # -- checks
    def check_invariants(self) -> list[str]:
        """Problems with the position (empty list when sound); used by the simulator."""
        return []

    def fire(self, rule: str, n: int = 1) -> None:
        """Record that rule point ``rule`` fired (coverage); undone by pop()."""
        self.rules_fired[rule] += n
        if n == 1:
            self._fire_log.append(rule)
        else:
            self._fire_log.extend([rule] * n)

    def count(self, key: str, n: int = 1) -> None:
        """Add ``n`` to the game-specific counter ``key`` (for ``stats()``); undone by pop()."""
        self.counters[key] += n
        self._count_log.append((key, n))

    def stats(self) -> dict:
        """Game-specific figures of this game so far, for the simulation report: a flat mapping
        name -> number, or name -> list of numbers (one per seat), or None (does not apply in
        this game, e.g. "turns to the first piece home" when no piece got home). Default: the
        counters, a counter of ``stat_labels`` that never counted being 0 in this game (not
        "does not apply": its mean is over every game). Keys and labels: ``stat_labels``."""
        return {**dict.fromkeys(self.stat_labels, 0), **self.counters}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"
