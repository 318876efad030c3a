"""Simulation figures, hidden hands, termination flags, the playtest PDF and a small soak."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from conftest import zr_twins
from pdftext import pdf_pages

from pnp.engines.cli import playtest
from pnp.engines.simulate import mann_whitney, play_one, simulate, two_proportion_z
from pnp.engines.soak import soak
from pnp.engines.zombie_run import ZombieRun
from pnp.engines.zombies_vs_vampires import BUILD, MOVE, PASS, PMBUILD, REMOVE, ZombiesVsVampires


# ------------------------------------------------------------------ statistics helpers
def test_two_proportion_z():
    z, p = two_proportion_z(60, 100, 40, 100)
    assert z == pytest.approx(2.828, abs=1e-3) and p == pytest.approx(0.00468, abs=1e-4)
    assert two_proportion_z(0, 0, 1, 2) == (0.0, 1.0)
    assert two_proportion_z(5, 10, 5, 10)[1] == pytest.approx(1.0)


def test_mann_whitney():
    u, z, p = mann_whitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert u == 0 and p < 0.02
    u, z, p = mann_whitney([1, 2, 3], [1, 2, 3])
    assert p == pytest.approx(1.0)
    # ties, by hand: U = 12.5, mu = 24.5, tie term 60, var = 49/12 * (15 - 60/182),
    # z = -11.5 / sqrt(var) = -1.486 (continuity corrected), two-sided p = 0.137
    u, z, p = mann_whitney([1, 2, 2, 3, 4, 4, 5], [2, 3, 3, 5, 6, 7, 8])
    assert u == 12.5 and z == pytest.approx(-1.486, abs=1e-3)
    assert p == pytest.approx(0.1373, abs=1e-3)


# ------------------------------------------------------------------ game-specific figures
def test_zombie_run_figures():
    s = simulate("zombie-run", games=40, players=4, seed=3).summary()
    st = s["stats"]
    assert set(st) >= {"zombies_onto_seat", "eliminated_seat", "eliminations", "reshuffles",
                       "special_uses"}
    assert len(st["zombies_onto_seat"]["per_seat"]) == 4
    assert sum(x["total"] for x in st["zombies_onto_seat"]["per_seat"]) > 0
    # eliminations per game == seats turned zombie; equal to rule Z8's count
    assert st["eliminations"]["total"] == s["rules_fired"]["Z8"]
    assert st["special_uses"]["total"] == s["rules_fired"]["Z11"]
    assert st["reshuffles"]["total"] == s["rules_fired"].get("Z13", 0)
    text = simulate("zombie-run", games=5, players=3, seed=3).to_text()
    assert "zombies_onto_seat" in text and "reshuffles" in text


def test_zombie_run_targeting_counter_is_undone_and_matches_playout():
    for seed in range(20):
        a, b, rb = zr_twins(seed)
        while b.outcome() is None:
            m = b.random_move(rb.random)
            before = (dict(b.counters), b.stats())
            b.push(m)
            b.pop()
            assert (dict(b.counters), b.stats()) == before
            b.push(m)
        assert a.stats() == b.stats()
        played = sum(b.stats()["zombies_onto_seat"])
        assert played <= b.rules_fired["Z3"] + b.rules_fired.get("Z9", 0)


def test_zvv_figures_and_did_not_end():
    s = simulate("zombies-vs-vampires", games=6, players=2, seed=1, max_turns=120).summary()
    st = s["stats"]
    assert set(st) >= {"walls_built", "walls_removed", "jump_moves", "blocked_turns",
                       "turns_to_first_home"}
    assert st["walls_built"]["total"] == s["rules_fired"]["V9"]
    assert 0 < st["jump_moves"]["total"] < s["rules_fired"]["V4"]
    # random games hit the cap: flagged as "did not end", never counted as finished
    assert s["did_not_end"] + s["completed"] == 6
    assert s["did_not_end"] >= 5
    flagged = [a for a in s["anomalies"] if a["kind"] == "non-terminating"]
    assert len(flagged) == s["did_not_end"] and all("did not end" in a["detail"] for a in flagged)
    again = play_one("zombies-vs-vampires", 2, flagged[0]["seed"], "random", [], max_turns=120)
    assert again["capped"]                                     # the seed reproduces it
    r = play_one("zombies-vs-vampires", 2, 5, "random", [], max_turns=10_000)
    assert r["capped"] and r["unfinished"].startswith("cap")   # the engine's own cap (3000)
    text = simulate("zombies-vs-vampires", games=2, players=2, seed=1, max_turns=50).to_text()
    assert "DID NOT END" in text and "not counted as finished" in text


def test_zvv_counters_undo():
    st = ZombiesVsVampires(players=3, seed=4)
    ch = random.Random(4)
    for _ in range(400):
        if st.outcome():
            break
        m = st.random_move(ch.random)
        before = (st.to_dict(), st.stats())
        st.push(m)
        st.pop()
        assert (st.to_dict(), st.stats()) == before
        st.push(m)
    assert st.stats()["jump_moves"] > 0


def test_zvv_stats_same_with_or_without_the_legality_check():
    for seed in range(4):
        a = ZombiesVsVampires(players=2 + seed % 3, seed=seed)
        b = ZombiesVsVampires(players=2 + seed % 3, seed=seed)
        ra, rb = random.Random(seed), random.Random(seed)
        for _ in range(300):
            if a.outcome():
                break
            a.push(a.random_move(ra.random))                   # checked (memos used)
            m = b.random_move(rb.random)
            b._reach_memo = b._jump_memo = None
            b._apply(m)                                        # unchecked, recomputed
        assert a.stats() == b.stats() and a.to_dict()["state"] == b.to_dict()["state"]


def test_cimiterio_figures():
    s = simulate("cimiterio", games=6, players=2, seed=2).summary()
    assert s["stats"]["gate_broken"]["total"] == s["game_wins"]         # C14: the broken gate is the game's win
    assert len(s["stats"]["captures_seat"]["per_seat"]) == 2


# ------------------------------------------------------------------ hidden hands
def test_simulate_bots_see_only_observations(monkeypatch):
    seen = []

    def spy(obs, rng):
        assert isinstance(obs, dict) and "hands" not in obs and "deck_order" not in obs
        assert isinstance(obs["deck"], int) and obs["seat"] == obs["to_move"]
        seen.append(obs["seat"])
        return rng.choice(obs["legal"])

    monkeypatch.setattr(ZombieRun, "observation_bots", {"random": spy, "greedy": spy})
    s = simulate("zombie-run", games=3, players=3, seed=1).summary()
    assert s["completed"] == 3 and len(set(seen)) == 3
    with pytest.raises(ValueError, match="hidden"):
        simulate("zombie-run", games=1, players=3, seed=1, bot="planner")


def test_game_bots_in_simulate():
    s = simulate("zombies-vs-vampires", games=2, players=2, seed=4, bot="racer").summary()
    assert s["completed"] == 2 and s["stats"]["home_at_end"]["per_seat"]
    with pytest.raises(ValueError, match="racer"):
        simulate("zombies-vs-vampires", games=1, players=2, seed=1, bot="nope")
    with pytest.raises(ValueError):
        simulate("cimiterio", games=1, players=2, seed=1, bot="racer")


def test_zombie_run_greedy_observation_bot_runs():
    s = simulate("zombie-run", games=10, players=5, seed=2, bot="greedy").summary()
    assert s["completed"] + s["did_not_end"] == 10 and not s["crashed"]


# ------------------------------------------------------------------ direct legality (ZvV)
@pytest.mark.parametrize("variant", [[], ["exact"], ["twostar-choice"], ["home-locked"],
                                     ["v15-reroll"]])
def test_zvv_direct_legality_equals_the_generated_list(variant):
    for seed in range(1 if variant == ["exact"] else 3):
        st = ZombiesVsVampires(players=2 + seed, seed=seed, variants=variant)
        ch = random.Random(seed)
        g = st.geo
        for ply in range(12 if variant == ["exact"] else 60):
            if st.outcome():
                break
            legal = set(st._gen())
            p = st.turn
            if ply % 2:
                st.random_move(random.Random(ply).random)   # sets the reach memo (read by push)
            cands = {PASS << 24, PMBUILD << 24}
            for a in st.pos[p]:
                for b in ch.sample(g.squares, 40) + [g.LS + 1, g.LS + 20, 0xFFF]:
                    cands.add(MOVE << 24 | a << 12 | b)
            cands |= {BUILD << 24 | ci << 12 for ci in ch.sample(range(len(g.cands)), 60)}
            cands |= {REMOVE << 24 | ci << 12 for ci in st.walls}
            cands |= legal
            for m in cands:
                assert st._legal_direct(m) == (m in legal), (seed, ply, st.move_text(m))
            st._cache = None
            m = st.random_move(ch.random)
            assert m in legal
            st.push(m)


def test_zvv_bitset_wall_spots_equal_the_candidate_scan():
    for seed in range(6):
        st = ZombiesVsVampires(players=2 + seed % 3, seed=seed,
                               variants=["board11"] if seed == 5 else None)
        ch = random.Random(seed)
        for _ in range(250):
            if st.outcome():
                break
            for L in (1, 2, 3):
                assert st._build_moves(L) == st._build_moves_ref(L)
            st.push(st.random_move(ch.random))
        assert st.walls                               # walls were built along the way


def test_zvv_random_move_is_the_listed_choice():
    for seed in range(4):
        a = ZombiesVsVampires(players=2 + seed % 3, seed=seed)
        ra, rb = random.Random(seed), random.Random(seed)
        for _ in range(150):
            if a.outcome():
                break
            ms = a._gen()
            assert a.random_move(ra.random) == ms[int(rb.random() * len(ms))]
            a._cache = None
            a.push(ms[0] if ms[0] >> 24 != MOVE else a.random_move(random.Random(1).random))


# ------------------------------------------------------------------ playtest PDF
def test_playtest_pdf_ab(tmp_path):
    out = tmp_path / "ab"
    r = CliRunner().invoke(playtest, ["zombie-run", "--games", "30", "--players", "3",
                                      "--players", "4", "--variant", "default",
                                      "--variant", "roach-distinct", "--seed", "11",
                                      "--out", str(out)])
    assert r.exit_code == 0, r.output
    pdf = out / "playtest-zombie-run.pdf"
    assert pdf.exists()
    pages = pdf_pages(pdf)
    assert len(pages) == 8
    assert "Playtest report: zombie-run" in pages[0] and "seed: 11" in pages[0]
    assert "default vs roach-distinct" in pages[0]
    assert "Runs and metrics" in pages[1] and "branching" in pages[1]
    assert "3 players (30/30 finished)" in pages[2]
    assert "seat 0" in pages[3] and "%" in pages[3]
    assert "zombie cards played onto each seat" in pages[4] and "reshuffles" in pages[4]
    assert "Z11" in pages[5] and "Rule points exercised" in pages[5]
    assert "Seat fairness" in pages[6] and "Holm p" in pages[6]
    assert "A/B comparison" in pages[7] and "Mann-Whitney" in pages[7]
    assert "win rate seat 3" in pages[7] and "two-proportion" in pages[7]
    assert len(list(out.glob("page-*.png"))) == 8
    assert "report:" in r.output


def test_playtest_pdf_single_variant_is_reproducible(tmp_path):
    args = ["zombies-vs-vampires", "--games", "4", "--players", "2", "--seed", "3",
            "--max-turns", "60"]
    a = CliRunner().invoke(playtest, args + ["--out", str(tmp_path / "a")])
    b = CliRunner().invoke(playtest, args + ["--out", str(tmp_path / "b"), "--workers", "2"])
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    pa = tmp_path / "a" / "playtest-zombies-vs-vampires.pdf"
    pb = tmp_path / "b" / "playtest-zombies-vs-vampires.pdf"
    pages = pdf_pages(pa)
    assert len(pages) == 7 and not any("A/B comparison" in t for t in pages)
    assert "NOT every game ended" in pages[0] and "4/4" in pages[0]   # concluded, honestly
    assert "Did not end" in pages[1] and "4/4" in pages[1]        # flagged, with a seed
    assert "walls built" in pages[4] and "jump" in pages[4]
    assert "NEVER EXERCISED" in pages[5] and "V15" in pages[5]
    assert pa.read_bytes() == pb.read_bytes()                     # reproducible PDF


def test_playtest_rejects_bad_input(tmp_path):
    r = CliRunner().invoke(playtest, ["zombie-run", "--players", "2", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "3-7 players" in r.output
    r = CliRunner().invoke(playtest, ["zombie-run", "--variant", "nope", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "nope" in r.output


# ------------------------------------------------------------------ small soak
def test_soak_small():
    """200 games per player count of every game: each ends or is flagged, no crash, no broken
    invariant (the 10,000-game run is benchmarks/soak_engines.py)."""
    rows = soak(games=200, workers=2, seed="test-soak", max_turns=150, check_every=7)
    assert len(rows) == 4 + 5 + 3
    for r in rows:
        assert r["crashes"] == 0 and r["invariant_failures"] == 0, r
        assert r["finished"] + r["did_not_end"] == r["games"] == 200
        if r["did_not_end"]:
            assert r["did_not_end_seeds"]
    zr = [r for r in rows if r["game"] == "zombie-run"]
    assert all(r["finished"] >= 198 for r in zr)


def test_a_soak_row_where_no_game_ended_says_so():
    from pnp.engines.soak import row_text, soak
    [row] = soak(games=2, workers=1, names=("zombie-run",), players=[3], max_turns=1)
    assert row["median_turns"] is None
    assert "no game ended" in row_text(row) and "None" not in row_text(row)
