"""``pnp playtest``: many simulated games turned into a PDF (and PNGs) a designer reads.

``run_playtest(game, games, players=[...], arms=[[variants...], ...], bot, seed, workers, out)``
runs :func:`pnp.engines.simulate.simulate` for every player count and every variant "arm" and
draws, with matplotlib (Agg backend, no dates in the files, so the same settings give the same
PDF bytes):

1. conclusions (pnp.engines.conclusions): who wins how often with Wilson intervals (the players
   against the game, for a game the players can lose together), whether seats are fair (Holm-
   corrected), length in turns and estimated minutes (pack.yaml's ``seconds_per_turn``), whether
   every game ended, rule points that never fired, A/B differences that survive the correction;
2. runs and metrics: one row per run (finished / did not end / length / decisiveness /
   drawishness / lead changes / branching factor / moves per turn);
3. game length histograms, one panel per player count (finished games only);
4. win share per seat with Wilson 95% error bars, one panel per player count;
5. the game's own figures (``state.stats()``: targeting, eliminations, walls, jumps, gate...);
6. rule points exercised (share of games in which each fired; never exercised in red);
7. the seat-fairness tests, every one, with raw and Holm-adjusted p;
8. with two or more arms: every A/B comparison of each arm against the first (win rate per
   seat, the game's win rate (``game_win_rules``) and did-not-end rate by two-proportion z-test,
   game length by Mann-Whitney U), per player count, with raw and Holm-adjusted p.

Tables run over as many pages as they need. Each page is also written as
``page-NN-<name>.png``. matplotlib (the ``report`` extra) is imported only to draw: without it
``run_playtest`` with an output folder stops before simulating, with one line saying how to
install it (exit 2), and nothing else of pnp imports it.
"""
from __future__ import annotations

import importlib.util
import textwrap
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path

from pnp.engines.conclusions import conclude
from pnp.engines.core import get_game
from pnp.engines.simulate import DEFAULT_MAX_TURNS, check_games, mann_whitney, simulate, two_proportion_z
from pnp.errors import DataError, PnpError, Problems

BASE_NAMES = ("default", "base", "none", "-")
PAGE = (11.69, 8.27)          # A4 landscape, inches
COLOURS = ("#1f5f8b", "#c8553d", "#588b3b", "#8e5ea2", "#d9a21b", "#5d5d5d", "#2a9d8f")
RED = "#b00020"
MATPLOTLIB_MISSING = "the playtest report needs matplotlib: pip install 'pnp[report]'"


class ReportExtraMissing(PnpError):
    """matplotlib (the ``report`` extra) is not installed, so no PDF can be drawn (exit 2)."""


def parse_arm(text: str) -> list[str]:
    """``"quick,metric=manhattan"`` -> ["quick", "metric=manhattan"]; "default" -> []."""
    items = [v for v in str(text).replace(",", " ").split() if v]
    return [] if len(items) == 1 and items[0].lower() in BASE_NAMES else items


def arm_label(arm: list[str]) -> str:
    return "+".join(arm) if arm else "default"


@dataclass
class PlaytestResult:
    game: str
    games: int
    players: list[int]
    arms: list[list[str]]
    bot: str
    seed: int | str
    workers: int
    max_turns: int
    reports: dict = field(default_factory=dict)     # (arm index, players) -> SimulationReport
    pdf: Path | None = None
    pngs: list[Path] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)  # page headings, in order
    comparisons: list[dict] = field(default_factory=list)
    seconds_per_turn: float | None = None
    conclusions: dict = field(default_factory=dict)

    def summary_lines(self) -> list[str]:
        out = []
        for (ai, n), rep in sorted(self.reports.items()):
            s = rep.summary()
            length = (f"median length {s['turns']['median']} turns" if s["completed"] else
                      "no length (no game ended)")
            out.append(f"{arm_label(self.arms[ai])}, {n} players: {s['completed']}/{s['games']} "
                       f"finished, {s['did_not_end']} did not end, {length}, no winner "
                       f"{s['no_winner']}")
        return out


# ----------------------------------------------------------------------------- running
def run_playtest(game: str, games: int = 200, players=None, arms=None, bot: str = "random",
                 seed: int | str = 0, workers: int = 1, out: str | Path | None = None,
                 max_turns: int = DEFAULT_MAX_TURNS, progress=None,
                 executor: Executor | None = None) -> PlaytestResult:
    if out is not None:
        require_matplotlib()            # before minutes of simulation, not after
    cls = get_game(game)
    players = sorted(set(players or range(cls.min_players, cls.max_players + 1)))
    arms = [list(a) for a in (arms or [[]])]
    check_games(games, runs=len(players) * len(arms))     # every run's results are kept
    res = PlaytestResult(game, games, players, arms, bot, seed, workers, max_turns)
    res.seconds_per_turn = pack_seconds_per_turn(game)
    for ai, arm in enumerate(arms):
        for n in players:
            res.reports[(ai, n)] = simulate(game, games=games, players=n, seed=seed, bot=bot,
                                            variants=arm, workers=workers, executor=executor,
                                            max_turns=max_turns, progress=progress)
    res.comparisons = compare_arms(res)
    res.conclusions = conclude(game, cls, [(arm_label(arms[ai]), n, rep.summary())
                                           for (ai, n), rep in sorted(res.reports.items())],
                               res.comparisons, res.seconds_per_turn)
    if out is not None:
        write_pdf(res, Path(out))
    return res


def require_matplotlib() -> None:
    if importlib.util.find_spec("matplotlib") is None:
        raise ReportExtraMissing(MATPLOTLIB_MISSING)


def pack_seconds_per_turn(game: str) -> float | None:
    """The ``seconds_per_turn`` the game's pack.yaml declares (validated by the pack schema: a
    bad value is a DataError naming the file, line and key); None when the game has no pack or
    the pack declares none."""
    from pnp.pack import PACK, PACK_FILE, UnknownGameError, find_pack, validator
    from pnp.yamlsource import load_source
    try:
        root = find_pack(game)
    except UnknownGameError:            # an engine played without a pack folder
        return None
    problems = Problems()
    source = load_source(root / PACK_FILE, problems)
    data = validator(source, problems).check(source.value, PACK) if source is not None else None
    if problems:
        raise DataError(problems.items)
    return data.get("seconds_per_turn") if isinstance(data, dict) else None


def compare_arms(res: PlaytestResult) -> list[dict]:
    """Each arm against the first, per player count: rows of (metric, a, b, diff, test, p)."""
    rows = []
    for ai in range(1, len(res.arms)):
        for n in res.players:
            A = res.reports[(0, n)].summary()
            B = res.reports[(ai, n)].summary()
            table: list[dict] = []
            cmp = {"a": arm_label(res.arms[0]), "b": arm_label(res.arms[ai]), "players": n,
                   "rows": table}
            fa, fb = A["completed"], B["completed"]
            for q in range(n):
                ka, kb = A["win_share"][q]["wins"], B["win_share"][q]["wins"]
                z, p = two_proportion_z(kb, fb, ka, fa)
                table.append(_row(f"win rate seat {q}", ka, fa, kb, fb, z, p))
            if "game_wins" in A:
                ka, kb = A["game_wins"], B["game_wins"]
                z, p = two_proportion_z(kb, B["games"], ka, A["games"])
                table.append(_row(f"the game's win rate ({', '.join(A['game_win_rules'])})", ka, A["games"],
                                  kb, B["games"], z, p))
            else:
                ka, kb = A["no_winner"], B["no_winner"]
                z, p = two_proportion_z(kb, fb, ka, fa)
                table.append(_row("no-winner rate", ka, fa, kb, fb, z, p))
            ka, kb = A["did_not_end"], B["did_not_end"]
            z, p = two_proportion_z(kb, B["games"], ka, A["games"])
            table.append(_row("did-not-end rate", ka, A["games"], kb, B["games"], z, p))
            ta, tb = A["turns_finished"], B["turns_finished"]
            u, z, p = mann_whitney(tb, ta)
            ma = _median(ta)
            mb = _median(tb)
            table.append({"metric": "game length (turns, median)", "a": ma, "b": mb,
                                "diff": None if ma is None or mb is None else mb - ma,
                                "test": f"Mann-Whitney U={u:.0f}, z={z:.2f}", "p": p,
                                "significant": p < 0.05})
            rows.append(cmp)
    return rows


def _row(metric, ka, na, kb, nb, z, p):
    ra = ka / na if na else None
    rb = kb / nb if nb else None
    return {"metric": metric, "a": ra, "b": rb,
            "diff": None if ra is None or rb is None else rb - ra,
            "test": f"two-proportion z={z:.2f}", "p": p, "significant": p < 0.05,
            "counts": [ka, na, kb, nb]}


def _median(xs):
    if not xs:
        return None
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


# ----------------------------------------------------------------------------- drawing
def _mpl():
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages
    matplotlib.rcParams.update({
        "pdf.fonttype": 3,             # Type 3 subsets: small, fast, text still extractable
        "font.family": "DejaVu Sans",
        "font.size": 9,
        "axes.titlesize": 10,
        "figure.titlesize": 14,
        "svg.hashsalt": "pnp",
        "path.simplify": True,
    })
    return plt, PdfPages


def _fmt(x, pct=False):
    if x is None:
        return "-"
    if pct:
        return f"{100 * x:.1f}%"
    if isinstance(x, float):
        return f"{x:.2f}" if abs(x) < 1000 else f"{x:.0f}"
    return str(x)


def _colour(j: int, total: int):
    if total <= len(COLOURS):
        return COLOURS[j]
    import matplotlib
    return matplotlib.colormaps["tab20"](j % 20)


def _legend_beside(ax) -> None:
    """The legend to the right of the axes, outside them, so it never covers a bar."""
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              frameon=False)


def _grid(k: int):
    cols = min(k, 3)
    rows = (k + cols - 1) // cols
    return rows, cols


def write_pdf(res: PlaytestResult, out: Path) -> Path:
    plt, PdfPages = _mpl()
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("page-*.png"):
        old.unlink()
    pdf_path = out / f"playtest-{res.game}.pdf"
    meta = {"Title": f"Playtest report: {res.game}", "Author": "pnp playtest",
            "Creator": "pnp playtest (matplotlib)", "Producer": "pnp playtest",
            "CreationDate": None, "ModDate": None}
    sections = [("conclusions", _pages_conclusions), ("runs", _pages_runs),
                ("length", _one_page(_page_length)), ("wins", _one_page(_page_wins)),
                ("figures", _one_page(_page_figures)), ("rules", _one_page(_page_rules)),
                ("seats", _pages_seats)]
    if len(res.arms) > 1:
        sections.append(("ab", _pages_ab))
    res.pages = []
    res.pngs = []
    with PdfPages(pdf_path, metadata=meta) as pdf:
        for name, section in sections:
            for heading, fig in section(plt, res):
                i = len(res.pages) + 1
                res.pages.append(heading)
                fig.text(0.99, 0.01, f"pnp playtest {res.game} - page {i}", ha="right",
                         va="bottom", fontsize=7, color="#777777")
                pdf.savefig(fig)
                png = out / f"page-{i:02d}-{name}.png"
                fig.savefig(png, dpi=80, metadata={"Software": None})
                res.pngs.append(png)
                plt.close(fig)
    res.pdf = pdf_path
    return pdf_path


def _one_page(draw):
    """A section of one page drawn by ``draw(fig, res) -> heading``."""
    def section(plt, res):
        fig = plt.figure(figsize=PAGE)
        yield draw(fig, res), fig
    return section


class _Flow:
    """Lines of text and table rows down as many pages as they need: a row that does not fit
    starts a new page, which repeats the table's column headings, so nothing is cut off."""

    TOP, BOTTOM = 0.87, 0.05

    def __init__(self, plt, heading: str, subtitle: str = ""):
        self.plt = plt
        self.heading = heading
        self.subtitle = subtitle
        self.figs: list = []
        self.header: list | None = None      # (x, text) cells repeated on each new page
        self.y = 0.0
        self._new_page()

    def _new_page(self) -> None:
        fig = self.plt.figure(figsize=PAGE)
        more = " (continued)" if self.figs else ""
        fig.suptitle(self.heading + self.subtitle + more, x=0.04, ha="left", y=0.95,
                     fontweight="bold")
        self.figs.append(fig)
        self.y = self.TOP
        if self.header:
            self._cells(self.header, 0.025, fontsize=8, fontweight="bold")

    def _cells(self, cells, height, **style) -> None:
        for x, t in cells:
            self.figs[-1].text(x, self.y, str(t), **style)
        self.y -= height

    def room(self, height: float) -> None:
        if self.y - height < self.BOTTOM:
            self._new_page()

    def text(self, t: str, x: float = 0.04, size: float = 10, height: float | None = None,
             width: int = 145, **style) -> None:
        """A paragraph, wrapped to the page at ``width`` characters of ``size`` points."""
        chars = width * 10 / size * (0.9 if style.get("fontweight") == "bold" else 1.0)
        for line in textwrap.wrap(t, width=int(chars)) or [""]:
            h = height or size * 0.0032
            self.room(h)
            self._cells([(x, line)], h, fontsize=size, **style)

    def gap(self, height: float = 0.012) -> None:
        self.y -= height

    def table(self, cells: list) -> None:
        """Start a table: its column headings, here and on every page it runs over to."""
        self.header = cells
        self.room(0.05)
        self._cells(cells, 0.025, fontsize=8, fontweight="bold")

    def row(self, cells: list, colour: str = "black", height: float = 0.022) -> None:
        self.room(height)
        self._cells(cells, height, fontsize=8, color=colour)

    def end_table(self) -> None:
        self.header = None
        self.gap()

    def pages(self):
        n = len(self.figs)
        return [(self.heading + (f" ({i}/{n})" if n > 1 else ""), fig)
                for i, fig in enumerate(self.figs, 1)]


ALARMS = {"winrate.never", "winrate.always", "seat.extreme", "seats.unfair", "ended.not",
          "rules.never"}


def _pages_conclusions(plt, res: PlaytestResult):
    c = res.conclusions
    flow = _Flow(plt, f"Playtest report: {res.game}")
    flow.text(f"Games per run: {res.games}     player counts: {', '.join(map(str, res.players))}"
              f"     Variants: {'  vs  '.join(arm_label(a) for a in res.arms)}", size=9)
    flow.text(f"Bot: {res.bot}     seed: {res.seed}     turn cap: {res.max_turns}     (same seed "
              "and settings: same games and same report, whatever the number of workers)", size=9)
    flow.gap(0.02)
    title = ("Who wins: the players against the game" if c["kind"] == "players-vs-game"
             else "Who wins: seat against seat (finished games with a single winner)")
    flow.text(title, size=12, fontweight="bold")
    flow.text(f"({c['kind_reason']}; Wilson 95% intervals)", size=8, color="#555555")
    flow.gap(0.008)
    for line in c["headline"]:
        flow.text(line, x=0.05, size=11, fontweight="bold")
    flow.gap(0.02)
    flow.text("Findings", size=12, fontweight="bold")
    for f in c["findings"]:
        colour = RED if f["code"] in ALARMS else "black"
        flow.text("- " + f["text"], x=0.05, size=10, color=colour)
    return flow.pages()


def _pages_runs(plt, res: PlaytestResult):
    flow = _Flow(plt, "Runs and metrics",
                 " (win shares and lengths count finished games only)")
    runs = {(r["variant"], r["players"]): r for r in res.conclusions["runs"]}
    xs = [0.04, 0.19, 0.25, 0.31, 0.38, 0.46, 0.54, 0.61, 0.70, 0.77, 0.84, 0.91]
    flow.table(list(zip(xs, ["variant", "players", "games", "finished", "did not end",
                             "median turns", "p95 turns", "est. minutes", "no winner",
                             "crashes", "invariant fail."])))
    notes = []
    for (ai, n), rep in sorted(res.reports.items()):
        s = rep.summary()
        minutes = runs[(arm_label(res.arms[ai]), n)]["length"]["minutes_median"]
        vals = [arm_label(res.arms[ai]), n, s["games"], s["completed"], s["did_not_end"],
                _fmt(s["turns"]["median"]), _fmt(s["turns"]["p95"]), _fmt(minutes),
                s["no_winner"], s["crashed"], s["invariant_failures"]]
        bad = s["did_not_end"] or s["crashed"] or s["invariant_failures"]
        flow.row(list(zip(xs, vals)), RED if bad else "black")
        if s["did_not_end"]:
            reasons = ", ".join(f"{k} {v}" for k, v in s["did_not_end_reasons"].items())
            notes.append(f"{arm_label(res.arms[ai])}, {n} players: DID NOT END {s['did_not_end']}/"
                         f"{s['games']} ({reasons}); e.g. seed {s['did_not_end_seeds'][0]}")
    flow.end_table()
    xs = [0.04, 0.19, 0.25, 0.35, 0.45, 0.55, 0.63, 0.72, 0.80, 0.89]
    flow.table(list(zip(xs, ["variant", "players", "decisiveness", "drawishness",
                             "lead changes", "(median)", "branching", "(median)",
                             "moves/turn", "decisions"])))
    for (ai, n), rep in sorted(res.reports.items()):
        m = rep.summary()["metrics"]
        lead = m["lead_changes"]
        vals = [arm_label(res.arms[ai]), n, _fmt(m["decisiveness"], True),
                _fmt(m["drawishness"], True), _fmt(lead["mean"]), _fmt(lead["median"]),
                _fmt(m["branching_mean"]), _fmt(m["branching_median"]),
                _fmt(m["moves_per_turn"]), m["decisions"]]
        flow.row(list(zip(xs, vals)))
    flow.end_table()
    flow.text("decisiveness: games with one winner or won by the game; drawishness: shared wins "
              "and games that did not end; lead changes: how often the seat with the best "
              "heuristic(seat) changes, sampled each turn (none for one player); branching: legal "
              "moves at each decision; moves/turn: plies per turn.", size=8, width=125,
              color="#555555")
    flow.gap()
    if notes:
        flow.text("Did not end (not counted as finished):", size=10, fontweight="bold", color=RED)
        for t in notes:
            flow.text(t, x=0.05, size=8)
        flow.text("reproduce: pnp.engines.simulate.play_one(game, players, seed, bot, variants, "
                  "max_turns=...)", x=0.05, size=8, color="#555555")
    else:
        flow.text("Every game ended.", size=10)
    return flow.pages()


def _pages_seats(plt, res: PlaytestResult):
    sf = res.conclusions["seat_fairness"]
    flow = _Flow(plt, "Seat fairness", f": every test, Holm-corrected ({sf['tests']} tests)")
    flow.text(f"{sf['test']}; correction: {sf['correction']}; unfair (red) when the adjusted "
              f"p < {res.conclusions['alpha']}.", size=8, color="#555555")
    xs = [0.04, 0.19, 0.26, 0.32, 0.42, 0.50, 0.62, 0.71, 0.80, 0.88]
    flow.table(list(zip(xs, ["variant", "players", "seat", "wins / games", "share", "95% CI",
                             "fair share", "p", "Holm p", "verdict"])))
    for r in res.conclusions["runs"]:
        for s in r["seats"]:
            tested = s["p"] is not None
            verdict = "not tested" if not tested else "UNFAIR" if s["unfair"] else "fair"
            vals = [r["variant"], r["players"], s["seat"], f"{s['wins']} / {s['games']}",
                    _fmt(s["share"], True), f"{100 * s['ci95'][0]:.1f}-{100 * s['ci95'][1]:.1f}%",
                    _fmt(s["fair"], True), _p(s["p"]), _p(s["p_holm"]), verdict]
            flow.row(list(zip(xs, vals)), RED if s["unfair"] else "black")
    flow.end_table()
    return flow.pages()


def _p(p: float | None) -> str:
    return "-" if p is None else f"{p:.3g}"


def _pages_ab(plt, res: PlaytestResult):
    ab = res.conclusions["ab"]
    flow = _Flow(plt, "A/B comparison", f": each variant against {arm_label(res.arms[0])} "
                 f"({ab['tests']} tests, Holm-corrected; significant in red)")
    xs = [0.04, 0.10, 0.33, 0.41, 0.49, 0.58, 0.80, 0.89]
    head = ["players", "metric", "A", "B", "B - A", "test", "p", "Holm p"]
    for cmp in res.comparisons:
        flow.room(0.08)
        flow.text(f"A = {cmp['a']}   B = {cmp['b']}   ({cmp['players']} players)", size=10,
                  fontweight="bold")
        flow.table(list(zip(xs, head)))
        for row in cmp["rows"]:
            pct = row["metric"] != "game length (turns, median)"
            vals = [cmp["players"], row["metric"], _fmt(row["a"], pct), _fmt(row["b"], pct),
                    (f"{100 * row['diff']:+.1f} pts" if pct else f"{row['diff']:+.1f}")
                    if row["diff"] is not None else "-", row["test"], _p(row["p"]),
                    _p(row["p_holm"])]
            flow.row(list(zip(xs, vals)), RED if row["significant_holm"] else "black")
        flow.end_table()
    return flow.pages()


def _page_length(fig, res: PlaytestResult) -> str:
    h = "Game length per player count"
    fig.suptitle(h + " (turns, finished games)", fontweight="bold")
    rows, cols = _grid(len(res.players))
    for i, n in enumerate(res.players):
        ax = fig.add_subplot(rows, cols, i + 1)
        data = [res.reports[(ai, n)].summary()["turns_finished"] for ai in range(len(res.arms))]
        allv = [x for d in data for x in d]
        if allv:
            lo, hi = min(allv), max(allv)
            bins = min(30, max(1, hi - lo + 1))
            for ai, d in enumerate(data):
                if d:
                    ax.hist(d, bins=bins, range=(lo, hi + 1), alpha=0.55 if len(data) > 1 else 0.9,
                            color=COLOURS[ai % len(COLOURS)],
                            label=f"{arm_label(res.arms[ai])}: median {_fmt(_median(d))}")
            _legend_beside(ax)
        else:
            ax.text(0.5, 0.5, "no finished game", ha="center", va="center", color="#b00020",
                    transform=ax.transAxes)
        s = res.reports[(0, n)].summary()
        ax.set_title(f"{n} players ({s['completed']}/{s['games']} finished)")
        ax.set_xlabel("turns")
        ax.set_ylabel("games")
    fig.tight_layout(rect=(0, 0.03, 1, 0.94))
    return h


def _page_wins(fig, res: PlaytestResult) -> str:
    h = "Win share per seat"
    fig.suptitle(h + " (finished games, Wilson 95% interval)", fontweight="bold")
    rows, cols = _grid(len(res.players))
    k = len(res.arms)
    width = 0.8 / k
    for i, n in enumerate(res.players):
        ax = fig.add_subplot(rows, cols, i + 1)
        drawn = 0
        for ai in range(k):
            s = res.reports[(ai, n)].summary()
            if not s["completed"]:      # no bar of 0% "of no games" with a 0-100% interval
                continue
            drawn += 1
            share = [s["win_share"][q]["share"] for q in range(n)]
            lo = [share[q] - s["win_share"][q]["ci95"][0] for q in range(n)]
            hi = [s["win_share"][q]["ci95"][1] - share[q] for q in range(n)]
            xs = [q - 0.4 + width * (ai + 0.5) for q in range(n)]
            ax.bar(xs, share, width=width, color=COLOURS[ai % len(COLOURS)],
                   yerr=[[max(0, v) for v in lo], [max(0, v) for v in hi]], capsize=3,
                   label=arm_label(res.arms[ai]))
            for x, v in zip(xs, share):
                ax.text(x, v + 0.01, f"{100 * v:.0f}%", ha="center", va="bottom", fontsize=7)
        if not drawn:
            ax.text(0.5, 0.75, "no finished game", ha="center", va="center", color=RED,
                    transform=ax.transAxes)
            ax.set_xlim(-0.6, n - 0.4)      # the seats where the bars would stand
        fair = 1 / n
        ax.axhline(fair, color="#777777", lw=0.8, ls="--")
        ax.set_xticks(range(n))
        ax.set_xticklabels([f"seat {q}" for q in range(n)])
        ax.set_ylim(0, 1)
        ax.set_title(f"{n} players (dashed: 1/{n})")
        if k > 1 and drawn:
            _legend_beside(ax)
    fig.tight_layout(rect=(0, 0.03, 1, 0.94))
    return h


def _page_figures(fig, res: PlaytestResult) -> str:
    h = "Game figures"
    fig.suptitle(f"{h}: what happens in a {res.game} game (mean per game, all games played)",
                 fontweight="bold")
    s0 = res.reports[(0, res.players[0])].summary()
    keys = list(s0["stats"])
    labels = s0["stat_labels"]
    if not keys:
        fig.text(0.5, 0.5, "this game reports no game-specific figures", ha="center")
        return h
    keys = keys[:9]
    rows, cols = _grid(len(keys))
    k = len(res.arms)
    for i, key in enumerate(keys):
        ax = fig.add_subplot(rows, cols, i + 1)
        per_seat = "per_seat" in s0["stats"][key]
        if per_seat:
            width = 0.8 / max(1, len(res.players) * k)
            j = 0
            for ai in range(k):
                for n in res.players:
                    a = res.reports[(ai, n)].summary()["stats"].get(key)
                    if not a:
                        continue
                    means = [x["mean"] or 0.0 for x in a["per_seat"]]
                    xs = [q - 0.4 + width * (j + 0.5) for q in range(len(means))]
                    ax.bar(xs, means, width=width, color=_colour(j, len(res.players) * k),
                           label=f"{n}p" + (f" {arm_label(res.arms[ai])}" if k > 1 else ""))
                    j += 1
            seats = max(res.players)
            ax.set_xticks(range(seats))
            ax.set_xticklabels([f"seat {q}" for q in range(seats)], fontsize=7)
            _legend_beside(ax)
        else:
            width = 0.8 / k
            for ai in range(k):
                vals = [(res.reports[(ai, n)].summary()["stats"].get(key) or {}).get("mean") or 0.0
                        for n in res.players]
                xs = [i - 0.4 + width * (ai + 0.5) for i in range(len(res.players))]
                ax.bar(xs, vals, width=width, color=COLOURS[ai % len(COLOURS)],
                       label=arm_label(res.arms[ai]))
                for x, v in zip(xs, vals):
                    ax.text(x, v, _fmt(v), ha="center", va="bottom", fontsize=6)
            ax.set_xticks(range(len(res.players)))
            ax.set_xticklabels([f"{n} players" for n in res.players], fontsize=7)
            if k > 1:
                _legend_beside(ax)
        label = labels.get(key, "")
        ax.set_title(f"{key.replace('_', ' ')}\n{label}", fontsize=8)
        top = ax.get_ylim()[1]
        ax.set_ylim(0, top * 1.25 if top > 0 else 1)
    fig.tight_layout(rect=(0, 0.03, 1, 0.94), h_pad=1.5)
    return h


def _page_rules(fig, res: PlaytestResult) -> str:
    h = "Rule points exercised"
    fig.suptitle(h + " (share of games in which each rule point fired)", fontweight="bold")
    rule_points = list(get_game(res.game).rule_points)
    ax = fig.add_axes((0.08, 0.16, 0.80, 0.72))      # the legend goes in the right margin
    groups = [(ai, n) for ai in range(len(res.arms)) for n in res.players]
    width = 0.8 / len(groups)
    never_all = set(rule_points)
    for j, (ai, n) in enumerate(groups):
        s = res.reports[(ai, n)].summary()
        g = s["games"] or 1
        shares = [s["rules_games"].get(r, 0) / g for r in rule_points]
        never_all &= set(s["never_exercised"])
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(rule_points))]
        ax.bar(xs, shares, width=width, color=_colour(j, len(groups)),
               label=f"{n}p" + (f" {arm_label(res.arms[ai])}" if len(res.arms) > 1 else ""))
    ax.set_xticks(range(len(rule_points)))
    ax.set_xticklabels(rule_points, rotation=90 if len(rule_points) > 16 else 0)
    for lab in ax.get_xticklabels():
        if lab.get_text() in never_all:
            lab.set_color("#b00020")
            lab.set_fontweight("bold")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("share of games")
    _legend_beside(ax)
    never = [r for r in rule_points if r in never_all]
    some = sorted({r for (ai, n) in groups for r in res.reports[(ai, n)].summary()["never_exercised"]}
                  - never_all, key=rule_points.index)
    text = ("NEVER EXERCISED in any run: " + ", ".join(never)) if never else \
        "Every rule point was exercised in at least one run."
    fig.text(0.08, 0.06, text, fontsize=10, color="#b00020" if never else "black",
             fontweight="bold")
    if some:
        fig.text(0.08, 0.03, "Not exercised in some runs: " + ", ".join(some), fontsize=8)
    return h


def result_json(res: PlaytestResult) -> dict:
    return {"game": res.game, "games": res.games, "players": res.players,
            "variants": [arm_label(a) for a in res.arms], "bot": res.bot, "seed": res.seed,
            "pdf": str(res.pdf) if res.pdf else None, "pngs": [str(p) for p in res.pngs],
            "pages": res.pages, "conclusions": res.conclusions,
            "seconds_per_turn": res.seconds_per_turn, "comparisons": res.comparisons,
            "runs": [{"variant": arm_label(res.arms[ai]), "players": n,
                      **{k: v for k, v in rep.summary().items()
                         if k not in ("turns_finished", "anomalies")}}
                     for (ai, n), rep in sorted(res.reports.items())]}

