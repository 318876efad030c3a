"""``pnp playtest``: many simulated games turned into a PDF (and PNGs) a designer reads.

``run_playtest(game, games, players=[...], arms=[[variants...], ...], bot, seed, workers, out)``
runs :func:`pnp.engines.simulate.simulate` for every player count and every variant "arm" and
draws, with matplotlib (Agg backend, no dates in the files, so the same settings give the same
PDF bytes):

1. a title page: game, settings, seed, one line per run (finished / did not end / length);
2. game length histograms, one panel per player count (finished games only);
3. win share per seat with Wilson 95% error bars, one panel per player count;
4. the game's own figures (``state.stats()``: targeting, eliminations, walls, jumps, gate...);
5. rule points exercised (share of games in which each fired; never exercised in red);
6. with two or more arms: an A/B comparison of each arm against the first (win rate per seat,
   no-winner / gate-break rate and did-not-end rate by two-proportion z-test, game length by
   Mann-Whitney U), per player count.

Each page is also written as ``page-NN-<name>.png``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pnp.engines.core import get_game
from pnp.engines.simulate import DEFAULT_MAX_TURNS, mann_whitney, simulate, two_proportion_z

BASE_NAMES = ("default", "base", "none", "-")
PAGE = (11.69, 8.27)          # A4 landscape, inches
COLOURS = ("#1f5f8b", "#c8553d", "#588b3b", "#8e5ea2", "#d9a21b", "#5d5d5d", "#2a9d8f")


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

    def summary_lines(self) -> list[str]:
        out = []
        for (ai, n), rep in sorted(self.reports.items()):
            s = rep.summary()
            out.append(f"{arm_label(self.arms[ai])}, {n} players: {s['completed']}/{s['games']} "
                       f"finished, {s['did_not_end']} did not end, median length "
                       f"{s['turns']['median']} turns, no winner {s['no_winner']}")
        return out


# ----------------------------------------------------------------------------- running
def run_playtest(game: str, games: int = 200, players=None, arms=None, bot: str = "random",
                 seed: int | str = 0, workers: int = 1, out: str | Path | None = None,
                 max_turns: int = DEFAULT_MAX_TURNS, progress=None) -> PlaytestResult:
    cls = get_game(game)
    players = sorted(set(players or range(cls.min_players, cls.max_players + 1)))
    arms = [list(a) for a in (arms or [[]])]
    res = PlaytestResult(game, games, players, arms, bot, seed, workers, max_turns)
    for ai, arm in enumerate(arms):
        for n in players:
            res.reports[(ai, n)] = simulate(game, games=games, players=n, seed=seed, bot=bot,
                                            variants=arm, workers=workers,
                                            max_turns=max_turns, progress=progress)
    res.comparisons = compare_arms(res)
    if out is not None:
        write_pdf(res, Path(out))
    return res


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
            if "gate_broken" in A:
                ka, kb = A["gate_broken"], B["gate_broken"]
                z, p = two_proportion_z(kb, B["games"], ka, A["games"])
                table.append(_row("gate-break rate", ka, A["games"], kb, B["games"], z, p))
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
    pages = [("title", _page_title), ("length", _page_length), ("wins", _page_wins),
             ("figures", _page_figures), ("rules", _page_rules)]
    if len(res.arms) > 1:
        pages.append(("ab", _page_ab))
    res.pages = []
    res.pngs = []
    with PdfPages(pdf_path, metadata=meta) as pdf:
        for i, (name, fn) in enumerate(pages, 1):
            fig = plt.figure(figsize=PAGE)
            heading = fn(fig, res)
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


def _page_title(fig, res: PlaytestResult) -> str:
    h = f"Playtest report: {res.game}"
    fig.suptitle(h, x=0.05, ha="left", y=0.95, fontweight="bold")
    lines = [
        f"Games per run: {res.games}     player counts: {', '.join(map(str, res.players))}",
        f"Variants: {'  vs  '.join(arm_label(a) for a in res.arms)}",
        f"Bot: {res.bot}     seed: {res.seed}     turn cap: {res.max_turns}",
        "Same seed and settings give the same games and the same report, whatever the number "
        "of worker processes.",
        "",
        "Runs (win shares and lengths count finished games only; games that hit a turn cap or a",
        "repetition guard are listed as DID NOT END with a seed that reproduces them):",
    ]
    y = 0.86
    for t in lines:
        fig.text(0.05, y, t, fontsize=10)
        y -= 0.035
    y -= 0.01
    head = ["variant", "players", "games", "finished", "did not end", "median turns",
            "p95 turns", "no winner", "crashes", "invariant failures"]
    xs = [0.05, 0.20, 0.27, 0.34, 0.42, 0.52, 0.62, 0.70, 0.78, 0.86]
    for x, t in zip(xs, head):
        fig.text(x, y, t, fontsize=9, fontweight="bold")
    y -= 0.03
    notes = []
    for (ai, n), rep in sorted(res.reports.items()):
        s = rep.summary()
        vals = [arm_label(res.arms[ai]), n, s["games"], s["completed"], s["did_not_end"],
                _fmt(s["turns"]["median"]), _fmt(s["turns"]["p95"]), s["no_winner"],
                s["crashed"], s["invariant_failures"]]
        colour = "#b00020" if s["did_not_end"] or s["crashed"] or s["invariant_failures"] else "black"
        for x, t in zip(xs, vals):
            fig.text(x, y, str(t), fontsize=9, color=colour)
        y -= 0.028
        if s["did_not_end"]:
            notes.append(f"{arm_label(res.arms[ai])}, {n} players: DID NOT END {s['did_not_end']}/"
                         f"{s['games']} ({', '.join(f'{k} {v}' for k, v in s['did_not_end_reasons'].items())});"
                         f" e.g. seed {s['did_not_end_seeds'][0]}")
        if y < 0.2:
            break
    y -= 0.02
    if notes:
        fig.text(0.05, y, "Did not end (not counted as finished):", fontsize=10,
                 fontweight="bold", color="#b00020")
        y -= 0.03
        for t in notes[:6]:
            fig.text(0.06, y, t, fontsize=8)
            y -= 0.026
        fig.text(0.06, y, "reproduce: pnp.engines.simulate.play_one(game, players, seed, bot, "
                 "variants, max_turns=...)", fontsize=8, color="#555555")
    else:
        fig.text(0.05, y, "Every game ended.", fontsize=10)
    return h


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
            ax.legend(fontsize=7)
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
        for ai in range(k):
            s = res.reports[(ai, n)].summary()
            share = [s["win_share"][q]["share"] for q in range(n)]
            lo = [share[q] - s["win_share"][q]["ci95"][0] for q in range(n)]
            hi = [s["win_share"][q]["ci95"][1] - share[q] for q in range(n)]
            xs = [q - 0.4 + width * (ai + 0.5) for q in range(n)]
            ax.bar(xs, share, width=width, color=COLOURS[ai % len(COLOURS)],
                   yerr=[[max(0, v) for v in lo], [max(0, v) for v in hi]], capsize=3,
                   label=arm_label(res.arms[ai]))
            for x, v in zip(xs, share):
                ax.text(x, v + 0.01, f"{100 * v:.0f}%", ha="center", va="bottom", fontsize=7)
        fair = 1 / n
        ax.axhline(fair, color="#777777", lw=0.8, ls="--")
        ax.set_xticks(range(n))
        ax.set_xticklabels([f"seat {q}" for q in range(n)])
        ax.set_ylim(0, 1)
        ax.set_title(f"{n} players (dashed: 1/{n})")
        if k > 1:
            ax.legend(fontsize=7)
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
            ax.legend(fontsize=6, ncol=2)
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
                ax.legend(fontsize=6)
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
    ax = fig.add_axes((0.08, 0.16, 0.88, 0.72))
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
    ax.legend(fontsize=7, ncol=min(6, len(groups)))
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


def _page_ab(fig, res: PlaytestResult) -> str:
    h = "A/B comparison"
    fig.suptitle(h + f": each variant against {arm_label(res.arms[0])} "
                 "(p < 0.05 in red)", fontweight="bold")
    y = 0.88
    head = ["players", "metric", "A", "B", "B - A", "test", "p"]
    xs = [0.04, 0.11, 0.36, 0.45, 0.54, 0.64, 0.88]
    for cmp in res.comparisons:
        fig.text(0.04, y, f"A = {cmp['a']}   B = {cmp['b']}   ({cmp['players']} players)",
                 fontsize=10, fontweight="bold")
        y -= 0.03
        for x, t in zip(xs, head):
            fig.text(x, y, t, fontsize=8, fontweight="bold")
        y -= 0.025
        for row in cmp["rows"]:
            pct = row["metric"] != "game length (turns, median)"
            vals = [cmp["players"], row["metric"], _fmt(row["a"], pct), _fmt(row["b"], pct),
                    (f"{100 * row['diff']:+.1f} pts" if pct else f"{row['diff']:+.1f}")
                    if row["diff"] is not None else "-", row["test"], f"{row['p']:.3g}"]
            colour = "#b00020" if row["significant"] else "black"
            for x, t in zip(xs, vals):
                fig.text(x, y, str(t), fontsize=8, color=colour)
            y -= 0.022
            if y < 0.06:
                break
        y -= 0.015
        if y < 0.1:
            fig.text(0.04, 0.04, "(more comparisons in the JSON output)", fontsize=8)
            break
    return h


def result_json(res: PlaytestResult) -> dict:
    return {"game": res.game, "games": res.games, "players": res.players,
            "variants": [arm_label(a) for a in res.arms], "bot": res.bot, "seed": res.seed,
            "pdf": str(res.pdf) if res.pdf else None, "pngs": [str(p) for p in res.pngs],
            "pages": res.pages, "comparisons": res.comparisons,
            "runs": [{"variant": arm_label(res.arms[ai]), "players": n,
                      **{k: v for k, v in rep.summary().items()
                         if k not in ("turns_finished", "anomalies")}}
                     for (ai, n), rep in sorted(res.reports.items())]}

