"""A designer's engine, installed as a `pnp.engines` plugin, brings its own agents' Encoding
(`GameState.agent_encoding`): `env()` plays it as it plays the shipped games, with no change to
pnp; an engine without one, or whose declaration does not load, is one message naming the
engine and saying what to write (docs/agents.md, Other engines)."""
from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402  (after the skip: numpy comes with the agents extra)
from pettingzoo.test import api_test, seed_test  # noqa: E402

from pnp.adapters.encodings import Encoding, Features  # noqa: E402
from pnp.adapters.pettingzoo import env, raw_env  # noqa: E402
from pnp.engines import core  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Observation is not a NumPy array",
                                        "ignore:Observation space for each agent probably should be")

GOAL = 8   # the square whose lantern wins


class LanternRace(core.GameState):
    """Each seat in turn carries its lantern forward: `walk` one square, or `run` 1-3 squares
    (a die), which is too dark within three squares of the goal. The first at the goal wins (L1)."""

    min_players, max_players = 2, 4
    rule_points = ("L1",)
    agent_encoding = f"{__name__}:LanternEncoding"    # what a designer writes: "package.module:Class"

    def _setup(self):
        self.pos = [0] * self.players
        self._outcome = None

    def legal_moves(self):
        if self._outcome:
            return []
        return ["walk"] if self.pos[self.turn] >= GOAL - 3 else ["walk", "run"]

    def _apply(self, move):
        seat = self.turn
        steps = 1 if move == "walk" else 1 + self.rng.randbelow(3)
        self.pos[seat] = min(GOAL, self.pos[seat] + steps)
        if self.pos[seat] == GOAL:
            self.fire("L1")
            self._outcome = core.Outcome((seat,), tuple(self.pos), "the lantern reached the goal", "L1")
        else:
            self.turn = (seat + 1) % self.players

    def _snapshot(self):
        return tuple(self.pos), self._outcome

    def _restore(self, snap):
        self.pos, self._outcome = list(snap[0]), snap[1]

    def outcome(self):
        return self._outcome

    def _state_dict(self):
        return {"pos": list(self.pos)}

    def _load_state(self, d):
        self.pos, self._outcome = list(d["pos"]), None

    def parse_move(self, text):
        return text

    def move_text(self, move):
        return move


class LanternEncoding(Encoding):
    """Actions: walk, run. Observation: every lantern's square, the seat to move, the observer."""

    def _action_keys(self, probe):
        return ("walk", "run")

    def _features(self, state, seat):
        f = Features()
        f.add("lantern's square per seat", state.pos, GOAL)
        f.one_hot("seat to move", state.turn, self.players)
        f.one_hot("observing seat", seat, self.players)
        return f


@pytest.fixture
def installed(monkeypatch):
    """LanternRace as a designer installs it: only a `pnp.engines` entry point, found the way
    every engine is (a registry of this test's own, so nothing stays registered afterwards)."""
    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    real = core._entry_points
    point = EntryPoint("lantern-race", f"{__name__}:LanternRace", core.ENTRY_POINT_GROUP)
    monkeypatch.setattr(core, "_entry_points", lambda: {**real(), "lantern-race": point})
    return LanternRace


def test_a_plugin_engine_plays_as_an_environment_with_its_own_encoding(installed):
    e = env("lantern-race", players=3)
    raw = e.unwrapped
    assert isinstance(raw.encoding, LanternEncoding) and raw.encoding.n_actions == 2
    assert raw.encoding.layout == (("lantern's square per seat", 3), ("seat to move", 3), ("observing seat", 3))
    for seed in range(5):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        rewards = dict.fromkeys(raw.possible_agents, 0.0)
        steps = 0
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            rewards[agent] += reward
            assert e.observation_space(agent).contains(obs)
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert [raw.action_text(int(a)) for a in legal] == raw.game_state.legal_moves()
            e.step(int(rng.choice(legal)))
            steps += 1
        winner = raw.game_state.outcome().winners[0]
        assert steps >= GOAL // 3 and raw.game_state.pos[winner] == GOAL
        assert rewards == {a: 1.0 if a == f"player_{winner}" else -1.0 for a in raw.possible_agents}


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed_tests_pass_for_a_plugin_engine(installed, players):
    api_test(env("lantern-race", players=players), num_cycles=100)
    seed_test(lambda: env("lantern-race", players=players), num_cycles=100)


class Unencoded(LanternRace):
    agent_encoding = None


@pytest.mark.parametrize("declared, message", [
    (None, "no agent encoding for the engine 'lantern-race': its GameState class needs "
           "agent_encoding = 'package.module:EncodingClass', a subclass of pnp.adapters.encodings.Encoding "
           "(docs/agents.md, Other engines)"),
    ("lantern_agents_not_installed:LanternEncoding",
     "the engine 'lantern-race' declares agent_encoding = 'lantern_agents_not_installed:LanternEncoding', "
     "which does not load: ModuleNotFoundError: No module named 'lantern_agents_not_installed'"),
    (f"{__name__}:NoSuchEncoding", f"the engine 'lantern-race' declares agent_encoding = "
                                   f"'{__name__}:NoSuchEncoding', which does not load: AttributeError"),
    (f"{__name__}:LanternRace", f"the engine 'lantern-race' declares agent_encoding = '{__name__}:LanternRace', "
                                f"which is not a subclass of pnp.adapters.encodings.Encoding but <class"),
])
def test_an_engine_without_a_usable_encoding_is_one_message(monkeypatch, declared, message):
    monkeypatch.setattr(Unencoded, "agent_encoding", declared)
    monkeypatch.setitem(core._REGISTRY, "lantern-race", Unencoded)
    monkeypatch.setattr(Unencoded, "name", "lantern-race")
    with pytest.raises(ValueError) as caught:
        raw_env("lantern-race")
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)
    chained = caught.value.__cause__ or (None if caught.value.__suppress_context__ else caught.value.__context__)
    assert chained is None   # no "during handling of the above exception" traceback


def test_the_encoding_class_itself_may_be_declared(monkeypatch):
    """An engine module that imports pnp.adapters anyway (one file, a notebook) names the class."""
    monkeypatch.setattr(Unencoded, "agent_encoding", LanternEncoding)
    monkeypatch.setitem(core._REGISTRY, "lantern-race", Unencoded)
    monkeypatch.setattr(Unencoded, "name", "lantern-race")
    assert isinstance(raw_env("lantern-race").encoding, LanternEncoding)


def test_the_shipped_games_declare_their_encodings_the_same_way_without_loading_numpy():
    """The shipped engines are found as a plugin is: each names its Encoding in `agent_encoding`
    (there is no list of encoded games in pnp.adapters), and playing them never imports NumPy."""
    import subprocess
    import sys
    import textwrap

    from pnp.adapters.encodings import encoding_class
    from pnp.engines.cimiterio import Cimiterio
    from pnp.engines.zombie_run import ZombieRun
    from pnp.engines.zombies_vs_vampires import ZombiesVsVampires
    for game in (Cimiterio, ZombieRun, ZombiesVsVampires):
        assert game.agent_encoding == f"pnp.adapters.encodings:{type(env(game.name).unwrapped.encoding).__name__}"
        assert encoding_class(game).__module__ == "pnp.adapters.encodings"
    code = textwrap.dedent("""
        import sys
        from pnp.engines.core import Rng, get_game
        for name in ("cimiterio", "zombie-run", "zombies-vs-vampires"):
            game = get_game(name)
            game.new(players=game.players_by_default()).random_playout(Rng(1))
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "pettingzoo", "gymnasium")))
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
