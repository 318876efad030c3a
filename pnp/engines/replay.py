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
    expect:                    # optional, checked by check_expectations() (scenario tests)
      outcome: {winners: [0], rule: C22}    # or "none" (game still running)
      illegal: [{ply: 2, rule: C6}]
      rules: [C9, C11]         # rule points that must have fired
      rules_count: {C13: 3}    # exact counts
      not_rules: [C14]         # rule points that must not have fired
      position: {gate: damaged, scores: [1, 0], stacks: {"13,7": 4}, ...}

``replay(record)`` stops at the first illegal move unless ``keep_going`` (then the move is
skipped and replay goes on). Each problem carries the move, its rule point and the legal moves.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.engines.core import GameState, IllegalMoveError, Outcome, RecordError, engine_for, get_game
from pnp.errors import PnpError, Problems
from pnp.schema import Field, Schema, Validator
from pnp.yamlsource import load_source


@dataclass
class MoveProblem:
    ply: int                 # index in the record's move list (0-based)
    move: str
    rule: str
    reason: str
    position: str
    legal: list[str]

    def to_dict(self) -> dict:
        return {"ply": self.ply, "move": self.move, "rule": self.rule, "reason": self.reason,
                "position": self.position, "legal": self.legal}


@dataclass
class ReplayResult:
    game: str
    moves_total: int
    moves_played: int
    problems: list[MoveProblem]
    state: GameState
    outcome: Outcome | None
    stopped_at: int | None = None        # ply of the illegal move that stopped the replay
    record: dict = field(default_factory=dict, repr=False)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "ok": self.ok,
            "moves_total": self.moves_total,
            "moves_played": self.moves_played,
            "stopped_at": self.stopped_at,
            "problems": [p.to_dict() for p in self.problems],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "position": self.state.describe(),
            "rules_fired": dict(sorted(self.state.rules_fired.items())),
            "final": self.state.to_dict(),
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    def to_text(self, max_legal: int = 12) -> str:
        lines = [f"{self.game}: {self.moves_played}/{self.moves_total} moves replayed"]
        for p in self.problems:
            lines.append(f"  move {p.ply + 1} {p.move!r}: illegal, breaks {p.rule}"
                         + (f" ({p.reason})" if p.reason else ""))
            lines.append(f"    position: {p.position}")
            if p.legal:
                more = f" ... (+{len(p.legal) - max_legal})" if len(p.legal) > max_legal else ""
                lines.append("    legal: " + "; ".join(p.legal[:max_legal]) + more)
        if self.stopped_at is not None:
            lines.append(f"  stopped at move {self.stopped_at + 1} (use --keep-going to continue)")
        lines.append(f"  final position: {self.state.describe()}")
        if self.outcome is None:
            lines.append("  outcome: game not finished")
        else:
            o = self.outcome
            who = ", ".join(f"seat {w}" for w in o.winners) or "nobody"
            lines.append(f"  outcome: {who} wins ({o.reason}; {o.rule}); scores {list(o.scores)}")
        lines.append("  " + ("OK" if self.ok else f"{len(self.problems)} illegal move(s)"))
        return "\n".join(lines)


ILLEGAL = Schema("illegal move", "A move the replay must refuse.", {
    "ply": Field("int", "Index of the move in `moves` (0-based)."),
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
    "expect": Field(EXPECT, "What must hold after the replay.", None),
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
    problems = Problems()
    source = load_source(Path(path), problems)
    record = Validator(source, problems).check(source.value, RECORD) if source is not None else {}
    if source is not None and not problems:
        _check_start(record, source, problems, game)
    problems.raise_if_any()
    return {k: v for k, v in record.items() if v is not None}


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
    game = engine_for(game) if game else None     # a pack folder names its engine
    name = record.get("game") or game
    if not name:
        raise RecordError("the record does not name its game")
    if game and record.get("game") and record["game"] != game:
        raise RecordError(f"record is for {record['game']!r}, not {game!r}")
    cls = get_game(name)
    players = int(record.get("players") or cls.players_by_default())
    seed = record.get("seed", 0)
    variants = record.get("variants") or []
    options = record.get("options") or None
    pos = record.get("position")
    if pos is None:
        return cls.new(players=players, seed=seed, variants=variants, options=options)
    if isinstance(pos, dict) and "state" in pos:
        return cls.from_dict({"game": cls.name, "players": players, "seed": seed, **pos})
    if not hasattr(cls, "from_position"):
        raise RecordError(f"{name}: no compact position format; give a to_dict() snapshot")
    return cls.from_position(pos, players=players, seed=seed, variants=variants, options=options)


def replay(record: dict, keep_going: bool = False, game: str | None = None) -> ReplayResult:
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
            st.push_text(text)
            played += 1
        except IllegalMoveError as exc:
            problems.append(MoveProblem(i, exc.move, exc.rule, exc.reason, exc.position,
                                        exc.legal if exc.legal is not None else
                                        [st.move_text(m) for m in st.legal_moves()]))
            if not keep_going:
                stopped = i
                break
    return ReplayResult(st.name, len(moves), played, problems, st, st.outcome(), stopped, record)


def replay_file(game: str | None, path: str | Path, keep_going: bool = False) -> ReplayResult:
    """What ``pnp replay GAME FILE [--keep-going]`` calls."""
    return replay(load_record(path, game), keep_going=keep_going, game=game)


# ----------------------------------------------------------------------------- expectations
def check_expectations(result: ReplayResult, expect: dict | None = None) -> list[str]:
    """Compare a replay with the record's ``expect`` block; returns human-readable mismatches."""
    expect = expect if expect is not None else (result.record.get("expect") or {})
    bad: list[str] = []
    st = result.state
    if expect.get("illegal") is not None:
        want = [(int(e["ply"]), str(e["rule"])) for e in expect["illegal"] or []]
        got = [(p.ply, p.rule) for p in result.problems]
        if want != got:
            bad.append(f"illegal moves: expected {want}, got {got}")
    elif result.problems:
        bad.append("unexpected illegal moves: "
                   + "; ".join(f"{p.ply}:{p.move} ({p.rule}: {p.reason})" for p in result.problems))
    if expect.get("outcome") is not None:
        want = expect["outcome"]
        out = result.outcome
        if want in (None, "none"):
            if out is not None:
                bad.append(f"expected no outcome, got {out}")
        elif out is None:
            bad.append(f"expected outcome {want}, game not over ({st.describe()})")
        else:
            if "winners" in want and list(out.winners) != list(want["winners"]):
                bad.append(f"winners: expected {want['winners']}, got {list(out.winners)}")
            if "rule" in want and out.rule != want["rule"]:
                bad.append(f"outcome rule: expected {want['rule']}, got {out.rule}")
            if "scores" in want and list(out.scores) != list(want["scores"]):
                bad.append(f"scores: expected {want['scores']}, got {list(out.scores)}")
    for rule in expect.get("rules", []) or []:
        if st.rules_fired.get(rule, 0) <= 0:
            bad.append(f"rule {rule} never fired (fired: {sorted(st.rules_fired)})")
    for rule, n in (expect.get("rules_count") or {}).items():
        if st.rules_fired.get(rule, 0) != n:
            bad.append(f"rule {rule} fired {st.rules_fired.get(rule, 0)} times, expected {n}")
    for rule in expect.get("not_rules", []) or []:
        if st.rules_fired.get(rule, 0) > 0:
            bad.append(f"rule {rule} fired but should not have")
    pos = expect.get("position")
    if pos:
        bad.extend(_check_position(st, pos))
    return bad


def _check_position(st: GameState, want: dict) -> list[str]:
    """Compare selected keys of the final ``to_dict()["state"]``. Stacks may be given as full
    lists or as group sizes; ``absent`` lists cells that must be empty."""
    got = st.to_dict()["state"]
    bad = []
    for key, value in want.items():
        if key == "stacks":
            gs = got["stacks"]
            for cell, v in value.items():
                g = gs.get(cell)
                if isinstance(v, int):
                    if g is None or len(g) != v:
                        bad.append(f"stack {cell}: expected {v} zombies, got {g}")
                else:
                    ref = getattr(st, "zombie_ref", None)
                    vv = [ref(x) for x in v] if ref else v
                    if g != vv:
                        bad.append(f"stack {cell}: expected {vv}, got {g}")
        elif key == "absent":
            for cell in value:
                if cell in got["stacks"]:
                    bad.append(f"cell {cell} should be empty, holds {got['stacks'][cell]}")
        elif key == "captured":
            ref = getattr(st, "zombie_ref", None)
            for seat, refs in value.items():
                vv = [ref(x) for x in refs] if ref else refs
                if got["captured"][int(seat)] != vv:
                    bad.append(f"captured[{seat}]: expected {vv}, got {got['captured'][int(seat)]}")
        elif key == "zombies_on_board":
            n = sum(len(s) for s in got["stacks"].values())
            if n != value:
                bad.append(f"zombies on board: expected {value}, got {n}")
        elif key not in got:
            bad.append(f"unknown position key {key!r}")
        elif got[key] != value:
            bad.append(f"{key}: expected {value!r}, got {got[key]!r}")
    return bad
