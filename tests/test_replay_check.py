"""`pnp replay --check` and the replay's messages: the expect block verified at its lines, every
refused move at its record line, did-you-mean, the legal list narrowed to what the move names,
moves numbered from 1, and Zombies vs Vampires move texts that name one route (issue 17)."""
import json

from click.testing import CliRunner

from pnp.cli import main

CIMITERIO_GATE = """\
game: cimiterio
players: 2
seed: 1
variants: [map=classic, adjacent, bell-ignores]   # the map and C13 reading this position was written for
position:
  stacks: {"12,7": [20, 21, 22, 23, 24, 25]}
  gate: intact
  events: [noise:main]
  slot: 2
moves:
  - move G1 14,5>14,3
expect:
  outcome: none
  rules: [C13]
  rules_count: {C13: %d}
  position: {gate: damaged}
"""

ZVV = """\
game: zombies-vs-vampires
players: 2
seed: 1
position:
  pieces: [%s, [m13]]
  walls: [%s]
  die: "%s"
moves:
  - %s
"""


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def write(tmp_path, text, name="record.yaml"):
    record = tmp_path / name
    record.write_text(text, encoding="utf-8")
    return record.resolve()


def zvv(tmp_path, pieces, walls, die, move):
    record = write(tmp_path, ZVV % (pieces, walls, die, move))
    return record, run("replay", "zombies-vs-vampires", record, "--json")


def only_problem(result):
    assert result.exit_code == 1, result.output
    problems = json.loads(result.output)["problems"]
    assert len(problems) == 1
    return problems[0]


# ------------------------------------------------------------------ --check
def test_check_of_a_record_whose_expectations_hold_exits_0(tmp_path):
    record = write(tmp_path, CIMITERIO_GATE % 1)
    result = run("replay", "cimiterio", record, "--check")
    assert result.exit_code == 0, result.output
    assert "expect: every expectation holds" in result.output and "OK: as expected" in result.output


def test_check_of_a_wrong_expectation_exits_1_naming_its_line(tmp_path):
    wrong = (CIMITERIO_GATE % 3).replace("outcome: none", "outcome: {winners: [0], rule: C14}")
    record = write(tmp_path, wrong)
    result = run("replay", "cimiterio", record, "--check")
    assert result.exit_code == 1, result.output
    assert "expect: 2 mismatches" in result.output and "FAILED: 2 expectation(s) not met" in result.output
    assert f"{record}:13: expect.outcome: outcome: expected {{'winners': [0], 'rule': 'C14'}}, got none" \
        in result.output
    assert f"{record}:15: expect.rules_count.C13: rule C13: expected 3 times, got 1" in result.output


def test_check_as_json_lists_each_mismatch_with_expected_and_got(tmp_path):
    record = write(tmp_path, CIMITERIO_GATE % 3)
    result = run("replay", "cimiterio", record, "--check", "--json")
    assert result.exit_code == 1, result.output
    expect = json.loads(result.output)["expect"]
    assert expect["checked"] is True and expect["ok"] is False
    assert expect["mismatches"] == [{"file": str(record), "line": 15, "key": "expect.rules_count.C13",
                                     "expected": 3, "got": 1,
                                     "message": "rule C13: expected 3 times, got 1"}]


def test_without_check_the_expect_block_is_said_to_be_unchecked(tmp_path):
    record = write(tmp_path, CIMITERIO_GATE % 3)          # wrong, but not checked
    result = run("replay", "cimiterio", record)
    assert result.exit_code == 0, result.output
    assert "expect: not checked (use --check)" in result.output
    assert json.loads(run("replay", "cimiterio", record, "--json").output)["expect"] == {"checked": False}


def test_check_passes_a_record_whose_expected_illegal_moves_are_refused(tmp_path):
    record = write(tmp_path, "game: cimiterio\nseed: 5\nmoves:\n  - noise G1\n  - move G1 14,5>99,99\n"
                             "  - noise G9\nexpect:\n  illegal: [{move: 2, rule: notation}, {move: 3, rule: C7}]\n")
    assert run("replay", "cimiterio", record, "--check").exit_code == 0
    wrong = write(tmp_path, record.read_text().replace("move: 3", "move: 4"), "wrong.yaml")
    result = run("replay", "cimiterio", wrong, "--check")
    assert result.exit_code == 1, result.output
    assert (f"{wrong}:8: expect.illegal: illegal moves: expected move 2 breaks notation, move 4 breaks C7, "
            "got move 2 breaks notation, move 3 breaks C7") in result.output


# ------------------------------------------------------------------ refused moves
def test_an_illegal_move_is_named_at_its_record_line(tmp_path):
    record = write(tmp_path, "game: cimiterio\nseed: 5\nmoves:\n  - noise G1\n\n  - move G1 14,5>14,1>13,0\n")
    result = run("replay", "cimiterio", record)
    assert result.exit_code == 1
    assert f"{record}:6: move 2 'move G1 14,5>14,1>13,0': illegal, breaks C6" in result.output
    problem = json.loads(run("replay", "cimiterio", record, "--json").output)["problems"][0]
    assert (problem["file"], problem["line"], problem["move"]) == (str(record), 6, 2)


def test_an_unreadable_move_gets_the_closest_legal_moves(tmp_path):
    record = write(tmp_path, "game: cimiterio\nseed: 5\nmoves:\n  - noize G1\n")
    result = run("replay", "cimiterio", record)
    assert f"{record}:4: move 1 'noize G1': illegal, breaks notation" in result.output
    assert "did you mean 'noise G1'" in result.output
    problem = json.loads(run("replay", "cimiterio", record, "--json").output)["problems"][0]
    assert problem["did_you_mean"][0] == "noise G1"


def test_a_readable_but_illegal_move_gets_no_guess(tmp_path):
    record = write(tmp_path, "game: cimiterio\nseed: 5\nmoves:\n  - move G1 14,5>14,1>13,0\n")
    assert "did you mean" not in run("replay", "cimiterio", record).output


def test_the_legal_list_is_narrowed_to_the_piece_the_move_names(tmp_path):
    record, result = zvv(tmp_path, "[e5, h9]", "", "2", "move e5>f6")
    problem = only_problem(result)
    assert problem["legal_of"] == ["e5"]
    assert sorted(problem["legal"]) == sorted(f"move {route}" for route in (
        "e5>f5", "e5>d5", "e5>e6", "e5>e4", "e5>f5>g5", "e5>d5>c5", "e5>e6>e7", "e5>e4>e3",
        "e5>f5>f6", "e5>f5>f4", "e5>d5>d6", "e5>d5>d4"))
    assert problem["legal_total"] == 24          # 12 for e5, 12 for h9
    text = run("replay", "zombies-vs-vampires", record).output
    assert "(the 12 moves of e5; 24 legal moves in all)" in text and "move h9" not in text


def test_a_card_play_lists_only_that_cards_plays(tmp_path):
    record = write(tmp_path, "game: zombie-run\nplayers: 4\nseed: 11\nposition:\n  turn: 0\n"
                             "  hands: [[item:bat, zombie:bus, zombie:pan, zombie:ladder], [], [], []]\n"
                             "  tables: [[item:bat], [], [], []]\nmoves:\n  - play item:bat\n")
    problem = only_problem(run("replay", "zombie-run", record, "--json"))
    assert problem["legal_of"] == ["item:bat"] and problem["line"] == 9
    assert problem["legal"] and all("item:bat" in text for text in problem["legal"])
    assert problem["legal_total"] > len(problem["legal"])


def test_a_move_naming_nothing_lists_every_legal_move(tmp_path):
    record, result = zvv(tmp_path, "[e5, h9]", "", "2", "build h:a5-1")
    problem = only_problem(result)
    assert problem["legal_of"] == [] and len(problem["legal"]) == problem["legal_total"] == 24


def test_moves_are_numbered_from_1_in_text_and_json(tmp_path):
    record = write(tmp_path, "game: cimiterio\nseed: 5\nmoves:\n  - noise G1\n  - noise G9\n")
    text = run("replay", "cimiterio", record).output
    assert "move 2 'noise G9': illegal" in text and "stopped at move 2" in text
    data = json.loads(run("replay", "cimiterio", record, "--json").output)
    assert data["stopped_at"] == 2 and data["problems"][0]["move"] == 2
    assert data["problems"][0]["text"] == "noise G9" and data["moves_played"] == 1


# ------------------------------------------------------------------ ZvV: one route per text
def test_zvv_a_diagonal_is_refused_citing_v5(tmp_path):
    _, result = zvv(tmp_path, "[e5]", "", "4", "move e5>f6")
    problem = only_problem(result)
    assert problem["rule"] == "V5" and "e5>f5>f6 or e5>e6>f6" in problem["reason"]


def test_zvv_a_straight_line_through_a_wall_is_refused_not_routed_round(tmp_path):
    _, result = zvv(tmp_path, "[e5]", "v:e5-1", "4", "move e5>f5")
    problem = only_problem(result)
    assert problem["rule"] == "V5" and problem["reason"] == "a wall between e5 and f5"
    _, result = zvv(tmp_path, "[e5]", "h:e6-1", "4", "move e5>e8")      # the wall mid-line
    assert only_problem(result)["reason"] == "a wall between e6 and e7"


def test_zvv_a_double_jump_is_refused_citing_v6(tmp_path):
    _, result = zvv(tmp_path, "[e5, e6, e7]", "", "4", "move e5>e8")
    problem = only_problem(result)
    assert problem["rule"] == "V6" and "e7 is occupied too" in problem["reason"]


def zvv_on_build(tmp_path, move):
    record = write(tmp_path, (ZVV % ("[e5]", "", "build", move)).replace('  die: "build"\n',
                                                                        "  die: build\n  wall_size: 2\n"))
    return only_problem(run("replay", "zombies-vs-vampires", record, "--json"))


def test_zvv_pass_on_build_cites_v7(tmp_path):
    problem = zvv_on_build(tmp_path, "pass")
    assert problem["rule"] == "V7" and problem["reason"] == "you must build: a wall of size 2 fits"


def test_zvv_a_move_on_build_cites_v7(tmp_path):
    assert zvv_on_build(tmp_path, "move e5>e6")["rule"] == "V7"


def test_zvv_routes_written_leg_by_leg_are_played(tmp_path):
    for pieces, move, end in (("[e5]", "move e5>e6>f6", "f6"),          # a turn, written out
                              ("[e5]", "move e5>e7", "e7"),             # a straight walk
                              ("[e5, e6]", "move e5>e7", "e7"),         # a jump
                              ("[e5, e6]", "move e5>e9>g9", "g9")):     # jump, walk, then turn
        record, result = zvv(tmp_path, pieces, "", "6", move)
        assert result.exit_code == 0, (move, result.output)
        assert json.loads(result.output)["final"]["state"]["pieces"][0][0] == end, move


def test_zvv_a_route_longer_than_the_die_is_refused_citing_v4(tmp_path):
    _, result = zvv(tmp_path, "[e5]", "", "4", "move e5>e11")
    assert only_problem(result)["reason"] == "more steps than the die allows (4)"
    _, result = zvv(tmp_path, "[a5]", "", "6", "move " + ">".join(["a5", "m5"] * 2000))
    assert only_problem(result)["rule"] == "V4"
