"""`pnp replay` and `pnp simulate` as a user runs them."""
import json
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main

SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "cimiterio"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def test_replay_stops_at_the_first_illegal_move_and_names_its_rule():
    result = run("replay", "cimiterio", SCENARIOS / "illegal_moves.yaml")
    assert result.exit_code == 1
    assert "move 1 'move G1 14,5>14,3>14,1>13,0>11,0': illegal, breaks C6" in result.output
    assert "legal: move G1 14,5>14,3" in result.output
    assert "stopped at move 1" in result.output
    assert "breaks C3" not in result.output


def test_replay_keep_going_reports_every_illegal_move_as_json():
    result = run("replay", "cimiterio", SCENARIOS / "illegal_moves.yaml", "--keep-going", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert [p["rule"] for p in data["problems"]] == ["C6", "C3", "C6", "C19", "C24", "C7", "notation"]
    assert data["ok"] is False


def test_replay_of_a_legal_game_exits_0_with_its_outcome():
    result = run("replay", "cimiterio", SCENARIOS / "gate_intact_6.yaml")
    assert result.exit_code == 0, result.output
    assert "outcome" in result.output and "OK" in result.output


def test_replay_of_a_broken_record_is_a_clear_error(tmp_path):
    record = tmp_path / "bad.yaml"
    record.write_text("game: cimiterio\nplayers: [\n", encoding="utf-8")
    result = run("replay", "cimiterio", record)
    assert result.exit_code == 2
    assert "bad.yaml" in result.output and "Traceback" not in result.output


def test_simulate_report_is_the_same_for_the_same_seed_whatever_the_workers():
    one = run("simulate", "cimiterio", "--games", 12, "--seed", 7, "--json")
    two = run("simulate", "cimiterio", "--games", 12, "--seed", 7, "--workers", 2, "--json")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output

    def report(output):
        return json.loads(output[output.index("{"):])

    first, second = report(one.output), report(two.output)
    first.pop("workers", None), second.pop("workers", None)
    assert first == second
    assert first["games"] == 12


def test_simulate_rejects_an_unknown_variant():
    result = run("simulate", "cimiterio", "--games", 2, "--variant", "no-such-variant")
    assert result.exit_code == 2
    assert "no-such-variant" in result.output


def test_simulate_names_the_option_whose_value_is_bad_and_the_game_once():
    result = run("simulate", "zombie-run", "--players", 3, "--games", 2, "--variant", "first_draw=maybe")
    assert result.exit_code == 2
    error = result.output.strip().splitlines()[-1]
    assert error == "zombie-run: option first_draw: expected a boolean, got 'maybe'", result.output
    result = run("simulate", "zombie-run", "--players", 3, "--games", 2, "--variant", "no_such=1")
    assert result.exit_code == 2 and result.output.count("zombie-run:") == 2     # header + error
    assert "unknown option 'no_such'; known: first, first_draw, hand" in result.output


def test_simulate_of_a_game_without_an_engine_says_only_that(tiny_pack):
    """The engine is looked up before the progress line: the one line printed is the error."""
    result = run("simulate", str(tiny_pack), "--games", 3)
    assert result.exit_code == 2
    [line] = result.output.strip().splitlines()     # (other tests may register more engines)
    assert line.startswith(f"{tiny_pack}: pack.yaml names no `engine`, so the game cannot be played "
                           "(known engines: cimiterio, "), result.output
