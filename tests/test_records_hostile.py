"""Hostile game records: a starting position the game cannot have is a message naming the
record's file, the line and the piece, card or square in the game's terms (exit 2, no
traceback); `pnp simulate` without --players plays every shipped game."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.engines.core import Rng, get_game
from pnp.engines.replay import load_record
from pnp.errors import DataError
from pnp.limits import MAX_FILE_BYTES

GAMES = ("cimiterio", "zombie-run", "zombies-vs-vampires")
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def pnp(*args, cwd=None):
    """`pnp ARGS` in a child process (a hostile record must not hang the test run)."""
    return subprocess.run([sys.executable, "-m", "pnp.cli", *map(str, args)], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


def refused(tmp_path: Path, text: str) -> tuple[Path, str]:
    """Replay the record `text`; it must be refused as unusable. Returns (file, messages)."""
    record = tmp_path / "record.yaml"
    record.write_text(text, encoding="utf-8")
    result = pnp("replay", yaml.safe_load(text)["game"], record)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""           # nothing replayed, nothing half printed
    return record, result.stderr


def test_a_zombie_in_two_groups_and_a_captured_pile_is_refused(tmp_path):
    record, err = refused(tmp_path, """\
game: cimiterio
players: 2
position:
  stacks:
    "1,7": [30]
    "3,7": [30, 31]
  captured:
    0: [31]
""")
    assert f"{record}:6: position.stacks.3,7[0]: zombie 30 (rina-merciaia) is in two places: " \
           "the group at 1,7 and the group at 3,7" in err
    assert f"{record}:8: position.captured[0][0]: zombie 31 (toto-fisarmonica) is in two places: " \
           "the group at 3,7 and seat 0's captured pile" in err
    assert err.startswith("2 problems in the data:")


def test_a_guardian_off_the_stops_is_named_with_its_square(tmp_path):
    record, err = refused(tmp_path, """\
game: cimiterio
players: 2
variants: [map=classic]
position:
  guardians:
    - "0,7"
    - "3,3"
""")
    assert f"{record}:7: position.guardians[1]: guardian G2 at 3,3 is not on a guardian stop" in err
    assert "(the stops: 0,1 0,3 " in err


def test_a_duplicate_zombie_in_a_snapshot_is_refused(tmp_path):
    snapshot = get_game("cimiterio").new(players=2, seed=4).to_dict()
    stacks = snapshot["state"]["stacks"]
    first, second = sorted(stacks)[:2]
    stacks[second] = stacks[second] + [stacks[first][-1]]
    position = {k: v for k, v in snapshot.items() if k not in ("game", "players", "seed")}
    record, err = refused(tmp_path, yaml.safe_dump({"game": "cimiterio", "players": 2, "seed": 4,
                                                    "position": position}))
    z = stacks[first][-1]
    assert f"position.state.stacks.{second}[{len(stacks[second]) - 1}]: zombie {z} (" in err
    assert f"is in two places: the group at {first} and the group at {second}" in err


def test_two_pieces_on_one_square_are_refused(tmp_path):
    record, err = refused(tmp_path, """\
game: zombies-vs-vampires
players: 2
position:
  pieces:
    - [g7, a1]
    - [g7]
""")
    assert f"{record}:6: position.pieces[1][0]: two pieces on g7: P1's and P2's" in err


def test_walls_off_the_supply_the_board_or_inside_a_home_zone_are_refused(tmp_path):
    record, err = refused(tmp_path, """\
game: zombies-vs-vampires
players: 2
position:
  pieces: [[g7], [a13]]
  walls:
    - h:a11-1
    - h:a13-3
    - h:e5-2
    - h:d5-3
    - h:e5-9
""")
    assert f"{record}:6: position.walls[0]: wall h:a11-1: it lies inside home zone nw (V9)" in err
    assert f"{record}:7: position.walls[1]: wall h:a13-3: it runs along or past the board's edge" in err
    assert f"{record}:9: position.walls[3]: wall h:d5-3 overlaps or crosses wall h:e5-2 (V9)" in err
    assert f"{record}:10: position.walls[4]: wall h:e5-9: the supply has walls of size 1, 2, 3, not 9" in err
    assert "(0, 10, 0, 1)" not in err
    assert err.startswith("4 problems in the data:")


def test_more_walls_of_a_size_than_the_supply_holds_are_refused(tmp_path):
    supply = get_game("zombies-vs-vampires").new(players=2).total_walls[3]
    walls = "".join(f"    - h:{chr(97 + 3 * (i % 3))}{3 + i // 3}-3\n" for i in range(supply + 1))
    record, err = refused(tmp_path, "game: zombies-vs-vampires\nplayers: 2\nposition:\n"
                                    "  pieces: [[g7], [a13]]\n  walls:\n" + walls)
    assert f"{record}:{6 + supply}: position.walls[{supply}]: wall " in err
    assert f"the supply has only {supply} walls of size 3" in err


def test_a_wall_size_off_the_die_is_a_message_not_an_index_error(tmp_path):
    record, err = refused(tmp_path, """\
game: zombies-vs-vampires
players: 2
position:
  pieces: [[g7], [a13]]
  die: build
  wall_size: 9
""")
    assert f"{record}:6: position.wall_size: wall_size: a face of the size die (1 2 3), not 9" in err
    assert "IndexError" not in err


def test_more_copies_of_a_card_than_printed_and_broken_tables_are_refused(tmp_path):
    record, err = refused(tmp_path, """\
game: zombie-run
players: 3
position:
  hands:
    - [item:bat, item:bat, item:bat, item:bat]
    - []
    - []
  tables:
    - [item:pan, zombie:pan]
    - [item:bus, item:bus]
    - []
""")
    assert f"{record}:5: position.hands[0][3]: more than the 3 printed copies of item:bat" in err
    assert f"{record}:9: position.tables[0][1]: P1's table holds zombie:pan and item:pan (Z4)" in err
    assert f"{record}:10: position.tables[1][1]: P2's table holds item:bus twice (Z5)" in err


@pytest.mark.parametrize("game, key, value, words", [
    ("cimiterio", "turn", '"two"', "expected a whole number"),
    ("cimiterio", "turn", "-1", "turn: the seat to move (0-based, 2 players) must be a whole number in 0..1"),
    ("cimiterio", "slot", "99999999999999999999999", "slot: actions already played must be a whole number in 0..5"),
    ("cimiterio", "stacks", "[1, 2]", "expected a mapping"),
    ("cimiterio", "stacks", '{"1,7": [99]}', "unknown zombie 99"),
    ("cimiterio", "captured", '{7: [1]}', "captured: a seat (0-based, 2 players) must be"),
    ("cimiterio", "events", '["noise:nowhere"]', "no (more) event card matching 'noise:nowhere'"),
    ("zombies-vs-vampires", "pieces", '[["zz99"], ["a13"]]', "P1's piece on 'zz99'"),
    ("zombies-vs-vampires", "pieces", '{"a": 1}', "expected a list"),
    ("zombies-vs-vampires", "turn", "5", "turn (0-based, 2 players) must be a whole number in 0..1"),
    ("zombies-vs-vampires", "die", "[4]", "die: a face of the action die"),
    ("zombies-vs-vampires", "supply", "[-1, 2, 3]", "walls of size 1 in the supply must be"),
    ("zombie-run", "turn", "7", "turn: the seat to move (0-based, 3 players) must be"),
    ("zombie-run", "alive", "[true]", "alive: one entry per seat (3), not 1 entries"),
    ("zombie-run", "deck", '["item:nothing"]', "unknown card 'item:nothing'"),
])
def test_a_mistyped_position_value_is_a_message(tmp_path, game, key, value, words):
    players = 3 if game == "zombie-run" else 2
    record = tmp_path / "record.yaml"
    record.write_text(f"game: {game}\nplayers: {players}\nposition:\n  {key}: {value}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", game, str(record)])   # in process: many cases
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert f"{record}:4: position.{key}" in result.output
    assert words in result.output


def test_a_mistyped_option_is_a_message_at_its_line(tmp_path):
    record, err = refused(tmp_path, "game: cimiterio\nplayers: 2\noptions:\n  cap: many\n")
    assert f"{record}:3: options: cimiterio: option cap must be a whole number, not 'many'" in err


def test_players_outside_the_game_are_a_message_at_their_line(tmp_path):
    record, err = refused(tmp_path, "game: zombie-run\nplayers: 2\n")
    assert f"{record}:2: players: zombie-run is for 3..7 players, not 2" in err


@pytest.mark.parametrize("game", GAMES)
def test_snapshots_of_played_games_load_unchanged(tmp_path, game):
    """The checks refuse no position the engine itself reaches (to_dict() along random games)."""
    cls = get_game(game)
    record = tmp_path / "snapshot.yaml"
    checked = 0
    for players in range(cls.min_players, cls.max_players + 1):
        st = cls.new(players=players, seed=players)
        rng = Rng(players)
        for ply in range(120):
            if st.outcome() is not None:
                break
            moves = st.legal_moves()
            st.push(moves[rng.randbelow(len(moves))])
            if ply % 30 == 29:
                snap = st.to_dict()
                position = {k: v for k, v in snap.items() if k not in ("game", "players", "seed")}
                record.write_text(yaml.safe_dump({"game": game, "players": players, "seed": snap["seed"],
                                                  "position": position}), encoding="utf-8")
                load_record(record)
                checked += 1
    assert checked >= cls.max_players - cls.min_players + 1


def test_load_record_reports_every_problem_at_once(tmp_path):
    record = tmp_path / "record.yaml"
    record.write_text("game: zombies-vs-vampires\nplayers: 2\nposition:\n  pieces: [[g7, g7], [a13]]\n"
                      "  wall_size: 7\n  turn: 3\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_record(record)
    assert sorted((p.line, p.key, p.code) for p in caught.value.problems) == [
        (4, "position.pieces[0][1]", "record.position"),
        (5, "position.wall_size", "record.position"),
        (6, "position.turn", "record.position")]


@pytest.mark.parametrize("game", GAMES)
def test_simulate_plays_every_shipped_game_without_players(game):
    result = pnp("simulate", game, "--games", "2", "--seed", "1")
    assert result.returncode == 0, result.stderr
    expected = get_game(game).players_by_default()
    assert result.stdout.startswith(f"{game}: 2 games, {expected} players")


def test_simulate_help_says_what_players_defaults_to():
    result = pnp("simulate", "--help")
    assert result.returncode == 0
    assert "default: the game's own default" in " ".join(result.stdout.split())


@pytest.mark.parametrize("game", GAMES)
def test_a_record_without_players_is_played_with_the_games_default(tmp_path, game):
    record = tmp_path / "record.yaml"
    record.write_text(f"game: {game}\nseed: 3\nmoves: []\n", encoding="utf-8")
    result = pnp("replay", game, record, "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["final"]["players"] == get_game(game).players_by_default()


def test_a_record_that_is_not_utf8_names_its_line_and_column(tmp_path):
    """A record saved in Latin-1: the line and column of the first byte that is not UTF-8 (the
    message gave only the byte's offset in the file)."""
    record = tmp_path / "latin1.yaml"
    record.write_bytes(b"game: zombie-run\nseed: 3\n# caf\xe9\nmoves: []\n")
    result = CliRunner().invoke(main, ["replay", "zombie-run", str(record)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.splitlines()[-1].endswith("latin1.yaml:3: not UTF-8 (byte 0xe9 at column 6): "
                                                   "save the file as UTF-8"), result.output


def test_a_record_too_large_to_read_is_refused_as_a_file_not_a_pack_file(tmp_path):
    record = tmp_path / "huge.yaml"
    record.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    result = CliRunner().invoke(main, ["replay", "zombie-run", str(record)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1].endswith(
        f"huge.yaml: the file is 8.0 MB, more than the {MAX_FILE_BYTES // 2**20} MB pnp reads from one file"), \
        result.output
    assert "pack" not in result.output


@pytest.mark.parametrize("key", ["captured", "stacks", "absent", "zombies_on_board"])
def test_cimiterio_position_words_are_unknown_keys_in_another_game(tmp_path, key):
    """`expect.position` keys are the game's own: Cimiterio's `captured`, `stacks`... in a
    Zombie Run record are unknown keys with the game's list (they were read with Cimiterio's
    meaning by the generic replay, and a missing one printed only `'captured'`)."""
    record = tmp_path / "record.yaml"
    record.write_text((SCENARIOS / "zombie-run" / "five_items_saved.yaml").read_text(encoding="utf-8")
                      + f"  position: {{{key}: {{0: []}}}}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "zombie-run", str(record), "--check"])
    assert result.exit_code == 1, result.output            # an expectation not met, as any other
    assert f"unknown position key {key!r} (the game's keys: " in result.output, result.output
    assert "Traceback" not in result.output
