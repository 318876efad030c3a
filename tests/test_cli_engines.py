"""`pnp replay` and `pnp simulate` as a user runs them."""
import json
import tracemalloc
from concurrent.futures import Executor, Future
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.limits import MAX_GAMES, MAX_WORKERS

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


# ---- how many games one command may play (pnp.limits.MAX_GAMES) ------------------------------

@pytest.fixture
def nothing_played(monkeypatch):
    """Playing a game or starting a process pool fails the test at once (a refused run must
    not start, and one that wrongly starts must not play for hours)."""
    import pnp.engines.simulate as simulate_module

    def refuse(*args, **kwargs):
        raise AssertionError("a game was played or a process pool started")

    monkeypatch.setattr(simulate_module, "_play_chunk", refuse)
    monkeypatch.setattr(simulate_module, "ProcessPoolExecutor", refuse)


def test_simulate_refuses_more_games_than_the_limit_before_playing_any(nothing_played):
    result = run("simulate", "zombie-run", "--games", MAX_GAMES + 1, "--workers", MAX_WORKERS + 1)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [      # one line per bound, no progress line
        f"zombie-run: --games {MAX_GAMES + 1} is more than MAX_GAMES, the {MAX_GAMES} games one "
        "command may play (`pnp docs limits`)",
        f"zombie-run: --workers {MAX_WORKERS + 1} is more than MAX_WORKERS, the {MAX_WORKERS} "
        "processes one command may start (`pnp docs limits`)"], result.output


def test_playtest_counts_the_games_of_every_run_against_the_limit(tmp_path, nothing_played):
    per_run = MAX_GAMES // 4 + 1                  # within the limit, but not 4 times over
    result = run("playtest", "zombie-run", "--games", per_run, "--players", 3, "--players", 4,
                 "--variant", "default", "--variant", "first_draw=true", "--out", tmp_path / "pt")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"zombie-run: --games {per_run} in each of 4 runs (player counts x variants) is "
        f"{4 * per_run} games, more than MAX_GAMES, the {MAX_GAMES} games one command may "
        "play (`pnp docs limits`)"], result.output
    assert not (tmp_path / "pt").exists()


class Stop(Exception):
    """Raised by a progress callback: the run ends after its first chunk."""


def stop_at_once(done, total):
    raise Stop(done)


def test_simulate_derives_seeds_as_it_plays_not_all_up_front():
    """A run of MAX_GAMES games stopped after its first chunk has held only that chunk: its
    memory peak is far below the ~50 MB a list of every seed (and of every chunk) takes."""
    from pnp.engines.simulate import simulate
    simulate("zombie-run", games=2, players=3)        # the game's data loaded before measuring
    tracemalloc.start()
    try:
        with pytest.raises(Stop) as stopped:
            simulate("zombie-run", games=MAX_GAMES, players=3, progress=stop_at_once)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert stopped.value.args == (50,)                # one chunk of 50 games was played
    assert peak < 10_000_000, peak


class EagerlyRunningExecutor(Executor):
    """Plays each job as it is submitted and counts them; refuses to run far ahead."""

    def __init__(self):
        self.sent = 0

    def submit(self, fn, /, *args, **kwargs):
        self.sent += 1
        if self.sent > 100:
            raise AssertionError("the simulator sent jobs far ahead of their results")
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_simulate_keeps_a_bounded_number_of_chunks_in_flight_on_an_executor():
    from pnp.engines.simulate import IN_FLIGHT_PER_WORKER, simulate
    executor = EagerlyRunningExecutor()
    with pytest.raises(Stop):
        simulate("zombie-run", games=MAX_GAMES, players=3, workers=2, chunk=2,
                 executor=executor, progress=stop_at_once)
    assert executor.sent == IN_FLIGHT_PER_WORKER * 2


def test_simulate_on_an_executor_gives_the_report_in_game_order():
    from pnp.engines.simulate import simulate
    alone = simulate("zombie-run", games=9, players=3, seed=4)
    sent = simulate("zombie-run", games=9, players=3, seed=4, workers=2, chunk=2,
                    executor=EagerlyRunningExecutor())
    assert sent.to_json() == alone.to_json()
    assert [r["seed"] for r in sent.results] == [r["seed"] for r in alone.results]


# ---- a bot name the game does not take ---------------------------------------------------------

BOTS_OF = {"cimiterio": ["random", "greedy", "planner", "tactician", "ismcts"],
           "zombie-run": ["random", "greedy", "ismcts"],
           "zombies-vs-vampires": ["random", "greedy", "planner", "racer", "mcts"]}


@pytest.mark.parametrize("game", sorted(BOTS_OF))
def test_an_unknown_bot_is_named_unknown_with_every_bot_the_game_takes(game):
    result = run("simulate", game, "--games", 2, "--bot", "nosuch")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [      # no progress line, no traceback
        f"{game}: unknown bot 'nosuch'; known for {game}: {', '.join(BOTS_OF[game])} "
        "(or module:function, your own bot: `pnp docs bots`)"], result.output


# why each other name is refused: a bot that exists but would see hidden cards (or a search
# that needs hidden cards) is refused as such; another game's bot is simply unknown here
REFUSED = {"cimiterio": {"racer": "unknown bot", "mcts": "would see hidden information"},
           "zombie-run": {"planner": "would see hidden information", "tactician": "unknown bot",
                          "racer": "unknown bot", "mcts": "would see hidden information"},
           "zombies-vs-vampires": {"tactician": "unknown bot", "ismcts": "hides nothing"}}


@pytest.mark.parametrize("game", sorted(BOTS_OF))
def test_the_listed_bots_are_exactly_the_ones_the_game_takes(game):
    from pnp.engines.core import get_game
    from pnp.engines.simulate import bot_names, get_game_bot
    cls = get_game(game)
    assert list(bot_names(cls)) == BOTS_OF[game]
    for name in sorted({name for names in BOTS_OF.values() for name in names}):
        if name in BOTS_OF[game]:
            get_game_bot(cls, name)
        else:
            with pytest.raises(ValueError, match=REFUSED[game][name]):
                get_game_bot(cls, name)


def test_another_games_bot_is_unknown_not_a_cheat():
    result = run("playtest", "zombie-run", "--games", 2, "--bot", "racer")
    assert result.exit_code == 2
    assert "zombie-run: unknown bot 'racer'; known for zombie-run: random, greedy, ismcts" \
        in result.output and "hidden information" not in result.output


# ---- a run where no game ends (every game stopped by the turn cap) -----------------------------

def test_simulate_text_says_no_game_ended_instead_of_none_and_json_keeps_null():
    result = run("simulate", "zombie-run", "--games", 3, "--max-turns", 1)
    assert result.exit_code == 0, result.output
    assert "None" not in result.output
    lines = result.output.splitlines()
    assert "  completed        0/3 (0.0%)" in lines
    assert "  turns, scores, win shares: none, no game ended (they count finished games only)" \
        in lines
    assert not any(line.startswith(("  turns ", "  score spread", "    seat ")) for line in lines)
    output = run("simulate", "zombie-run", "--games", 3, "--max-turns", 1, "--json").output
    data = json.loads(output[output.index("{"):])
    assert data["turns"] == {"median": None, "mean": None, "p95": None, "max": None}
    assert data["score_spread"]["max"] is None
