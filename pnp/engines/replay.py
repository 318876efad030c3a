"""Replay a recorded game move by move, checking every move against the rules.

Record format (YAML, one mapping)::

    game: cimiterio            # registry name (optional when the caller names the game)
    players: 2
    seed: 42                   # seeds every shuffle/draw; or give explicit deck orders in position
    variants: [quick, metric=manhattan]   # named variants and/or key=value options
    options: {cap: 20}         # optional explicit options
    position:                  # optional starting position: a to_dict() snapshot (has "state")
      ...                      # or the game's compact form (Cimiterio.from_position)
    moves:                     # move texts in the game's notation
      - move G1 14,5>14,3
      - noise G1
    expect:                    # optional; checked by `pnp replay --check` and the scenario tests
      outcome: {winners: [0], rule: C22}    # or "none" (game still running)
      illegal: [{move: 3, rule: C6}]
      rules: [C9, C11]         # rule points that must have fired
      rules_count: {C13: 3}    # exact counts
      not_rules: [C14]         # rule points that must not have fired
      position: {gate: damaged, scores: [1, 0], stacks: {"13,7": 4}, ...}

``replay(record)`` stops at the first illegal move unless ``keep_going`` (then the move is
skipped and replay goes on). Each problem carries the move, its rule point, the record's file and
the line of the move, the legal moves of the piece or card the move names (a game's
``move_subjects(text)``: the names of the pieces or cards a move text names, never raising; a
game without it gets the whole list) and, for a text the game cannot read (rule ``notation``),
the closest legal move texts.

Moves are numbered from 1 everywhere: the record's first move is move 1 in the text report, in
the JSON (``move``, ``stopped_at``) and in ``expect: illegal: [{move: N}]``.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.engines.core import GameState, IllegalMoveError, Outcome, RecordError, engine_for, game_argument, get_game
from pnp.errors import PnpError, Problems, display_path, location
from pnp.schema import Field, Schema, Validator
from pnp.yamlsource import Source, dotted, load_source

NOTATION = "notation"        # the rule code of a move text the game cannot read
MAX_GUESSES = 3              # "did you mean" names at most this many legal moves


@dataclass
class MoveProblem:
    number: int              # the move's number in the record's `moves` (the first move is 1)
    text: str
    rule: str
    reason: str
    position: str
    legal: list[str]         # the legal moves of the pieces or cards in `subjects`, else all
    legal_total: int = 0     # how many legal moves there are in all
    subjects: list[str] = field(default_factory=list)   # what the move names (a piece, a card)
    guesses: list[str] = field(default_factory=list)    # closest legal texts (unreadable move)
    file: str = ""
    line: int = 0            # the move's line in the record (0: not read from a file)

    def to_dict(self) -> dict:
        return {"move": self.number, "text": self.text, "file": self.file, "line": self.line,
                "rule": self.rule, "reason": self.reason, "did_you_mean": self.guesses,
                "position": self.position, "legal": self.legal, "legal_of": self.subjects,
                "legal_total": self.legal_total}

    def headline(self) -> str:
        """'file:line: move N 'text': illegal, breaks RULE (reason)'."""
        where = location(self.file, self.line, "") + " " if self.file else ""
        return (f"{where}move {self.number} {self.text!r}: illegal, breaks {self.rule}"
                + (f" ({self.reason})" if self.reason else ""))


@dataclass(frozen=True)
class Mismatch:
    """An expectation of the record's `expect:` block that the replay does not meet."""

    key: tuple               # the key it is about, e.g. ("expect", "outcome", "rule")
    expected: Any
    got: Any
    message: str             # what was expected and what happened
    file: str = ""
    line: int = 0

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "key": dotted(self.key),
                "expected": self.expected, "got": self.got, "message": self.message}

    def __str__(self) -> str:
        return f"{location(self.file, self.line, dotted(self.key))} {self.message}"


@dataclass
class ReplayResult:
    game: str
    moves_total: int
    moves_played: int
    problems: list[MoveProblem]
    state: GameState
    outcome: Outcome | None
    stopped_at: int | None = None        # number (from 1) of the illegal move that stopped it
    record: dict = field(default_factory=dict, repr=False)
    source: Source | None = field(default=None, repr=False)   # the record's file and lines
    mismatches: list[Mismatch] | None = None   # the expect block, once checked (check())

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def passed(self) -> bool:
        """Checked: every expectation holds (expected illegal moves included); else: every move
        is legal. What `pnp replay` exits 0 on."""
        return not self.mismatches if self.mismatches is not None else self.ok

    def check(self) -> list[Mismatch]:
        """Compare the replay with the record's `expect:` block and keep the mismatches."""
        self.mismatches = expectation_mismatches(self)
        return self.mismatches

    def _expect_dict(self) -> dict | None:
        if self.mismatches is None:
            return {"checked": False} if self.record.get("expect") is not None else None
        return {"checked": True, "ok": not self.mismatches,
                "mismatches": [m.to_dict() for m in self.mismatches]}

    def _verdict(self) -> str:
        """The last line: what the exit status says (``passed``)."""
        illegal = f"{len(self.problems)} illegal move(s)"
        if self.mismatches is None:
            return "OK" if self.ok else illegal
        if self.mismatches:
            return f"FAILED: {len(self.mismatches)} expectation(s) not met"
        return "OK: as expected" + (f" ({illegal}, all expected)" if self.problems else "")

    def _expect_lines(self) -> list[str]:
        if self.mismatches is None:
            return ["  expect: not checked (use --check)"] if self.record.get("expect") is not None else []
        if not self.mismatches:
            return ["  expect: every expectation holds"]
        count = len(self.mismatches)
        return [f"  expect: {count} mismatch{'es' if count != 1 else ''}",
                *(f"    {m}" for m in self.mismatches)]

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "ok": self.ok,
            "moves_total": self.moves_total,
            "moves_played": self.moves_played,
            "stopped_at": self.stopped_at,
            "problems": [p.to_dict() for p in self.problems],
            "expect": self._expect_dict(),
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "position": self.state.describe(),
            "rules_fired": dict(sorted(self.state.rules_fired.items())),
            "final": self.state.to_dict(),
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False, default=str)

    def to_text(self, max_legal: int = 12) -> str:
        lines = [f"{self.game}: {self.moves_played}/{self.moves_total} moves replayed"]
        for p in self.problems:
            lines.append("  " + p.headline())
            if p.guesses:
                lines.append("    did you mean " + " or ".join(repr(g) for g in p.guesses) + "?")
            lines.append(f"    position: {p.position}")
            if p.legal:
                more = f" ... (+{len(p.legal) - max_legal})" if len(p.legal) > max_legal else ""
                of = (f" (the {len(p.legal)} moves of {', '.join(p.subjects)}; {p.legal_total} legal "
                      "moves in all)" if p.subjects and len(p.legal) < p.legal_total else "")
                lines.append("    legal: " + "; ".join(p.legal[:max_legal]) + more + of)
        if self.stopped_at is not None:
            lines.append(f"  stopped at move {self.stopped_at} (use --keep-going to continue)")
        lines.append(f"  final position: {self.state.describe()}")
        if self.outcome is None:
            lines.append("  outcome: game not finished")
        else:
            o = self.outcome
            who = ", ".join(f"seat {w}" for w in o.winners) or "nobody"
            lines.append(f"  outcome: {who} wins ({o.reason}; {o.rule}); scores {list(o.scores)}")
        lines.extend(self._expect_lines())
        lines.append("  " + self._verdict())
        return "\n".join(lines)


ILLEGAL = Schema("illegal move", "A move the replay must refuse.", {
    "move": Field("int", "The move's number in `moves` (the first move is 1)."),
    "rule": Field("str", "The rule point it breaks, e.g. C6."),
}, unique=None)
EXPECT = Schema("expect", "What must hold after the replay (scenario records).", {
    "outcome": Field("any", "`none` (the game goes on) or {winners, rule, scores}.", None),
    "illegal": Field([ILLEGAL], "The illegal moves, in order (none: every move is legal).", None),
    "rules": Field("list:str", "Rule points that must have fired.", []),
    "rules_count": Field("map:int", "Exact number of times rule points fired.", {}),
    "not_rules": Field("list:str", "Rule points that must not have fired.", []),
    "position": Field("any", "Selected keys of the final position (the game's to_dict() state).", None),
})
RECORD = Schema("record", "A recorded game or scenario, replayed by `pnp replay`.", {
    "game": Field("str?", "The game (engine name); optional when the caller names it.", None),
    "name": Field("str", "A title for the scenario.", ""),
    "description": Field("str", "What the scenario shows.", ""),
    "notes": Field("any", "Free notes.", None),
    "players": Field("int?", "Number of players; null: the game's default (`pnp simulate --help`).", None),
    "seed": Field("any", "Seeds every shuffle and draw (a number or a text).", 0),
    "variants": Field("list:str", "Named variants and key=value options.", []),
    "options": Field("map:any", "Explicit options.", None),
    "position": Field("any", "A starting position: a to_dict() snapshot or the game's compact form.", None),
    "moves": Field("list:str", "The moves, in the game's notation.", []),
    "expect": Field(EXPECT, "What must hold after the replay (`pnp replay --check`).", None),
})
PERFT_POSITION = Schema("perft position", "A position and its number of legal moves.", {
    "name": Field("str", "What the position shows."),
    "players": Field("int", "Number of players.", 2),
    "seed": Field("any", "Seed of the position.", 0),
    "variants": Field("list:str", "Named variants.", []),
    "position": Field("any", "The game's compact position."),
    "count": Field("int", "The number of legal moves there."),
}, unique="name")
PERFT = Schema("perft file", "Perft-style legal-move counts (tests/scenarios/<game>/perft.yaml).", {
    "positions": Field([PERFT_POSITION], "The positions."),
})


def load_checked(path: str | Path, spec: Schema) -> dict:
    """A YAML file checked against `spec`: every problem with its line, at once (DataError)."""
    problems = Problems()
    source = load_source(Path(path), problems)
    value = Validator(source, problems).check(source.value, spec) if source is not None else {}
    problems.raise_if_any()
    return value


def load_record(path: str | Path, game: str | None = None) -> dict:
    """A game record, validated: unknown keys, wrong types, a starting position the game refuses
    (a card in two places, a piece off its squares...) are DataErrors naming the line. `game` is
    the GAME the caller names (for records without `game:`)."""
    return read_record(path, game)[0]


def read_record(path: str | Path, game: str | None = None) -> tuple[dict, Source]:
    """``load_record`` and the record's source, whose lines the replay's messages name."""
    problems = Problems()
    source = load_source(Path(path), problems)
    record = Validator(source, problems).check(source.value, RECORD) if source is not None else {}
    if source is not None and not problems:
        _check_start(record, source, problems, game)
    problems.raise_if_any()
    assert source is not None        # no source always comes with a problem, raised above
    return {k: v for k, v in record.items() if v is not None}, source


# the to_dict() snapshot around a game's own `state` (GameState.to_dict)
SNAPSHOT_KEYS = {
    "game": Field("str", "The game (engine name).", None),
    "players": Field("int", "Number of players.", None),
    "seed": Field("any", "The game's seed.", None),
    "options": Field("map:any", "The options in play.", None),
    "rng": Field("int", "The random generator's state.", 0),
    "turn": Field("int", "The seat to move (0-based)."),
    "ply": Field("int", "Moves played so far.", 0),
    "rules_fired": Field("map:int", "Rule points fired so far.", None),
    "counters": Field("map:any", "The game's counters (stats).", None),
}
_ERRORS_OF_A_BROKEN_POSITION = (RecordError, ValueError, KeyError, IndexError, TypeError, AttributeError)


def _check_start(record: dict, source, problems: Problems, game: str | None) -> None:
    """The record's game, players, variants and starting position, in the game's terms; every
    problem at its line (code ``record.game``, ``record.players``, ``record.options``,
    ``record.position``)."""
    check = Validator(source, problems)
    try:
        named = engine_for(game) if game else None
        name = record.get("game") or named
        if not name:
            check.add("record.game", ("game",), "the record does not name its game (add `game:`)")
            return
        if named and record.get("game") and engine_for(record["game"]) != named:
            check.add("record.game", ("game",), f"the record is for {record['game']!r}, not {game!r}")
            return
        cls = get_game(name)
    except RecordError as error:
        check.add("record.game", ("game",), str(error))
        return
    if not isinstance(record["seed"], (int, str)) or isinstance(record["seed"], bool):
        check.add("record.seed", ("seed",), f"the seed must be a number or a text, not {record['seed']!r}")
        return
    if record["players"] is None:
        record["players"] = cls.players_by_default()
    players = record["players"]
    if not cls.min_players <= players <= cls.max_players:
        check.add("record.players", ("players",), f"{cls.name} is for {cls.min_players}..{cls.max_players} "
                  f"players, not {players}")
        return
    try:
        fresh = cls.new(players=players, seed=record["seed"], variants=record["variants"],
                        options=record.get("options"))
    except (*_ERRORS_OF_A_BROKEN_POSITION, PnpError) as error:   # PnpError: a `pack` naming no pack
        message = error.format_message() if isinstance(error, PnpError) else str(error)
        check.add("record.options", ("options",) if record.get("options") else ("variants",), message)
        return
    position = record.get("position")
    if position is None:
        return
    if _check_start_position(fresh, position, check, problems) and not problems:
        _check_built(record, game, check)


def _check_start_position(fresh: GameState, position, check: Validator, problems: Problems) -> bool:
    """The position's shape (the game's schemas), then its values (``validate_position``)."""
    where = ("position",)
    snapshot = isinstance(position, dict) and "state" in position
    cls = type(fresh)
    spec: Any
    if snapshot:
        fields = dict(SNAPSHOT_KEYS)
        if cls.snapshot_state_schema is not None:
            fields["state"] = Field(cls.snapshot_state_schema, "The game's own position.")
        else:
            fields["state"] = Field("any", "The game's own position.")
        spec = Schema("", "a to_dict() snapshot", fields)
    elif cls.compact_position_schema is not None:
        spec = cls.compact_position_schema
    elif not hasattr(cls, "from_position"):
        check.add("record.position", where, f"{cls.name} has no compact position format: "
                  "give a to_dict() snapshot (with `state`)")
        return False
    else:
        spec = "any"
    before = len(problems.items)
    check.check(position, spec, where)
    if len(problems.items) > before:
        return False
    if snapshot:
        for key in ("players", "game"):
            if position.get(key) is not None and position[key] != getattr(fresh, key if key == "players" else "name"):
                check.add("record.position", where + (key,), f"the snapshot's {key} {position[key]!r} is "
                          f"not the record's {getattr(fresh, key if key == 'players' else 'name')!r}")
        if not 0 <= position["turn"] < fresh.players:
            check.add("record.position", where + ("turn",), f"turn must be a seat in 0..{fresh.players - 1}, "
                      f"not {position['turn']}")
    try:
        found = fresh.validate_position(position)
    except _ERRORS_OF_A_BROKEN_POSITION as error:   # a game's check that missed a case
        found = [((), f"cannot read this position: {error!r}")]
    for path, message in found:
        check.add("record.position", where + tuple(path), message)
    return len(problems.items) == before


def _check_built(record: dict, game: str | None, check: Validator) -> None:
    """Set the position up and ask the game for anything its checks above did not cover."""
    try:
        state = start_state(record, game)
    except _ERRORS_OF_A_BROKEN_POSITION as error:
        check.add("record.position", ("position",), f"cannot set up this position: {error}")
        return
    except PnpError as error:       # e.g. a snapshot's `pack` option naming no pack
        check.add("record.position", ("position",), f"cannot set up this position: {error.format_message()}")
        return
    for message in state.check_invariants():
        check.add("record.position", ("position",), message)


RECORD_KEYS = set(RECORD.fields)


def start_state(record: dict, game: str | None = None) -> GameState:
    """The starting position a record describes."""
    unknown = set(record) - RECORD_KEYS
    if unknown:
        raise RecordError(f"unknown record keys: {', '.join(sorted(unknown))}")
    base: dict = {}
    if game:                                      # a pack folder names its engine, and plays its data
        game, given = game_argument(game)
        base = dict(item.split("=", 1) for item in given)
    name = record.get("game") or game
    if not name:
        raise RecordError("the record does not name its game")
    if game and record.get("game") and record["game"] != game:
        raise RecordError(f"record is for {record['game']!r}, not {game!r}")
    cls = get_game(name)
    players = int(record.get("players") or cls.players_by_default())
    seed = record.get("seed", 0)
    variants = record.get("variants") or []
    options = {**base, **(record.get("options") or {})} or None
    pos = record.get("position")
    if pos is None:
        return cls.new(players=players, seed=seed, variants=variants, options=options)
    if isinstance(pos, dict) and "state" in pos:
        return cls.from_dict({"game": cls.name, "players": players, "seed": seed, **pos})
    if not hasattr(cls, "from_position"):
        raise RecordError(f"{name}: no compact position format; give a to_dict() snapshot")
    return cls.from_position(pos, players=players, seed=seed, variants=variants, options=options)


def replay(record: dict, keep_going: bool = False, game: str | None = None,
           source: Source | None = None) -> ReplayResult:
    """Play the record's moves; `source` (``read_record``) gives the problems their lines."""
    st = start_state(record, game)
    moves = record.get("moves") or []
    if not isinstance(moves, list):
        raise RecordError("moves must be a list of move texts")
    problems: list[MoveProblem] = []
    played = 0
    stopped = None
    for i, text in enumerate(moves):
        text = str(text)
        try:
            st.push(_read_move(st, text))
            played += 1
        except IllegalMoveError as exc:
            problems.append(_move_problem(st, i, exc, source))
            if not keep_going:
                stopped = i + 1
                break
    return ReplayResult(st.name, len(moves), played, problems, st, st.outcome(), stopped, record, source)


def _read_move(st: GameState, text: str):
    """The move a text names; a game's parser that refuses with a bare ValueError is a
    ``notation`` problem like any other."""
    try:
        return st.parse_move(text)
    except IllegalMoveError:
        raise
    except ValueError as error:
        raise st.illegal(text, NOTATION, str(error)) from None


def _move_problem(st: GameState, index: int, exc: IllegalMoveError, source: Source | None) -> MoveProblem:
    """The refused move as the report shows it: where it is, the legal moves of what it names
    and, when the game cannot read it at all, the legal texts closest to it."""
    legal = exc.legal if exc.legal is not None else [st.move_text(m) for m in st.legal_moves()]
    subjects = _subjects(st, exc.move)
    narrowed = [text for text in legal if subjects & _subjects(st, text)] if subjects else []
    if not narrowed:                 # it names nothing, or nothing it names can move: all of them
        subjects = set()
        narrowed = legal
    guesses = difflib.get_close_matches(exc.move, legal, n=MAX_GUESSES) if exc.rule == NOTATION else []
    return MoveProblem(index + 1, exc.move, exc.rule, exc.reason, exc.position, narrowed, len(legal),
                       sorted(subjects), guesses, display_path(source.file) if source else "",
                       source.line(("moves", index)) if source else 0)


def _subjects(st: GameState, text: str) -> set[str]:
    """The pieces or cards a move text names (the game's ``move_subjects``; none without it)."""
    named = getattr(st, "move_subjects", None)
    return set(named(text)) if named is not None else set()


def replay_file(game: str | None, path: str | Path, keep_going: bool = False,
                check: bool = False) -> ReplayResult:
    """What ``pnp replay GAME FILE [--keep-going] [--check]`` calls. `check` compares the result
    with the record's `expect:` block (``ReplayResult.mismatches``); a block that lists illegal
    moves is replayed to the end, so every refusal it expects is compared."""
    record, source = read_record(path, game)
    if check and (record.get("expect") or {}).get("illegal"):
        keep_going = True
    result = replay(record, keep_going=keep_going, game=game, source=source)
    if check:
        result.check()
    return result


# ----------------------------------------------------------------------------- expectations
def check_expectations(result: ReplayResult, expect: dict | None = None) -> list[str]:
    """Compare a replay with the record's ``expect`` block; returns human-readable mismatches."""
    return [str(m) for m in expectation_mismatches(result, expect)]


def expectation_mismatches(result: ReplayResult, expect: dict | None = None) -> list[Mismatch]:
    """Every expectation of the ``expect`` block (the record's by default) that the replay does
    not meet, with the file and line of its key."""
    expect = expect if expect is not None else (result.record.get("expect") or {})
    found: list[tuple[tuple, Any, Any, str]] = []     # (key path, expected, got, message)
    found += _illegal_mismatches(result, expect)
    if expect.get("outcome") is not None:
        found += _outcome_mismatches(result, expect["outcome"])
    fired = result.state.rules_fired
    for i, rule in enumerate(expect.get("rules") or []):
        if fired.get(rule, 0) <= 0:
            found.append((("rules", i), rule, sorted(fired), f"rule {rule} never fired "
                          f"(fired: {', '.join(sorted(fired)) or 'none'})"))
    for rule, n in (expect.get("rules_count") or {}).items():
        if fired.get(rule, 0) != n:
            found.append((("rules_count", rule), n, fired.get(rule, 0),
                          f"rule {rule}: expected {n} times, got {fired.get(rule, 0)}"))
    for i, rule in enumerate(expect.get("not_rules") or []):
        if fired.get(rule, 0) > 0:
            found.append((("not_rules", i), 0, fired[rule],
                          f"rule {rule} should not fire, fired {fired[rule]} times"))
    if expect.get("position"):
        found += [(("position",) + key, want, got, message)
                  for key, want, got, message in _position_mismatches(result.state, expect["position"])]
    source = result.source
    file = display_path(source.file) if source else ""
    out = []
    for key, want, got, message in found:
        path = key if key[0] == "moves" else ("expect",) + key
        # the key without list indices: messages count moves from 1, never as moves[0]
        shown = tuple(part for part in path if not isinstance(part, int))
        out.append(Mismatch(shown, want, got, message, file, source.line(path) if source else 0))
    return out


def _illegal_mismatches(result: ReplayResult, expect: dict) -> list[tuple[tuple, Any, Any, str]]:
    """The illegal moves against ``illegal`` (numbered from 1); without it, every move must be
    legal (the mismatch is then at the refused move's own line)."""
    got = [{"move": p.number, "rule": p.rule} for p in result.problems]
    if expect.get("illegal") is not None:
        want = [{"move": int(e["move"]), "rule": str(e["rule"])} for e in expect["illegal"] or []]
        if want == got:
            return []
        return [(("illegal",), want, got, f"illegal moves: expected {_moves_and_rules(want)}, "
                 f"got {_moves_and_rules(got)}")]
    return [(("moves", p.number - 1), [], got[i], f"move {p.number} {p.text!r} is illegal "
             f"({p.rule}: {p.reason}); the expect block lists no illegal move")
            for i, p in enumerate(result.problems)]


def _moves_and_rules(items: list[dict]) -> str:
    return ", ".join(f"move {e['move']} breaks {e['rule']}" for e in items) or "none"


def _outcome_mismatches(result: ReplayResult, want: Any) -> list[tuple[tuple, Any, Any, str]]:
    out = result.outcome
    if want in (None, "none"):
        if out is None:
            return []
        return [(("outcome",), "none", out.to_dict(), f"outcome: expected none (the game goes on), "
                 f"got {out.to_dict()}")]
    if out is None:
        return [(("outcome",), want, "none", f"outcome: expected {want}, got none (the game goes on: "
                 f"{result.state.describe()})")]
    if not isinstance(want, dict):
        return [(("outcome",), want, out.to_dict(), f"outcome: expected {want!r}, got {out.to_dict()} "
                 "(write `none` or {winners, rule, scores})")]
    bad = []
    got = {"winners": list(out.winners), "rule": out.rule, "scores": list(out.scores)}
    for key in ("winners", "rule", "scores"):
        if key in want and (list(want[key]) if isinstance(want[key], (list, tuple)) else want[key]) != got[key]:
            bad.append((("outcome", key), want[key], got[key],
                        f"outcome {key}: expected {want[key]}, got {got[key]}"))
    return bad


def _position_mismatches(st: GameState, want: dict) -> list[tuple[tuple, Any, Any, str]]:
    """Compare selected keys of the final ``to_dict()["state"]``: each as the game reads it
    (``GameState.position_mismatches``), else as written."""
    got = st.to_dict()["state"]
    bad: list[tuple[tuple, Any, Any, str]] = []
    for key, value in want.items():
        own = st.position_mismatches(key, value, got)
        if own is not None:
            bad.extend(own)
        elif key not in got:
            bad.append(((key,), value, None, f"unknown position key {key!r} (the game's keys: "
                        f"{', '.join(sorted(got))})"))
        elif got[key] != value:
            bad.append(((key,), value, got[key], f"{key}: expected {value!r}, got {got[key]!r}"))
    return bad
