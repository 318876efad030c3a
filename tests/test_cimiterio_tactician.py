"""Cimiterio on the default map (issue 15): the tactician bot plans from the observation only,
and the default map's games can be won and lost with every rule point of C1-C22 firing."""
from __future__ import annotations

import json

from pnp.engines import get_game
from pnp.engines.core import Rng
from pnp.engines.simulate import play_one

G = get_game("cimiterio")


def _tactician(st, seed):
    return G.observation_bots["tactician"](st.observation(st.to_move), Rng(seed))


def test_tactician_plans_a_move_then_a_noise_and_takes_the_capture():
    """Zombie 17 (tomb 8,2) leads a group at 7,3 whose next leader (34, tomb 12,12) is far away: the plan
    is Move G1 to 7,0 (the west end of row 7), then noise: 7,3 -> 7,2, next to 8,2 (C9). A
    capture is never declined to keep a handier leader on top."""
    st = G.from_position({"stacks": {"7,3": [34, 17]}, "guardians": ["9,0", "14,7"]})
    for _ in range(3):
        st.push(st.parse_move(_tactician(st, 0)))
        if st.scores[0]:
            break
    assert st.captured[0] == (17,)
    assert st.B.cell_text(st.B.ring[st.guards[0]]) == "7,0"


def test_default_map_games_are_won_and_lost_and_fire_every_rule_point():
    """Fixed seeds on the default map (north-rows, C13 `arrive`, the bell tower captures): the
    tactician empties the cemetery in one game, with the scores tied, and wins the tie-break
    (C22, C23), and loses the gate in another (C14); random play passes (C5); together they fire
    every rule point of C1-C23 (C24-C26 are variants). The tactician captures more than greedy
    on the same seeds."""
    fired: set[str] = set()
    outcomes = {}
    captured = {}
    for bot, seed in (("tactician", 106), ("tactician", 105), ("random", 1), ("greedy", 106),
                      ("greedy", 105)):
        r = play_one("cimiterio", 2, seed, bot, max_turns=300, check_every=25)
        assert r["error"] is None and not r["problems"], r
        fired.update(r["rules"])
        outcomes[bot, seed] = r["outcome"]["rule"] if r["outcome"] else "cap"
        captured[bot, seed] = sum(r["stats"]["captures_seat"])
    assert outcomes["tactician", 106] == "C23" and captured["tactician", 106] == 35
    assert outcomes["tactician", 105] == "C14"
    assert [f"C{i}" for i in range(1, 24) if f"C{i}" not in fired] == []
    assert captured["tactician", 106] > captured["greedy", 106]
    assert captured["tactician", 105] > captured["greedy", 105]


def test_tactician_sees_a_json_observation():
    """The bot gets only what observation(seat) holds, which is plain JSON."""
    st = G(players=2, seed=5)
    obs = json.loads(json.dumps(st.observation(st.to_move)))
    assert G.observation_bots["tactician"](obs, Rng(1)) in obs["legal"]
