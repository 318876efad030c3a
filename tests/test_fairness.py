"""The seat-fairness sweep (pnp.engines.fairness, benchmarks/fairness.py): rows per player count
and variant, the fair-share tests Holm-corrected, cooperative games reported as such. The
statistical evidence itself lives in docs/rules/<game>.md, not in timed tests."""
from __future__ import annotations

from pnp.engines.fairness import fair_bot, markdown, sweep


def test_fair_bot_is_the_games_own_unless_it_has_none():
    assert fair_bot("zombies-vs-vampires") == "racer"       # ZombiesVsVampires.bots
    assert fair_bot("zombie-run") == "greedy"               # observation bots: random, greedy


def test_sweep_rows_and_table():
    rows = sweep("zombies-vs-vampires", games=4, players=[2, 3], arms=[[], ["lone-handicap"]],
                 bot="racer", seed=3)
    assert [(r.variant, r.players) for r in rows] == [
        ("default", 2), ("default", 3), ("lone-handicap", 2), ("lone-handicap", 3)]
    for r in rows:
        assert r.games == 4 and r.finished + r.did_not_end == 4
        assert [s["seat"] for s in r.seats] == list(range(r.players))
        assert sum(s["wins"] for s in r.seats) == r.seats[0]["games"] <= r.finished
        assert all(s["fair"] == 1 / r.players for s in r.seats)
        assert all(s["p_holm"] is None or s["p_holm"] >= s["p"] for s in r.seats)
    text = markdown(rows, "racer", 3)
    lines = text.splitlines()
    assert lines[0].startswith("| variant | players | games | ended | median turns | seat wins")
    assert len([x for x in lines if x.startswith("| lone-handicap | 3 | 4 |")]) == 1
    assert "Bot `racer` in every seat, seed 3" in text and "Holm-corrected" in text


def test_cooperative_rows_report_the_players_win_rate_not_seats():
    from pnp.engines.conclusions import PLAYERS_VS_GAME
    from pnp.engines.fairness import SeatRow
    row = SeatRow(game="g", variant="default", players=2, games=10, finished=10, did_not_end=0,
                  turns_median=12, kind=PLAYERS_VS_GAME,
                  players_win={"wins": 3, "games": 10, "rate": 0.3, "ci95": [0.1078, 0.6032]})
    text = markdown([row], "greedy", 0)
    assert "| default | 2 | 10 | 10/10 | 12 | 30.0% (11-60%) | cooperative: all players win or " \
           "lose together |" in text
    assert "players win (95% CI)" in text and "binomial" not in text
