"""Zombies vs Vampires engine: scenarios, perft counts, walls, undo, variants, simulations."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import click
import pytest
import yaml
from conftest import (
    check_scenario,
    check_unwind_and_replay,
    perft_positions,
    push_checking_undo,
    scenario_files,
    yaml_round_trip,
)

from pnp.engines.core import IllegalMoveError, RecordError, get_game
from pnp.engines.zombies_vs_vampires import BUILD, MOVE, ZombiesVsVampires, greedy_bot, zvv_data
from pnp.errors import DataError
from pnp.pack import find_pack

Z = ZombiesVsVampires
SCENARIOS = scenario_files("zombies-vs-vampires")
PERFT = perft_positions("zombies-vs-vampires")


PACK = find_pack("zombies-vs-vampires")          # the shipped pack, as the printer finds it


def test_registered_and_reads_the_shipped_pack():
    assert get_game("zombies-vs-vampires") is Z
    board = yaml.safe_load((PACK / "board.yaml").read_text(encoding="utf-8"))
    walls = yaml.safe_load((PACK / "walls.yaml").read_text(encoding="utf-8"))
    dice = {d["id"]: d for d in yaml.safe_load((PACK / "dice.yaml").read_text(encoding="utf-8"))}
    d = zvv_data()
    assert d.size == board["size"]["cols"] == board["size"]["rows"]
    assert [z[0] for z in d.zones] == [z["id"] for z in board["zones"]]
    assert d.walls == tuple(sum(w["count"] for w in walls if w["size"] == L) for L in (1, 2, 3))
    assert d.size_die == tuple(f["size"] for f in dice["size"]["faces"])
    assert len(d.action_die) == len(dice["action"]["faces"])
    st = Z(players=2, seed=1)
    assert st.total_walls[1:] == d.walls and st.action_die == d.action_die


def test_setup():
    for n in (2, 3, 4):
        st = Z(players=n, seed=n)
        assert [len(p) for p in st.pos] == [9] * n                  # V1
        assert st.supply[1:] == list(st.total_walls[1:]) and not st.walls
        assert not st.check_invariants()
        zones = {st.geo.zone_of[s] for q in st.pos for s in q}
        assert len(zones) == n


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    check_scenario(path)


@pytest.mark.parametrize("case", PERFT, ids=[c["name"] for c in PERFT])
def test_perft(case):
    st = Z.from_position(case["position"], variants=case.get("variants"))
    moves = st.legal_moves()
    assert len(moves) == case["count"]
    assert len(set(moves)) == len(moves)
    sample = moves if len(moves) < 60 else random.Random(0).sample(moves, 60)
    for m in sample:
        text = st.move_text(m)
        assert st.parse_move(text) == m, text
        st.push(m)                                   # every listed move is accepted
        st.pop()


def test_move_paths_are_valid_step_by_step():
    st = Z(players=2, seed=4)
    ch = random.Random(4)
    checked = 0
    for _ in range(300):
        if st.outcome():
            break
        ms = st.legal_moves()
        for m in ms[:20]:
            if m >> 24 == MOVE:
                text = st.move_text(m)
                sqs = [st.geo.parse_sq(x) for x in text.split()[1].split(">")]
                assert st._check_path(sqs) is None, text
                checked += 1
        st.push(ms[ch.randrange(len(ms))])
    assert checked > 100


def test_walls_block_movement_both_ways():
    st = Z.from_position({"pieces": [["h8"], ["a13"]], "walls": ["v:h8-1"], "die": "2"})
    dests = {st.geo.sq_name(m & 0xFFF) for m in st.legal_moves()}
    assert "i8" not in dests and "j8" not in dests and "i9" in dests
    st = Z.from_position({"pieces": [["i8"], ["a13"]], "walls": ["v:h8-1"], "die": "2"})
    dests = {st.geo.sq_name(m & 0xFFF) for m in st.legal_moves()}
    assert "h8" not in dests and "h9" in dests


def test_wall_geometry():
    g = Z(players=2, seed=1).geo
    assert g.N == 13
    assert len(g.by_size[1]) == 264 and len(g.by_size[2]) == 240 and len(g.by_size[3]) == 216
    for ci in g.by_size[3]:                            # never a groove inside a home zone
        o, r, c, L, gm, im = g.cands[ci]
        for s in range(g.N * g.W):
            if gm >> s & 1:
                other = s + (g.W if o == 0 else 1)
                za, zb = g.zone_of.get(s), g.zone_of.get(other)
                assert za is None or za != zb


def test_illegal_error_fields():
    st = Z.from_position({"pieces": [["c5", "c6"], ["m13"]], "walls": ["h:c6-1"], "die": "2"})
    with pytest.raises(IllegalMoveError) as ei:
        st.push_text("move c5>c7")
    e = ei.value
    assert e.rule == "V6" and e.move == "move c5>c7" and "c5" in e.position
    assert "move c5>b5" in e.legal
    with pytest.raises(IllegalMoveError) as ei:
        st.push_text("build h:e7-2")
    assert ei.value.rule == "V3"
    with pytest.raises(IllegalMoveError) as ei:
        st.push_text("move m13>m12")
    assert ei.value.rule == "V4"


def test_remove_by_serial_and_by_spec():
    st = Z.from_position({"pieces": [["d4"], ["m13"]], "walls": ["h:e5-2", "v:h8-3"],
                          "die": "pm"})
    assert st.parse_move("remove w1") == st.parse_move("remove h:e5-2")
    with pytest.raises(IllegalMoveError):
        st.parse_move("remove w9")


def test_pm_build_then_size_roll():
    st = Z.from_position({"pieces": [["d4"], ["m13"]], "die": "pm"})
    st.push_text("build")
    assert st.phase == 2 and st.wsize in (1, 2, 3)
    assert all(m >> 24 == BUILD for m in st.legal_moves())
    st.push(st.legal_moves()[0])
    assert len(st.walls) == 1 and not st.check_invariants()


def _play(st, ch, steps=10 ** 9, undo_check=False, mix_greedy=False):
    k = 0
    while st.outcome() is None and k < steps:
        ms = st.legal_moves()
        if mix_greedy and ch.random() < 0.5:
            m = greedy_bot(st, ch)
        else:
            m = ms[ch.randrange(len(ms))]
        if undo_check:
            push_checking_undo(st, m)
        else:
            st.push(m)
        k += 1
    return st


def test_push_pop_is_exact():
    for seed in range(4):
        st = Z(players=2 + seed % 3, seed=seed)
        _play(st, random.Random(seed), steps=150, undo_check=True, mix_greedy=True)
        check_unwind_and_replay(st, Z(players=st.players, seed=seed))


def test_serialisation_round_trip():
    for seed in range(6):
        st = Z(players=2 + seed % 3, seed=seed, variants=["v15-reroll"] if seed % 2 else None)
        _play(st, random.Random(seed), steps=80, mix_greedy=True)
        cp = yaml_round_trip(st)
        assert cp.legal_moves() == st.legal_moves()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_invariants_or_are_flagged(players):
    """Uniformly random play rarely finishes a race: games are capped and flagged (the full
    1000-game run is benchmarks/bench_zr_zvv.py --sim)."""
    for i in range(12):
        st = Z(players=players, seed=f"rnd-{players}-{i}", options={"max_turns": 150})
        ch = random.Random(i)
        n = 0
        while st.outcome() is None:
            st._apply(st.random_move(ch.random))
            n += 1
            if n % 25 == 0:
                assert not st.check_invariants(), (st.seed, st.check_invariants())
        assert not st.check_invariants()
        out = st.outcome()
        if out.rule == "cap":
            assert repr(st.seed) in out.reason


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_bots_race_to_the_end(players):
    for i in range(3):
        st = Z(players=players, seed=f"greedy-{players}-{i}")
        out = st.playout(random.Random(i), bot=greedy_bot)
        assert out.rule in ("V12", "V13"), out
        assert out.winners and all(st.home[w] == 9 for w in out.winners)
        assert not st.check_invariants()


def test_greedy_beats_random():
    """Greedy wins unless a random piece squats in its far zone for ever (seed 0: see the
    rules doc, "spoilers")."""
    wins = 0
    for i in range(4):
        st = Z(players=2, seed=i, options={"max_turns": 600})
        ch = random.Random(i)
        while st.outcome() is None:
            m = greedy_bot(st, ch) if st.turn == 0 else st.random_move(ch.random)
            st._apply(m)
        wins += st.outcome().winners == (0,)
        assert 1 not in st.outcome().winners
    assert wins >= 3


def test_variant_twostar_and_v15():
    st = Z(players=2, seed=3, variants=["twostar-reroll"])
    for _ in range(200):
        assert st.face_text != "2*"
        st._apply(st.random_move(random.Random(1).random))
    st = Z.from_position({"pieces": [["k3", "e8"], ["a13"]], "die": "4"},
                         variants=["v15-reroll"])
    assert "reroll" in [st.move_text(m) for m in st.legal_moves()]
    st.push_text("reroll")
    assert "reroll" not in [st.move_text(m) for m in st.legal_moves()]
    st = Z.from_position({"pieces": [["k3", "e8"], ["a13"]], "die": "4", "first": 1},
                         variants=["v15-choose"])
    st.push_text("move e8>e9")            # seat 1's turn: no piece home, no choice
    assert st.phase == 1
    st = Z.from_position({"pieces": [["k3", "e8"], ["a1"]], "die": "4", "turn": 1,   # a1: home,
                          "first": 0}, variants=["v15-choose", "home-zone"])   # may move (zone)
    st.push_text("move a1>a2")             # back to seat 0, which has a piece home: choose
    assert sorted(st.move_text(m) for m in st.legal_moves()) == ["roll action", "roll size"]
    st.push_text("roll size")
    assert st.steps in (1, 2, 3)


def test_board_size_variants():
    for v, n in (("board11", 11), ("board15", 15), ("board19", 19)):
        st = Z(players=4, seed=1, variants=[v])
        assert st.geo.N == n and not st.check_invariants()
        out = st.playout(random.Random(1), bot=greedy_bot)
        assert out.rule in ("V12", "V13")
    with pytest.raises(RecordError):
        Z(players=2, seed=1, options={"twostar": "maybe"})


def test_locked_home_variant():
    st = Z.from_position({"pieces": [["k3", "e8"], ["a13"]], "die": "2"},
                         variants=["home-locked"])
    assert all(m >> 12 & 0xFFF != st.geo.parse_sq("k3") for m in st.legal_moves())


def test_seed_literal_defaults_and_their_variants():
    """Issue 15: V11 "leave it there" and V12 "ends at once" are the defaults; the readings that
    were the defaults before are the variants home-zone and finish-round."""
    assert Z.default_options["home"] == "locked" and Z.default_options["end"] == "immediate"
    k3 = Z.from_position({"pieces": [["k3", "e8"], ["a13"]], "die": "2"}).geo.parse_sq("k3")
    for variants, k3_moves in (([], False), (["home-zone"], True)):
        st = Z.from_position({"pieces": [["k3", "e8"], ["a13"]], "die": "2"}, variants=variants)
        assert any(m >> 12 & 0xFFF == k3 for m in st.legal_moves()) is k3_moves
    pos = {"pieces": [["k1", "l1", "m1", "k2", "l2", "m2", "l3", "m3", "j3"],
                      ["a1", "b1", "c1", "a2", "b2", "a3", "b3", "c3", "d2"]],
           "die": "2", "turn": 0, "first": 0}
    st = Z.from_position(pos)
    st.push_text("move j3>k3")
    assert st.outcome().winners == (0,) and st.outcome().rule == "V12"
    st = Z.from_position(pos, variants=["finish-round"])
    st.push_text("move j3>k3")
    assert st.outcome() is None and st.turn == 1          # the round is played out


def test_lane_bfs_matches_single_piece_bfs():
    """The all-pieces-at-once generator equals one BFS per piece (``_reach``)."""
    for seed in range(6):
        st = Z(players=2 + seed % 3, seed=seed, options={"max_turns": 400})
        ch = random.Random(seed)
        for _ in range(40):
            if st.outcome():
                break
            p = st.turn
            for k in (1, 2, 4, 6):
                fast = set(st._move_moves(p, k))
                ref = set()
                for s in st.movable(p):
                    r = st._reach(p, s, k)
                    ref |= {MOVE << 24 | s << 12 | t for t in range(st.geo.N * st.geo.W)
                            if r >> t & 1}
                assert fast == ref
            st._apply(st.random_move(ch.random))


def _pack_copy(tmp_path, **changes) -> Path:
    """A copy of the shipped pack with some collection files replaced: ``name=value`` writes
    ``value`` (YAML data) to ``<name>.yaml``, or the text itself when it is a string."""
    root = tmp_path / "zvv-pack"
    shutil.copytree(PACK, root)
    for name, value in changes.items():
        text = value if isinstance(value, str) else yaml.safe_dump(value, sort_keys=False)
        (root / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


def _read(name):
    return yaml.safe_load((PACK / f"{name}.yaml").read_text(encoding="utf-8"))


def test_engine_reads_the_printed_board(tmp_path, monkeypatch):
    """A changed pack changes the game: board size, zones, seats, walls and dice all come from
    the pack (nothing is built in)."""
    board = _read("board")
    board["size"] = {"cols": 15, "rows": 15}
    board["zones"] = [                      # 3x3 zones moved off the corners
        {"id": "nw", "name": "zone.nw", "cols": [1, 3], "rows": [0, 2], "opposite": "se"},
        {"id": "ne", "name": "zone.ne", "cols": [12, 14], "rows": [2, 4], "opposite": "sw"},
        {"id": "se", "name": "zone.se", "cols": [11, 13], "rows": [12, 14], "opposite": "nw"},
        {"id": "sw", "name": "zone.sw", "cols": [0, 2], "rows": [10, 12], "opposite": "ne"}]
    board["seats"] = [{"players": 2, "zones": ["sw", "ne"]},
                      {"players": 3, "zones": ["ne", "se", "nw"]},
                      {"players": 4, "zones": ["se", "sw", "nw", "ne"]}]
    walls = _read("walls")
    for w in walls:
        w["count"] = {1: 2, 2: 7, 3: 1}[w["size"]]
    dice = _read("dice")
    for die in dice:
        if die["id"] == "size":
            for f in die["faces"]:
                f["size"] = 2
        else:                               # 5 steps or build, nothing else
            for i, f in enumerate(die["faces"]):
                f.clear()
                f.update({"id": f"f{i}", "label": "die.action.two"})
                f.update({"action": "move", "steps": 5} if i % 2 else {"action": "build"})
    root = _pack_copy(tmp_path, board=board, walls=walls, dice=dice)
    monkeypatch.setattr(Z, "pack_root", root)
    st = Z(players=2, seed=1)
    g = st.geo
    assert g.N == 15 and g.zone_ids == ["nw", "ne", "se", "sw"]
    assert st.total_walls == (0, 2, 7, 1) and st.supply == [0, 2, 7, 1]
    assert [g.zone_ids[c] for c in st.corners] == ["sw", "ne"]
    sw = {(14 - r) * g.W + c for r in range(10, 13) for c in range(0, 3)}   # pack rows: top = 0
    ne = {(14 - r) * g.W + c for r in range(2, 5) for c in range(12, 15)}
    assert set(st.pos[0]) == sw and set(st.pos[1]) == ne                     # V1
    assert st.target_mask[0] == sum(1 << s for s in ne)                      # V2: sw -> ne
    for ci in g.by_size[1]:                 # V9: no wall inside the moved zones
        o, r, c, L, gm, im = g.cands[ci]
        inside = (r * g.W + c, (r + 1) * g.W + c if o == 0 else r * g.W + c + 1)
        assert not (set(inside) <= sw or set(inside) <= ne)
    assert Z(players=4, seed=1).corners == tuple(g.zone_ids.index(z) for z in ("se", "sw", "nw", "ne"))
    faces = set()
    ch = random.Random(1)
    for _ in range(40):                     # the dice: 5 steps, or build a wall of size 2
        faces.add(st.face_text)
        assert st.face_text in ("5", "build")
        assert (st.steps == 5) if st.face_text == "5" else (st.wsize == 2)
        st.push(st.random_move(ch.random))
    assert faces == {"5", "build"} and st.walls
    assert all(g.cands[ci][3] == 2 for ci in st.walls)
    st = Z(players=2, seed=1, variants=["head-on"])
    assert [st.geo.zone_ids[c] for c in st.corners] == ["nw", "se"]
    assert st.target_mask[0] == st.geo.zone_masks[st.geo.zone_ids.index("se")]


def _square_board_13x15():
    board = _read("board")
    board["size"] = {"cols": 13, "rows": 15}
    return board


def _long_wall():
    walls = _read("walls")
    walls[2]["size"] = 4
    return walls


def _unknown_seat_zone():
    board = _read("board")
    board["seats"][0]["zones"] = ["nw", "middle"]
    return board


def _no_action_die():
    return [die for die in _read("dice") if die["id"] != "action"]


@pytest.mark.parametrize("name, broken, where", [
    ("walls", "- {id: wall-1, size: 1, count: [6\n", "walls.yaml"),     # YAML syntax
    ("walls", _long_wall, "walls.yaml"),                                  # a wall of size 4
    ("board", _square_board_13x15, "board.yaml"),                         # not square
    ("board", _unknown_seat_zone, "board.yaml"),                          # seat in no zone
    ("dice", _no_action_die, "dice.yaml"),                                # no action die
])
def test_a_broken_pack_is_refused_not_defaulted(tmp_path, monkeypatch, name, broken, where):
    """The engine reads only what the pack's loader validated: a pack it cannot load or play is
    a DataError naming the file, never a silent fall-back to built-in values."""
    root = _pack_copy(tmp_path, **{name: broken() if callable(broken) else broken})
    monkeypatch.setattr(Z, "pack_root", root)
    with pytest.raises(DataError) as err:
        Z(players=2, seed=1)
    assert where in str(err.value)


def test_a_missing_pack_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(Z, "pack_root", tmp_path / "no-such-pack")
    with pytest.raises(click.ClickException):
        Z(players=2, seed=1)


def test_lone_handicap_variant_evens_three_players_as_documented():
    """Seat fairness (docs, "Seat fairness"): with 3 players the seat whose far zone nobody
    starts in (ne, racing to the empty sw corner) gives up its first turns in variant
    lone-handicap; no other seat, and no seat at 2 or 4 players (every far zone empty / full)."""
    from pnp.engines.zombies_vs_vampires.base import LONE_HANDICAP
    assert Z.variants["lone-handicap"] == {"handicap": LONE_HANDICAP} and LONE_HANDICAP > 0
    st = Z(players=3, seed=5, variants=["lone-handicap"])
    g = st.geo
    assert [g.zone_ids[z] for z in st.corners] == ["nw", "ne", "se"]
    assert st.sit_out == [0, LONE_HANDICAP, 0]
    assert Z(players=3, seed=5).sit_out == [0, 0, 0]
    for n in (2, 4):
        assert Z(players=n, seed=5, variants=["lone-handicap"]).sit_out == [0] * n
    start = st.pos[1]
    rng = random.Random(5)
    while st.turns_taken[1] <= LONE_HANDICAP:
        assert st.turn != 1 and st.pos[1] == start      # seat 1 never gets a decision
        st.push(st.legal_moves()[int(rng.random() * len(st.legal_moves()))])
    assert st.rules_fired["handicap"] == LONE_HANDICAP
    assert not st.check_invariants()
