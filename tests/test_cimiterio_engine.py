"""Cimiterio engine: data-driven scenarios (tests/scenarios/cimiterio/*.yaml) plus properties."""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from pnp.engines import get_game
from pnp.engines.core import IllegalMoveError, RecordError
from pnp.engines.replay import check_expectations, load_record, replay, replay_file
from pnp.errors import DataError

SCEN = Path(__file__).parent / "scenarios" / "cimiterio"
PACK = Path(__file__).parent.parent / "data" / "cimiterio"
FILES = sorted(SCEN.glob("*.yaml"))
G = get_game("cimiterio")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    rec = load_record(path)
    expect = rec.get("expect") or {}
    res = replay(rec, keep_going="illegal" in expect)
    bad = check_expectations(res)
    assert not bad, "\n".join(bad) + "\n" + res.to_text()
    assert not res.state.check_invariants()


def test_scenarios_cover_every_rule_point():
    fired = set()
    for path in FILES:
        res = replay(load_record(path), keep_going=True)
        fired.update(res.state.rules_fired)
    missing = [r for r in G.rule_points if r not in fired]
    assert not missing, f"rule points no scenario exercises: {missing}"


def _random_game(seed, players=2, variants=None, limit=4000):
    st = G(players=players, seed=seed, variants=variants)
    r = random.Random(seed)
    while st.outcome() is None and st.ply < limit:
        st.push(r.choice(st.legal_moves()))
    return st


def test_setup_c1_c2_c3():
    st = G(players=2, seed=7)
    assert len(st.stacks) == 5 and all(len(s) == 2 for s in st.stacks.values())
    assert sorted(st.stacks) == sorted(st.B.piles)
    assert len(st.zdeck) == 25 and len(st.edeck) == 19
    assert st.B.cell_text(st.B.ring[st.guards[0]]) == "14,5"
    assert not st.check_invariants()


def test_map_tables():
    B = G(players=1, seed=0, variants=["map=classic"]).B
    assert len(B.slots) == 35 and len(B.ring) == 27 and len(B.piles) == 5
    assert B.cell_text(B.centre) == "7,7"
    assert [B.cell_text(c) for c in B.gate_adj] == ["13,7"]
    # the guardian at the top of the main avenue sees the whole avenue
    top_main = B.ring_index[B.parse_cell("0,7")]
    assert len(B.line[top_main]) == 13
    # every gap can reach the gate
    assert all(c in B.gate_dist for c in range(B.W * B.H) if B.gap[c])


@pytest.mark.parametrize("seed", range(6))
def test_undo_restores_exact_state(seed):
    st = G(players=3, seed=seed)
    r = random.Random(seed)
    snaps = []
    while st.outcome() is None and st.ply < 300:
        snaps.append(json.dumps(st.to_dict(), sort_keys=True))
        st.push(r.choice(st.legal_moves()))
    while st.ply:
        st.pop()
        assert json.dumps(st.to_dict(), sort_keys=True) == snaps.pop()


@pytest.mark.parametrize("seed", range(4))
def test_roundtrip_and_determinism(seed):
    st = _random_game(seed, limit=120)
    d = st.to_dict()
    json.dumps(d)
    twin = G.from_dict(json.loads(json.dumps(d)))
    assert twin.to_dict() == d
    r1, r2 = random.Random(99), random.Random(99)
    for _ in range(150):
        if st.outcome() is not None:
            break
        m1 = r1.choice(st.legal_moves())
        m2 = r2.choice(twin.legal_moves())
        assert m1 == m2
        st.push(m1)
        twin.push(m2)
    assert st.to_dict()["state"] == twin.to_dict()["state"]


def test_notation_roundtrip():
    st = G(players=2, seed=3)
    for m in st.legal_moves():
        assert st.parse_move(st.move_text(m)) == m


def test_illegal_error_message():
    st = G(players=2, seed=3)
    with pytest.raises(IllegalMoveError) as ei:
        st.push_text("move G1 14,5>11,0")
    e = ei.value
    assert e.rule == "C6" and "move G1 14,5>11,0" in str(e) and "C6" in str(e)
    assert "turn 1" in e.position and "noise G1" in e.legal


@pytest.mark.parametrize("variant", [[], ["quick"], ["quick-damaged"], ["restless"], ["personal"],
                                     ["manhattan"], ["across-first"], ["cemetery-empty"],
                                     ["auto-order"], ["arrive"], ["end=cemetery-empty", "cap=25"]])
def test_variants_play_soundly(variant):
    for seed in range(3):
        st = G(players=2, seed=seed, variants=variant)
        r = random.Random(seed)
        while st.outcome() is None and st.ply < 600:
            st.push(r.choice(st.legal_moves()))
            assert not st.check_invariants()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_player_counts(players):
    st = _random_game(11, players=players, limit=800)
    assert not st.check_invariants()
    assert len(st.scores) == players


def test_bad_records():
    with pytest.raises(RecordError):
        G(players=5)
    with pytest.raises(RecordError):
        G(players=2, variants=["nope"])
    with pytest.raises(RecordError):
        replay({"game": "cimiterio", "bogus": 1})
    with pytest.raises(RecordError):
        replay({"game": "cimiterio", "position": {"stacks": {"2,2": [0]}}})


def test_replay_text_and_json(tmp_path):
    p = tmp_path / "g.yaml"
    p.write_text("game: cimiterio\nplayers: 2\nseed: 5\nmoves: [noise G1, \"move G1 14,5>99,99\"]\n")
    res = replay_file("cimiterio", p)
    assert not res.ok and res.stopped_at == 2           # moves are numbered from 1
    assert "illegal" in res.to_text()
    d = json.loads(res.to_json())
    bad = d["problems"][0]
    assert bad["rule"] == "notation" and bad["text"] == "move G1 14,5>99,99" and bad["move"] == 2
    assert "off the map" in bad["reason"]


def test_every_generated_move_is_legal_and_parses():
    st = G(players=3, seed=21)
    r = random.Random(21)
    while st.outcome() is None and st.ply < 400:
        moves = st.legal_moves()
        for m in moves:
            assert st.is_legal(m)
            assert st.parse_move(st.move_text(m)) == m
        st.push(r.choice(moves))


def test_bots_play_cimiterio():
    from pnp.engines.simulate import play_one
    for bot in ("random", "greedy", "planner"):
        res = play_one("cimiterio", 2, 5, bot, max_turns=3)
        assert res["error"] is None and not res["problems"], res


def _candidates(st, r):
    """Moves to ask the legality check about: the legal ones, random guardian moves (also
    non-canonical ones the notation never writes) and every other kind of move."""
    R = len(st.B.ring)
    out = set(st.legal_moves())
    g1, g2 = st.guards
    froms = (g1, g2, -1, r.randrange(R))
    tos = tuple(range(R)) + (-1, R)
    for _ in range(150):
        out.add(("move", r.choice(froms), r.choice(tos), r.choice(froms), r.choice(tos)))
    out.update(("noise", m) for m in ("1", "2", "1+2", "1,2", "2,1", "2+1", "3", ""))
    out.update(("first", c) for c in list(st.stacks) + [0])
    out.update(("personal", n) for n in range(-1, 5))
    out.update([("pass",), ("pass", 1), ("move",), ("bogus",), ()])
    return out


def test_legality_check_is_the_move_generator():
    """One definition of a legal move: the check accepts exactly what legal_moves() lists, and
    names a rule point (or the notation) for everything else."""
    st = G(players=2, seed=4, variants=["personal"])
    r = random.Random(4)
    legal_rules = set(G.rule_points) | {"notation"}
    checked = 0
    while st.outcome() is None and st.ply < 250:
        legal = set(st.legal_moves())
        for m in _candidates(st, r):
            reason = st._illegal_reason(m)
            assert (reason is None) == (m in legal), (m, reason, st.describe())
            if reason is not None:
                assert reason[0] in legal_rules, (m, reason)
            checked += 1
        st.push(r.choice(st.legal_moves()))
    assert checked > 10000 and any(m[0] in ("first", "personal") for m in st.move_stack)


def _pack_copy(tmp_path):
    root = tmp_path / "cimiterio"
    shutil.copytree(PACK, root)
    return root


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_engine_plays_the_pack_it_is_given(tmp_path):
    """The map (collection "map") and the cards (the pack's decks) come from the pack loaded with
    pnp.pack.load_pack: change them and the engine plays the changed game."""
    root = _pack_copy(tmp_path)
    _edit(root / "cards" / "gate.yaml", "intact_holds: 5, damaged_holds: 3",
          "intact_holds: 9, damaged_holds: 1")
    _edit(root / "cards" / "actions.yaml", "max_stops: 3, pull: 2", "max_stops: 2, pull: 1")
    _edit(root / "map.yaml", "guardian_start: [[14, 5], [14, 7]]", "guardian_start: [[14, 3], [14, 11]]")
    st = G(players=2, seed=0, options={"pack": str(root)})
    B = st.B
    assert st.holds == (9, 1) and st.pull == 1
    assert [B.cell_text(B.ring[g]) for g in st.guards] == ["14,3", "14,11"]
    assert all(len(dests) == 4 for dests in B.reach)        # 1 or 2 stops either way (C6)
    shipped = G(players=2, seed=0)
    assert shipped.holds == (5, 3) and shipped.pull == 2
    assert all(len(dests) == 6 for dests in shipped.B.reach)


def test_a_pack_that_does_not_load_is_an_error(tmp_path):
    """No fallback: a pack that load_pack rejects stops the engine with pnp's DataError."""
    root = _pack_copy(tmp_path)
    _edit(root / "cards" / "gate.yaml", "intact_holds: 5", "intact_holds: five")
    with pytest.raises(DataError):
        G(players=2, seed=0, options={"pack": str(root)})


# ---------------------------------------------------------------- maps, hidden decks, reachability
def test_every_map_of_the_pack_plays():
    """map.yaml (the default) and every map of maps.yaml build their tables; the default's gate
    faces a mid-avenue cell, its north stops face the tomb columns too (C8, C13), and on the
    other sides the stops stand only at the avenues' ends."""
    from pnp.engines.cimiterio.pack_data import map_ids
    ids = map_ids()
    assert ids[0] == "north-rows" and {"avenues", "classic", "mid-gate", "tomb-rows", "mid-spots"} <= set(ids)
    for mp in ids:
        st = G(players=2, seed=3, variants=[f"map={mp}"])
        assert len(st.B.slots) == 35 and len(st.B.piles) == 5 and not st.check_invariants()
    B = G(players=2, seed=0).B
    assert [B.cell_text(c) for c in B.gate_adj] == ["13,6"] and len(B.ring) == 13 + 3 * 7
    col2 = B.ring_index[B.parse_cell("0,2")]
    assert [B.cell_text(c) for c in B.line[col2]] == ["1,2", "3,2", "5,2", "7,2", "9,2", "11,2", "13,2"]
    assert B.line_next[col2][B.parse_cell("3,2")] is None          # the tomb 2,2 is in the way
    assert B.parse_cell("2,0") not in B.ring_index                  # no stop faces a tomb row
    with pytest.raises(RecordError, match="unknown map"):
        G(players=2, seed=0, variants=["map=nowhere"])


def _bot_choice(st, seed, bot="greedy"):
    from pnp.engines.core import Rng
    return G.observation_bots[bot](st.observation(st.to_move), Rng(seed))


@pytest.mark.parametrize("bot", ["greedy", "tactician"])
@pytest.mark.parametrize("seed", range(4))
def test_bots_never_see_the_order_of_the_face_down_decks(seed, bot):
    """observation(seat) lists the decks' cards, not their order; a bot's choice depends only on
    it: shuffling the hidden decks (as a peeking bot would notice) changes nothing."""
    st = G(players=2, seed=seed)
    for _ in range(2 + seed):                              # reach the action before an event
        st.push(st.legal_moves()[0])
    before = _bot_choice(st, seed, bot)
    obs = json.dumps(st.observation(st.to_move), sort_keys=True)
    r = random.Random(seed)
    for _ in range(5):
        ev, zd = list(st.edeck), list(st.zdeck)
        r.shuffle(ev)
        r.shuffle(zd)
        st.edeck, st.zdeck = tuple(ev), tuple(zd)
        st.rng.state = r.getrandbits(64)
        assert json.dumps(st.observation(st.to_move), sort_keys=True) == obs
        assert _bot_choice(st, seed, bot) == before
    assert "rng" not in st.observation(0)["position"] and "seed" not in st.observation(0)["position"]


def test_only_observation_bots_and_ismcts_play_cimiterio():
    from pnp.engines.simulate import bot_names, get_game_bot
    assert set(bot_names(G)) == {"random", "greedy", "planner", "tactician", "ismcts"}
    with pytest.raises(ValueError, match="hidden information"):
        get_game_bot(G, "mcts")


def test_reachability_findings_name_the_rule_and_the_configuration():
    from pnp.engines.reachability import check_reachability, run_findings
    summary = {"variants": ["map=classic"], "games": 5, "bot": "greedy",
               "never_exercised": ["C12", "C22", "C24"]}
    found = {f["rule"]: f for f in run_findings("cimiterio", summary)}
    assert found["C22"]["code"] == "rules.unfired" and "map classic" in found["C22"]["where"]
    assert found["C24"]["code"] == "rules.variant" and found["C24"]["variants"] == ["personal"]
    assert found["C12"]["code"] == "rules.unfired"
    # a map where no gap lies half way between two stops in line with it: C12 cannot happen
    assert "C12" not in G.unreachable_rules(G(players=2, seed=0).options)
    quick = check_reachability("cimiterio", games=2, max_turns=20)
    assert {f["rule"] for f in quick} >= {"C22", "C23"}           # nobody wins in 20 turns
    for f in quick:                                            # variant rules: played in their variant
        if f["rule"] in ("C24", "C25", "C26"):
            assert f["code"] == "rules.unreachable" and G.rule_variants[f["rule"]][0] in f["where"]


def test_simulation_reports_carry_the_rule_findings():
    from pnp.engines.simulate import simulate
    s = simulate("cimiterio", games=2, seed=1, bot="random", variants=["map=classic"], max_turns=15)
    found = {(f["code"], f["rule"]) for f in s.summary()["rule_findings"]}
    assert ("rules.unfired", "C22") in found and ("rules.variant", "C26") in found
    assert "rules.unfired C22: C22 did not fire in 2 games (random bot) with map classic" in s.to_text()
