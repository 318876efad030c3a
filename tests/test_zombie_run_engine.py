"""Zombie! Run for Your Lives! engine: scenarios, perft counts, undo, hidden hands, simulations."""
from __future__ import annotations

import random
from pathlib import Path

import click
import pytest
from conftest import (
    check_scenario,
    check_unwind_and_replay,
    perft_positions,
    push_checking_undo,
    scenario_files,
    yaml_round_trip,
    zr_twins,
)

from pnp.engines.core import IllegalMoveError, RecordError, get_game
from pnp.engines.zombie_run import ZombieRun, greedy_bot, load_zr_data, random_bot, zr_data
from pnp.engines.zombie_run import deck as zr_deck
from pnp.errors import DataError
from pnp.pack import Card, load_pack

HERE = Path(__file__).parent
SCENARIOS = scenario_files("zombie-run")
PERFT = perft_positions("zombie-run")


def test_registered():
    assert get_game("zombie-run") is ZombieRun


def test_deck_is_the_printed_deck():
    d = zr_data()
    assert d.total == 63
    assert d.S == 10
    assert all(c == 3 for c in d.copies)          # 3 items + 3 zombies per symbol, 3 roaches
    assert d.names[d.ROACH] == "zombie:roach"
    pack = load_pack("zombie-run")
    assert d.symbols == tuple(e["id"] for e in pack.collections["symbols"])
    assert d.total == len(pack.cards())
    for card in pack.cards():                     # every printed id names its card type
        name = "zombie:roach" if card.kind == "roach" else f"{card.kind}:{card.fields['symbol']}"
        assert d.type_of(card.id) == d.card_ids[card.base_id] == d.index[name]


def test_the_deck_comes_only_from_the_pack(monkeypatch):
    with pytest.raises(click.ClickException):     # no pack there: pnp's error, no default deck
        load_zr_data(HERE / "no-such-pack")
    card = Card(id="joker", base_id="joker", kind="joker", deck="main", copy=1, quantity=1,
                fields={}, file=HERE / "cards.yaml", line=7)

    class Pack:
        collections = {"symbols": []}

        def cards(self):
            return [card]

    monkeypatch.setattr(zr_deck, "load_pack", lambda root: Pack())
    with pytest.raises(DataError, match="joker"):   # a card of no Zombie Run kind
        load_zr_data("any")


def test_deal_and_first_draw():
    st = ZombieRun(players=5, seed=3)
    assert [len(h) for h in st.hands] == [5, 4, 4, 4, 4]       # Z1 + the first Z3 draw
    assert st.turn == 0
    assert not st.check_invariants()


def test_even_seats_variant_deals_the_last_seat_one_more_and_skips_only_the_first_draw():
    """Seat fairness (docs, "Seat fairness"): in variant even-seats the last seat in turn order is
    dealt 5 cards, the others 4 (Z1), and the first player plays the game's first turn from the
    cards dealt (no Z3 draw); every later turn draws as usual."""
    assert ZombieRun.variants["even-seats"] == {"first_draw": False, "last_extra": 1}
    for first, dealt in ((0, [4, 4, 5]), (2, [4, 5, 4])):
        st = ZombieRun(players=3, seed=3, variants=["even-seats"], options={"first": first})
        assert [len(h) for h in st.hands] == dealt and st.turn == first
        assert len(st.deck) == 63 - 13 and st.rules_fired["first-no-draw"] == 1
        default = ZombieRun(players=3, seed=3, options={"first": first})
        assert [len(h) for h in default.hands] == [5 if p == first else 4 for p in range(3)]
        assert default.rules_fired["first-no-draw"] == 0
        rng = random.Random(3)
        starts = 0
        while st.outcome() is None and starts < 12:   # every later turn start: one Z3 draw
            turn, sizes = st.turn, [len(h) for h in st.hands]
            st.push(rng.choice(st.legal_moves()))
            if st.turn != turn and st.outcome() is None:
                starts += 1
                assert len(st.hands[st.turn]) == sizes[st.turn] + 1, st.describe()
        assert starts == 12 and st.rules_fired["first-no-draw"] == 1
        assert not st.check_invariants()


def test_options_below_their_least_value_are_refused_naming_the_option():
    for option in ("hand=0", "last_extra=-1", "repetition=1"):
        with pytest.raises(RecordError, match=f"option {option.split('=')[0]} must be at least"):
            ZombieRun(players=3, seed=1, variants=[option])


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    check_scenario(path)


@pytest.mark.parametrize("case", PERFT, ids=[c["name"] for c in PERFT])
def test_perft(case):
    st = ZombieRun.from_position(case["position"], players=case["players"])
    moves = st.legal_moves()
    assert len(moves) == case["count"]
    assert len(set(moves)) == len(moves)
    for m in moves:                                  # text round trip and O(1) check agree
        assert st.parse_move(st.move_text(m)) == m
        assert st.is_legal(m)


def test_illegal_error_carries_rule_and_position():
    st = ZombieRun.from_position({"hands": [["item:bat", "zombie:bus"], [], []],
                                  "tables": [["item:bat"], [], []]}, players=3)
    with pytest.raises(IllegalMoveError) as ei:
        st.push_text("play item:bat")
    e = ei.value
    assert e.rule == "Z5" and e.move == "play item:bat"
    assert "P1" in e.position and "play zombie:bus>P2" in e.legal
    with pytest.raises(IllegalMoveError) as ei:
        st.push_text("play zombie:bus>P1")
    assert ei.value.rule == "Z3"
    with pytest.raises(IllegalMoveError) as ei:
        st.push_text("fly away")
    assert ei.value.rule == "notation"


def _random_game(seed, players, check_undo=False):
    st = ZombieRun(players=players, seed=seed)
    ch = random.Random(seed)
    while st.outcome() is None:
        ms = st.legal_moves()
        m = ms[ch.randrange(len(ms))]
        if check_undo:
            push_checking_undo(st, m)
        else:
            st.push(m)
    return st


def test_push_pop_is_exact():
    for seed in range(30):
        st = _random_game(seed, 3 + seed % 5, check_undo=True)
        check_unwind_and_replay(st, ZombieRun(players=st.players, seed=seed))


def test_serialisation_round_trip():
    for seed in range(20):
        st = ZombieRun(players=4, seed=seed)
        ch = random.Random(seed)
        for _ in range(ch.randrange(5, 40)):
            if st.outcome():
                break
            st.push(st.random_move(ch.random))
        cp = yaml_round_trip(st)
        a, b = random.Random(1), random.Random(1)
        oa = st.playout(a)
        ob = cp.playout(b)
        assert oa == ob and st.to_dict()["state"] == cp.to_dict()["state"]


def test_playout_is_push_with_the_same_choices():
    """The fast playout uses the same legal-move sampler and _apply as push()."""
    for seed in range(150):
        a, b, rb = zr_twins(seed)
        while b.outcome() is None:
            b.push(b.random_move(rb.random))
        assert a.to_dict()["state"] == b.to_dict()["state"]
        assert a.rules_fired == b.rules_fired


def test_random_move_is_uniform_over_legal_moves():
    st = ZombieRun.from_position({"hands": [["item:bat", "zombie:bus", "zombie:roach",
                                             "item:pan"], [], [], []]}, players=4)
    legal = st.legal_moves()
    ch = random.Random(5)
    counts = {m: 0 for m in legal}
    n = 20000
    for _ in range(n):
        counts[st.random_move(ch.random)] += 1
    exp = n / len(legal)
    assert all(abs(c - exp) < 5 * exp ** 0.5 for c in counts.values())


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_1000_random_games_finish_and_keep_every_card(players):
    reasons = {}
    for i in range(1000):
        st = ZombieRun(players=players, seed=f"sim-{players}-{i}")
        if i < 25:                                   # full invariant check after every ply
            ch = random.Random(i)
            while st.outcome() is None:
                st.push(st.random_move(ch.random))
                assert not st.check_invariants(), (st.seed, st.check_invariants())
            out = st.outcome()
        else:
            out = st.playout(seed=i)
            assert not st.check_invariants(), st.seed
        reasons[out.rule] = reasons.get(out.rule, 0) + 1
        if out.rule in ("cap", "repetition"):        # flagged, with a reproducing seed
            assert repr(st.seed) in out.reason
        else:
            assert len(out.winners) == 1
    assert reasons.get("Z7", 0) + reasons.get("Z10", 0) >= 990


def test_turn_cap_is_reported_with_the_seed():
    st = ZombieRun(players=7, seed=99, options={"max_turns": 5})
    out = st.playout(seed=1)
    assert out.rule == "cap" and out.winners == () and "99" in out.reason


def test_repetition_detection():
    """A position seen `repetition` times at a turn start with (almost) no cards in
    circulation ends the game as a draw (white-box: the loop itself is practically
    unreachable, see docs/rules/zombie-run.md)."""
    d = zr_data()
    everything = [d.names[t] for t in range(d.NT) for _ in range(d.copies[t])]
    hands = [everything[:30], everything[30:45], everything[45:61]]
    st = ZombieRun.from_position({"hands": hands, "deck": everything[61:]}, players=3,
                                 options={"repetition": 2})
    st._seen[st._position_key()] = 1
    st._begin_turn()
    out = st.outcome()
    assert out is not None and out.rule == "repetition" and out.winners == ()


def test_empty_deck_and_discard_draws_nothing():
    d = zr_data()
    everything = [d.names[t] for t in range(d.NT) for _ in range(d.copies[t])]
    hands = [everything[:30], everything[30:45], everything[45:]]
    st = ZombieRun.from_position({"hands": hands}, players=3)
    assert not st.deck and not st.discard
    assert all(c.startswith("item:") for c in hands[0])     # P1 holds the 30 items
    st.push_text(f"play {hands[0][0]}")                       # onto its empty table: no Z4
    assert st.turn == 1 and st.rules_fired["Z13-empty"] == 1  # P2's draw finds no card
    assert len(st.hands[1]) == 15 and not st.deck and not st.discard
    assert not st.check_invariants()


def test_observation_hides_other_hands():
    st = ZombieRun(players=4, seed=5)
    obs = st.observation(1)
    assert obs["seat"] == 1 and obs["legal"] == []
    assert sorted(obs["hand"]) == sorted(st.data.names[t] for t in st.hands[1])
    assert obs["hand_sizes"] == [len(h) for h in st.hands]
    assert "hands" not in obs and "deck_order" not in obs
    assert isinstance(obs["deck"], int)
    own = st.observation(st.turn)
    assert own["legal"] and all(isinstance(x, str) for x in own["legal"])
    # Z1: what seat 1 sees does not depend on the other hands nor on the deck order
    spec = {"hands": [["item:bat", "zombie:bus"], ["item:pan", "zombie:roach"], ["item:bus"],
                      ["zombie:pan"]], "tables": [["item:ladder"], [], [], ["zombie:bat"]]}
    a = ZombieRun.from_position(spec, players=4, seed=1)
    spec["hands"] = [["item:umbrella", "zombie:ladder"], spec["hands"][1], ["zombie:bus"],
                     ["item:bat"]]
    b = ZombieRun.from_position(spec, players=4, seed=2)
    assert a.deck != b.deck
    assert a.observation(1) == b.observation(1)
    assert a.observation(0) != b.observation(0)            # the mover's own hand does show


def test_observation_bots_play_whole_games():
    for seed in range(30):
        st = ZombieRun(players=3 + seed % 5, seed=seed)
        ch = random.Random(seed)
        while st.outcome() is None:
            bot = greedy_bot if st.turn % 2 else random_bot
            st.push_text(bot(st.observation(st.turn), ch))
        assert not st.check_invariants()


def test_variants_and_options():
    st = ZombieRun(players=3, seed=1, variants=["roach-distinct"])
    assert st.roach_cap == 3
    st = ZombieRun(players=3, seed=1, variants=["quick"])
    assert st.max_turns == 300


def test_push_trusts_only_the_list_just_generated():
    """push skips the one-move check only for a move of the list legal_moves() just made in
    this very position (core ``_legal_memo``): a changed returned list, a stale list after
    push/pop or a playout, and a foreign move are all checked as before."""
    st = ZombieRun.from_position({"hands": [["item:bat", "zombie:bus"], [], []],
                                  "tables": [["item:bat"], [], []]}, players=3)
    bad = st.parse_move("play item:bat")                     # Z5: already on the table
    ms = st.legal_moves()
    assert bad not in ms
    ms.append(bad)                                          # the caller's copy, not the memo
    with pytest.raises(IllegalMoveError) as ei:
        st.push(bad)
    assert ei.value.rule == "Z5"
    good = ms[0]
    st.push(good)
    assert st._legal_memo is None                           # cleared by push
    st.pop()
    assert st._legal_memo is None                           # and by pop
    st.push(good)                                           # checked in full: still legal
    st.pop()
    old = st.legal_moves()
    st.playout(seed=3)                                      # the position changed: game over
    assert st._legal_memo is None                           # (its own listings on the way too)
    with pytest.raises(IllegalMoveError) as ei:
        st.push(old[0])
    assert ei.value.rule == "end"
