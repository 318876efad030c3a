"""The playtest report concludes: headline win rate with its interval, Holm-corrected seat and
A/B tests, minutes, every comparison in the PDF, Ludii-style metrics, and a base install that
never imports matplotlib or numpy."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner
from pdftext import pdf_pages

from pnp.engines.cli import playtest
from pnp.engines.simulate import simulate
from pnp.engines.stats_tests import binomial_test, holm


def flat(text: str) -> str:
    """PDF text with its line breaks (wrapped paragraphs) turned into spaces."""
    return " ".join(text.split())


# ------------------------------------------------------------------ the tests themselves
def test_holm_on_known_p_values():
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4 0.02, x3 0.03, x2 0.06, x1 0.04 -> step-down 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]                 # capped at 1
    assert holm([0.02]) == [0.02] and holm([]) == []


def test_binomial_test_on_known_values():
    assert binomial_test(3, 10, 0.5) == pytest.approx(0.34375)     # 176/512
    assert binomial_test(0, 10, 0.5) == pytest.approx(2 / 1024)
    assert binomial_test(5, 10, 0.5) == pytest.approx(1.0)
    # asymmetric: 0 of 20 at p = 1/4 -> P(0) + the upper outcomes no more likely than it
    p0 = 0.75 ** 20
    assert binomial_test(0, 20, 0.25) == pytest.approx(p0 + sum(
        q for q in (binomial_test.__globals__["binomial_pmf"](k, 20, 0.25) for k in range(1, 21))
        if q <= p0))
    assert binomial_test(0, 0, 0.5) == 1.0


# ------------------------------------------------------------------ a Cimiterio report
@pytest.fixture(scope="module")
def cimiterio_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("cim")
    r = CliRunner().invoke(playtest, ["cimiterio", "--games", "20", "--max-turns", "40",
                                      "--players", "2", "--players", "3",
                                      "--variant", "default", "--variant", "quick",
                                      "--seed", "5", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[r.output.index("\n{") + 1:])
    return out, data, pdf_pages(out / "playtest-cimiterio.pdf")


def test_first_page_states_the_conclusions(cimiterio_report):
    out, data, pages = cimiterio_report
    first = flat(pages[0])
    assert "Who wins: the players against the game" in first
    # random guardians never stop the zombies: the headline says so with its interval
    assert "2 players: the players win 0.0% of games (0/20, 95% CI 0.0-16.1%)" in first
    assert "3 players: the players win 0.0% of games (0/20, 95% CI 0.0-16.1%)" in first
    assert "The players NEVER beat the game" in first and "a 0% win rate" in first
    tests = data["conclusions"]["ab"]["tests"]
    assert f"significant after Holm correction ({tests} tests at 0.05)" in first
    assert "Seat fairness not tested" in first                 # no game had a single winner
    c = data["conclusions"]
    median = c["runs"][0]["length"]["turns_median"]
    assert f"2 players: median {median:g} turns" in first
    assert f"about {median * 90 / 60:g} min" in first and "90 s per turn" in first
    assert "Every game ended" in " ".join(flat(p) for p in pages[:2])


def test_json_conclusions_block(cimiterio_report):
    _, data, _ = cimiterio_report
    c = data["conclusions"]
    assert c["kind"] == "players-vs-game" and "C14" in c["kind_reason"]
    assert c["seconds_per_turn"] == 90 and data["seconds_per_turn"] == 90
    assert [(r["variant"], r["players"]) for r in c["runs"]] == [
        ("default", 2), ("default", 3), ("quick", 2), ("quick", 3)]
    for r in c["runs"]:
        assert r["players_win"] == {"wins": 0, "games": 20, "rate": 0.0, "ci95": [0.0, 0.1611]}
        assert r["game_wins"]["wins"] == 20 and r["all_ended"]
        assert r["length"]["minutes_median"] == r["length"]["turns_median"] * 1.5
        assert 0 <= r["metrics"]["decisiveness"] <= 1
    codes = [f["code"] for f in c["findings"]]
    assert codes.count("winrate.never") == 1 and "seats.untested" in codes
    assert "ended.all" in codes and "rules.never" in codes and "ab.none" in codes
    never = next(f for f in c["findings"] if f["code"] == "winrate.never")
    assert len(never["runs"]) == 4
    assert c["ab"]["tests"] == sum(len(x["rows"]) for x in data["comparisons"])
    assert all("p_holm" in row for x in data["comparisons"] for row in x["rows"])
    assert c["all_ended"] and c["headline"][0].startswith("2 players: the players win 0.0%")


def test_every_comparison_is_in_the_pdf(cimiterio_report):
    _, data, pages = cimiterio_report
    ab = [flat(p) for p, h in zip(pages, data["pages"]) if h.startswith("A/B comparison")]
    rows = [row for x in data["comparisons"] for row in x["rows"]]
    shown = sum(len(re.findall(r"two-proportion z=|Mann-Whitney U=", p)) for p in ab)
    assert shown == len(rows) == (2 + 3) + (3 + 3)   # per count: seats, the game's wins, dne, length
    assert not any("in the JSON" in p for p in pages)
    seats = [flat(p) for p, h in zip(pages, data["pages"]) if h.startswith("Seat fairness")]
    n_seats = sum(len(r["seats"]) for r in data["conclusions"]["runs"])
    assert sum(len(re.findall(r"\d+ / \d+", p)) for p in seats) == n_seats == 2 * (2 + 3)


def test_a_long_ab_table_runs_over_pages(tmp_path):
    """60 comparisons do not fit one page: every row is still drawn, on as many pages as needed."""
    from pnp.engines.playtest import PlaytestResult, _mpl, _pages_ab
    plt, PdfPages = _mpl()
    row = {"metric": "win rate seat 0", "a": 0.5, "b": 0.4, "diff": -0.1,
           "test": "two-proportion z=1.00", "p": 0.3, "p_holm": 1.0, "significant_holm": False}
    res = PlaytestResult("x", 10, [2], [[], ["v"]], "random", 0, 1, 100)
    res.comparisons = [{"a": "default", "b": "v", "players": n, "rows": [dict(row)] * 6}
                       for n in range(10)]
    res.conclusions = {"ab": {"tests": 60}}
    pdf = tmp_path / "ab.pdf"
    with PdfPages(pdf) as out:
        pages = list(_pages_ab(plt, res))
        for _, fig in pages:
            out.savefig(fig)
            plt.close(fig)
    text = [flat(t) for t in pdf_pages(pdf)]
    assert len(pages) >= 2 and pages[1][0] == f"A/B comparison (2/{len(pages)})"
    assert sum(t.count("two-proportion z=1.00") for t in text) == 60
    assert all("Holm p" in t for t in text)                  # headings repeated on each page


# ------------------------------------------------------------------ metrics
@pytest.mark.parametrize("game,players,max_turns", [("cimiterio", 2, 500), ("zombie-run", 4, 500),
                                                    ("zombies-vs-vampires", 2, 60)])
def test_metrics_are_sane(game, players, max_turns):
    s = simulate(game, games=8, players=players, seed=4, max_turns=max_turns).summary()
    m = s["metrics"]
    assert m["games"] == 8 and m["decisions"] > 0
    assert m["branching_mean"] > 1 and m["branching_median"] >= 1
    assert m["lead_changes"]["games"] == 8 and m["lead_changes"]["mean"] >= 0
    assert 0 <= m["decisiveness"] <= 1 and 0 <= m["drawishness"] <= 1
    assert m["decisiveness"] + m["drawishness"] == pytest.approx(1.0)   # no crash here
    assert m["moves_per_turn"] >= 1
    assert m["unfinished"] == s["did_not_end"]


def test_lead_changes_are_counted():
    m = simulate("zombie-run", games=10, players=4, seed=2).summary()["metrics"]
    assert m["lead_changes"]["max"] > 0           # hands swing: the leader does change
    solo = simulate("cimiterio", games=2, players=1, seed=2).summary()["metrics"]
    assert solo["lead_changes"]["games"] == 0     # nobody to lead against


# ------------------------------------------------------------------ a light base install
HEAVY = ("matplotlib", "numpy")


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


def test_cli_and_simulate_never_import_matplotlib_or_numpy():
    r = run_python(f"""
        import sys
        import pnp.cli
        after_import = sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})
        from click.testing import CliRunner
        res = CliRunner().invoke(pnp.cli.main, ["simulate", "cimiterio", "--games", "3"])
        assert res.exit_code == 0, res.output
        after_run = sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})
        print(after_import, after_run)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[] []"


def test_playtest_without_matplotlib_says_how_to_install_it(tmp_path):
    out = tmp_path / "report"
    r = run_python(f"""
        import sys
        sys.modules["matplotlib"] = None          # as if the report extra were not installed
        import pnp.cli
        sys.argv = ["pnp", "playtest", "cimiterio", "--games", "2", "--out", {str(out)!r}]
        pnp.cli.main()
    """)
    assert r.returncode == 2
    assert r.stderr.strip() == "the playtest report needs matplotlib: pip install 'pnp[report]'"
    assert "Traceback" not in r.stderr and not out.exists()


# ------------------------------------------------------------------ no game ends
@pytest.mark.parametrize("game, players", [("zombie-run", [3]), ("cimiterio", [2, 3])])
def test_a_report_where_no_game_ends_says_so(game, players, tmp_path):
    """Every game stopped by a turn cap of 1: no length, rate or share is shown as None or as
    a result of no games; the JSON keeps its nulls."""
    args = [game, "--games", "3", "--max-turns", "1", "--out", str(tmp_path), "--json"]
    r = CliRunner().invoke(playtest, args + [a for n in players for a in ("--players", str(n))])
    assert r.exit_code == 0, r.output
    text, data = r.output[:r.output.index("\n{")], json.loads(r.output[r.output.index("\n{") + 1:])
    assert "None" not in text
    for n in players:
        assert f"default, {n} players: 0/3 finished, 3 did not end, no length (no game ended), " \
               "no winner 0" in text.splitlines()
    first = flat(pdf_pages(tmp_path / f"playtest-{game}.pdf")[0])
    for n in players:
        assert (f"{n} players: no game ended, so no one won (3/3 did not end: turn cap or "
                "repetition guard)") in first
    lengths = "; ".join(f"{n} players: no game ended" for n in players)
    assert f"Length, default: {lengths}. " in first
    assert "None" not in first and "win 0.0%" not in first and "NEVER" not in first
    assert "every finished game" not in first
    if game == "zombie-run":
        assert "(no game ended, so no one won; Wilson 95% intervals)" in first
    assert all(run["turns"]["median"] is None for run in data["runs"])
    assert all(run["length"]["turns_median"] is None for run in data["conclusions"]["runs"])
