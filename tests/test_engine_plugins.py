"""A fourth game's engine as a designer installs it: a `pnp.engines` entry point that does not
load, a pack naming an engine that is not installed, a pack.yaml that does not parse. Each is
one message, exit 2, never a traceback; `pnp check` says it at pack.yaml's `engine` line."""
from __future__ import annotations

import json
import shutil
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.engines import core

TINY = Path(__file__).resolve().parent / "packs" / "tiny"
SHIPPED = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture
def entry_points(monkeypatch):
    """Entry points of the pnp.engines group as this test declares them, beside the real ones."""
    declared: dict[str, EntryPoint] = {}
    real = core._entry_points
    monkeypatch.setattr(core, "_entry_points", lambda: {**real(), **declared})
    return declared


@pytest.mark.parametrize("value, words", [
    ("lantern_engine_not_installed.game:LanternRace", "does not load: ModuleNotFoundError: No module named "
                                                      "'lantern_engine_not_installed'"),
    ("pnp.errors:NoSuchClass", "does not load: AttributeError"),
    ("pnp.errors:Problem", "which is not a GameState subclass but <class 'pnp.errors.Problem'>"),
])
def test_an_entry_point_that_does_not_load_is_one_message(entry_points, tmp_path, value, words):
    entry_points["lantern-race"] = EntryPoint("lantern-race", value, core.ENTRY_POINT_GROUP)
    record = tmp_path / "game.yaml"
    record.write_text("game: lantern-race\nplayers: 2\nseed: 1\nmoves: []\n", encoding="utf-8")
    for command in (["simulate", "lantern-race", "--games", "2"], ["replay", "lantern-race", str(record)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2, result.output
        assert f"the engine 'lantern-race' is registered as {value!r} (pnp.engines entry point)" in result.output
        assert words in result.output and "Traceback" not in result.output, result.output


def _pack_naming(tmp_path: Path, engine: str) -> Path:
    pack = shutil.copytree(TINY, tmp_path / "tiny")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(text.replace("id: tiny\n", f"id: tiny\nengine: {engine}\n", 1), encoding="utf-8")
    return pack


def test_a_pack_whose_engine_is_not_installed_is_warned_by_check_and_refused_by_check_engine(tmp_path):
    pack = _pack_naming(tmp_path, "lantern-race")
    line = next(i for i, x in enumerate((pack / "pack.yaml").read_text(encoding="utf-8").splitlines(), 1)
                if x.startswith("engine:"))
    checked = CliRunner().invoke(main, ["check", str(pack), "--no-print"])
    assert checked.exit_code == 0, checked.output
    assert f"pack.yaml:{line}: warning [engine.missing] engine: the game's engine cannot be played: no installed " \
           "engine is called 'lantern-race' (installed: cimiterio," in checked.output, checked.output
    with_engine = CliRunner().invoke(main, ["check", str(pack), "--no-print", "--engine"])
    assert with_engine.exit_code == 1, with_engine.output               # an error finding, as rules.unreachable
    assert f"pack.yaml:{line}: error [engine.missing] engine: the game's engine cannot be played: unknown game " \
           "'lantern-race'" in with_engine.output
    assert "Traceback" not in with_engine.output


def test_a_pack_yaml_that_does_not_parse_is_said_not_called_engine_less(tmp_path):
    pack = _pack_naming(tmp_path, "zombie-run")
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text(encoding="utf-8") + "players: [\n",
                                    encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", str(pack), "--games", "2"])
    assert result.exit_code == 2, result.output
    assert "pack.yaml:" in result.output and "names no" not in result.output, result.output
    assert "Traceback" not in result.output


def test_a_copy_of_a_game_plays_its_own_data_in_simulate_and_playtest(tmp_path, monkeypatch):
    """`pnp simulate FOLDER` plays FOLDER's data (it played the engine's shipped data): a copy of
    Cimiterio whose gate holds nothing breaks sooner than the shipped one; playtest writes its
    report under the engine's name (a folder path made it `playtest-/abs/path.pdf`)."""
    monkeypatch.chdir(tmp_path)
    copy = shutil.copytree(SHIPPED / "cimiterio", tmp_path / "weak-gate")
    gate = copy / "cards" / "gate.yaml"
    gate.write_text(gate.read_text(encoding="utf-8").replace("intact_holds: 5, damaged_holds: 3",
                                                              "intact_holds: 1, damaged_holds: 1"), encoding="utf-8")
    assert core.game_argument(str(copy)) == ("cimiterio", [f"pack={copy.resolve()}"])
    assert core.game_argument("cimiterio") == ("cimiterio", [])

    def turns(game: str) -> float:
        result = CliRunner().invoke(main, ["simulate", game, "--games", "30", "--players", "2", "--json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.output[result.output.index("{"):])["turns"]["mean"]

    assert turns(str(copy)) < turns("cimiterio")
    played = CliRunner().invoke(main, ["playtest", "./weak-gate", "--games", "4", "--players", "2"])
    assert played.exit_code == 0, played.output
    assert (tmp_path / "output" / "playtest" / "cimiterio" / "playtest-cimiterio.pdf").is_file()


class CoinToss(core.GameState):
    """One toss: heads, seat 0 wins (K1); tails, the game is drawn (K2, a declared draw)."""

    min_players = max_players = 2
    rule_points = ("K1", "K2")
    draw_rules = ("K2",)
    stat_labels = {"heads": "tosses that came up heads"}

    def _setup(self):
        self._outcome = None

    def legal_moves(self):
        return [] if self._outcome else ["toss"]

    def _apply(self, move):
        if self.rng.randbelow(2):
            self.count("heads")
            self.fire("K1")
            self._outcome = core.Outcome((0,), (1, 0), "heads", "K1")
        else:
            self.fire("K2")
            self._outcome = core.Outcome((), (0, 0), "tails: a draw", "K2")

    def _snapshot(self):
        return self._outcome

    def _restore(self, snap):
        self._outcome = snap

    def outcome(self):
        return self._outcome

    def _state_dict(self):
        return {}

    def _load_state(self, d):
        self._outcome = None

    def parse_move(self, text):
        return text

    def move_text(self, move):
        return move


def test_a_declared_draw_is_a_draw_and_a_counter_that_never_counted_is_zero(monkeypatch):
    """A competitive game's no-winner outcome declared in `draw_rules` is a draw, not the game
    beating the players; a `stat_labels` counter is averaged over every game (a game where it
    never counted was 'undefined', so the mean was over the heads games only: 1.0)."""
    from pnp.engines.conclusions import COMPETITIVE, game_kind
    from pnp.engines.simulate import simulate
    monkeypatch.setitem(core._REGISTRY, "coin-toss", CoinToss)
    CoinToss.name = "coin-toss"
    s = simulate("coin-toss", games=200, players=2, seed=1).summary()
    heads = s["stats"]["heads"]
    assert 60 < heads["total"] < 140 and heads["undefined"] == 0 and heads["games"] == 200
    assert heads["mean"] == heads["total"] / 200
    m = s["metrics"]
    assert m["draws"] == 200 - heads["total"] and m["game_won"] == 0
    assert m["drawishness"] == m["draws"] / 200 and s["no_winner_rules"] == []
    assert game_kind(CoinToss, [s])[0] == COMPETITIVE
    assert "game_wins" not in s


class HiddenToss(CoinToss):
    """The toss with hidden information (an observation) and no bots of its own."""

    def observation(self, seat: int) -> dict:
        return {"legal": [self.move_text(m) for m in self.legal_moves()]}


def test_a_game_with_hidden_information_and_no_bots_of_its_own_plays_random_from_its_observation(monkeypatch):
    """`random` plays from the observation's legal list (it was refused as a bot that would see
    hidden information, with no bot left to play such a game)."""
    from pnp.engines.fairness import fair_bot
    from pnp.engines.simulate import bot_names, hidden_information, simulate
    monkeypatch.setitem(core._REGISTRY, "hidden-toss", HiddenToss)
    HiddenToss.name = "hidden-toss"
    assert hidden_information(HiddenToss) and bot_names(HiddenToss) == ("random",)
    s = simulate("hidden-toss", games=20, players=2, seed=1).summary()
    assert s["completed"] == 20 and s["crashed"] == 0
    assert fair_bot("hidden-toss") == "random"
    refused = CliRunner().invoke(main, ["simulate", "hidden-toss", "--games", "2", "--bot", "greedy"])
    assert refused.exit_code == 2 and "would see hidden information" in refused.output


def test_an_installed_engine_s_rules_document_is_in_pnp_docs(tmp_path, monkeypatch):
    """A plugin's rules: `rules_doc` beside its module (here an absolute path) is `pnp docs
    rules/<engine>` (there was no way to show a designer's rules, though findings sent there)."""
    rules = tmp_path / "rules.md"
    rules.write_text("# Coin toss: rules as the engine plays them\n\nK1: heads wins. K2: tails draws.\n",
                     encoding="utf-8")
    monkeypatch.setattr(CoinToss, "rules_doc", str(rules), raising=False)
    monkeypatch.setitem(core._REGISTRY, "coin-toss", CoinToss)
    CoinToss.name = "coin-toss"
    listed = CliRunner().invoke(main, ["docs"])
    assert "rules/coin-toss" in listed.output and "Coin toss: rules as the engine plays them" in listed.output
    shown = CliRunner().invoke(main, ["docs", "rules/coin-toss"])
    assert shown.exit_code == 0 and shown.output == rules.read_text(encoding="utf-8")
