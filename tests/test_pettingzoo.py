"""pnp.adapters.pettingzoo: PettingZoo AEC environments over the shipped engines (docs/agents.md).

PettingZoo's own api_test and seed_test per game, complete games with masked random actions
(rewards as the Outcome says), masks equal to the legal moves, no leak of hidden hands, and
the optional extra kept out of the base install."""
import subprocess
import sys
import textwrap
from collections import Counter

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402  (after the skip: numpy comes with the agents extra)
from pettingzoo.test import api_test, seed_test  # noqa: E402

from pnp.adapters.pettingzoo import env, raw_env  # noqa: E402

# Dict observations ({"observation", "action_mask"}, as PettingZoo's classic games have) make
# api_test warn "Observation is not a NumPy array" at every step unless the env is one of its own
pytestmark = pytest.mark.filterwarnings("ignore:Observation is not a NumPy array",
                                        "ignore:Observation space for each agent probably should be")

CONFIGS = [("cimiterio", 1), ("cimiterio", 4), ("zombie-run", 3), ("zombie-run", 7),
           ("zombies-vs-vampires", 2), ("zombies-vs-vampires", 4)]


def play_random(e, seed: int, check=None) -> dict[str, float]:
    """One complete game with uniformly random legal actions; each agent's rewards summed as
    last() hands them out. ``check(raw, obs)`` is called before every live action."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    got: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        got[agent] = got.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)
            continue
        if check is not None:
            check(e.unwrapped, obs)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return got


# ------------------------------------------------------------------ PettingZoo's own tests
@pytest.mark.parametrize("game,players", CONFIGS)
def test_pettingzoo_api_test(game, players):
    api_test(env(game, players=players), num_cycles=150)


@pytest.mark.parametrize("game,players", CONFIGS[::2])
def test_pettingzoo_seed_test(game, players):
    seed_test(lambda: env(game, players=players), num_cycles=100)


def test_a_seeded_reset_deals_the_same_game_and_another_seed_another():
    a, b = raw_env("zombie-run", players=4), raw_env("zombie-run", players=4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game_state.to_dict() == b.game_state.to_dict()
    assert a.game_state.to_dict() == type(a.game_state).new(players=4, seed=11).to_dict()
    b.reset(seed=12)
    assert a.game_state.to_dict()["state"] != b.game_state.to_dict()["state"]
    c = raw_env("zombie-run", players=4, seed=11)   # the constructor's seed is the first reset's
    c.reset()
    assert c.game_state.to_dict() == a.game_state.to_dict()


# ------------------------------------------------------------------ complete games
def expected_rewards(raw) -> dict[str, float]:
    """+1 winners, -1 everyone else; 0 for all when a never-ending guard stopped the game."""
    out = raw.game_state.outcome()
    if out.rule in raw.game_class.unfinished_rules:
        return {f"player_{s}": 0.0 for s in range(raw.n_players)}
    return {f"player_{s}": 1.0 if s in out.winners else -1.0 for s in range(raw.n_players)}


@pytest.mark.parametrize("game,players,seeds", [
    ("cimiterio", 1, range(3)), ("cimiterio", 3, range(3)),
    ("zombie-run", 3, range(6)), ("zombie-run", 6, range(3)),
    ("zombies-vs-vampires", 2, range(1)),
])
def test_random_games_end_with_the_rewards_the_outcome_gives(game, players, seeds):
    e = env(game, players=players)
    for seed in seeds:
        got = play_random(e, seed)
        raw = e.unwrapped
        out = raw.game_state.outcome()
        assert out is not None and e.agents == []          # every agent was told and removed
        assert got == expected_rewards(raw), (seed, out)
        if game == "cimiterio" and out.rule == "C14":     # the gate broke: the table loses together
            assert set(got.values()) == {-1.0}


def test_a_game_stopped_by_the_turn_cap_is_a_truncation_with_no_reward():
    e = env("zombies-vs-vampires", players=2, options={"max_turns": 12})
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    ends = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            ends.append((agent, reward, terminated, truncated, info["outcome"]["rule"]))
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(ends) == [("player_0", 0.0, False, True, "cap"), ("player_1", 0.0, False, True, "cap")]


# ------------------------------------------------------------------ masks
def mask_is_exactly_the_legal_moves(raw, obs):
    state = raw.game_state
    legal = state.legal_moves()
    actions = np.flatnonzero(obs["action_mask"])
    assert len(actions) == len(legal)
    enc = raw.encoding
    moves = [enc.move_for(state, enc.keys[a]) for a in actions]
    assert Counter(moves) == Counter(legal)
    others = [a for a in raw.agents if a != raw.agent_selection]
    assert all(not raw.observe(a)["action_mask"].any() for a in others)   # only the mover may act


@pytest.mark.parametrize("game,players,variants", [
    ("cimiterio", 2, ()), ("cimiterio", 2, ("personal",)), ("cimiterio", 4, ("quick",)),
    ("zombie-run", 3, ()), ("zombie-run", 5, ()),
])
def test_masks_match_the_legal_moves_exactly(game, players, variants):
    e = env(game, players=players, variants=variants)
    for seed in range(3):
        play_random(e, seed, check=mask_is_exactly_the_legal_moves)


def test_zvv_masks_match_the_legal_moves_exactly():
    """Zombies vs Vampires' games are long: the first 400 actions of two configurations."""
    for variants in ((), ("twostar-choice", "v15-reroll")):
        e = env("zombies-vs-vampires", players=3, variants=variants)
        e.reset(seed=5)
        rng = np.random.default_rng(5)
        for _agent in e.agent_iter(400):
            obs, *_ = e.last()
            mask_is_exactly_the_legal_moves(e.unwrapped, obs)
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_an_action_the_mask_forbids_is_refused_and_changes_nothing():
    e = env("cimiterio", players=2)
    e.reset(seed=1)
    raw = e.unwrapped
    mask = raw.observe(raw.agent_selection)["action_mask"]
    forbidden = int(np.flatnonzero(mask == 0)[0])
    before = raw.game_state.to_dict()
    with pytest.raises(ValueError, match=rf"^action {forbidden} is not legal for player_0 now"):
        e.step(forbidden)
    assert raw.game_state.to_dict() == before
    for legal in np.flatnonzero(mask):             # and back: move text -> move -> the same action
        assert raw.action_of(raw.game_state.parse_move(raw.action_text(int(legal)))) == legal


def test_action_numbers_mean_the_same_move_in_every_position():
    """Cimiterio's guardian moves are numbered by destination stops: the action that sends G1
    to a stop is one number wherever G1 starts."""
    e = raw_env("cimiterio", players=2)
    e.reset(seed=2)
    seen: dict[int, str] = {}
    rng = np.random.default_rng(2)
    while e.game_state.outcome() is None:
        for a in np.flatnonzero(e.legal_mask()):
            words = e.action_text(int(a)).split()
            if words[0] == "move":     # "move G1 14,5>14,1": only the destinations name the action
                dest = " ".join(w.split(">")[-1] if ">" in w else w for w in words)
                assert seen.setdefault(int(a), dest) == dest
        e.step(int(rng.choice(np.flatnonzero(e.legal_mask()))))
    assert len(seen) > 60


# ------------------------------------------------------------------ hidden information
def test_zombie_run_observation_never_shows_another_seats_hand():
    e = raw_env("zombie-run", players=4)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    checked = 0
    while e.game_state.outcome() is None and checked < 25:
        state = e.game_state
        mine = e.observe("player_0")["observation"]
        theirs = e.observe("player_2")["observation"]
        hand, deck = state.hands[2], state.deck
        swap = next(((i, j) for i, t in enumerate(hand) for j, u in enumerate(deck) if t != u), None)
        if swap is not None:
            i, j = swap                # a card of seat 2's hand traded with a different one of the deck
            hand[i], deck[j] = deck[j], hand[i]
            rng.shuffle(deck)          # and the deck's order changed
            assert np.array_equal(e.observe("player_0")["observation"], mine)
            assert not np.array_equal(e.observe("player_2")["observation"], theirs)   # seat 2 sees it
            checked += 1
        e.step(int(rng.choice(np.flatnonzero(e.legal_mask()))))
    assert checked >= 10


def test_cimiterio_observation_hides_the_deck_order_and_covered_cards():
    e = raw_env("cimiterio", players=2)
    e.reset(seed=4)
    state = e.game_state
    before = e.observe("player_1")["observation"]
    state.zdeck = tuple(reversed(state.zdeck))
    state.edeck = tuple(reversed(state.edeck))
    cell, stack = next((c, s) for c, s in state.stacks.items() if len(s) >= 2)
    z = state.zdeck[0]                 # a covered card swapped for one from the deck
    state.zdeck = (stack[0],) + state.zdeck[1:]
    state.stacks[cell] = (z,) + stack[1:]
    assert np.array_equal(e.observe("player_1")["observation"], before)


# ------------------------------------------------------------------ the optional extra
def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


def test_pnp_cli_and_pnp_adapters_never_import_pettingzoo_or_gymnasium():
    r = run_python("""
        import sys
        import pnp.cli
        import pnp.adapters
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("pettingzoo", "gymnasium")))
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


@pytest.mark.parametrize("missing", ["pettingzoo", "gymnasium"])
def test_without_the_agents_extra_the_import_error_says_how_to_install_it(missing):
    r = run_python(f"""
        import sys
        sys.modules[{missing!r}] = None          # as if the agents extra were not installed
        try:
            import pnp.adapters.pettingzoo
        except ImportError as error:
            print(error)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "pnp.adapters.pettingzoo needs PettingZoo and Gymnasium: pip install 'pnp[agents]'"
