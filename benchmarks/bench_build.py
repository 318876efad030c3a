"""Benchmark: `pnp build` against a hand-written ReportLab script, rebuilds, and peak memory.

Prints, in one run and as ratios (issue 13's targets):

1. A simple poker pack of 95 cards (A4, duplex, crop marks and backs: 24 pages, as pnp's shipped
   poker-a4 sprue holds 8 cards a sheet; the issue's 22 pages were 9 a sheet), generated in a
   temporary folder, built by pnp against a hand-written ReportLab script drawing the same sheets
   (the same grid, marks, a back per card, text in an embedded TrueType font). The pack's deck
   says `tuckbox: false`, since the script draws no tuck box; the same pack with its tuck box (a
   second PDF the script does not make) is measured too, for information. Whole processes:
   each side is a fresh `python` child, run in alternating pairs, measured by its CPU time (user +
   system); the ratio is of the medians, after one unmeasured run of each (bytecode compiled, as
   for an installed package). Also in this process (time.process_time), without the start-up.
   Target: at most 3x, whole process.
2. A generated 950-card pack: a rebuild after one card's text changed (the face cache warm)
   against a full build (cache empty), both in this process, then both as whole processes.
   Target: at most 10%. The faces drawn are listed (the changed card's two), and the PDF streams
   (faces' forms, pages) written as the full build wrote them.
3. Peak memory (ru_maxrss of a `pnp build` child) at 950 and 9,500 cards. Target: < 150 MB.

    .venv/bin/python benchmarks/bench_build.py [--runs 5] [--no-large]

Every build runs with PNP_CACHE_DIR pointing at a temporary folder: the machine's font cache is
copied in first (cutting fonts is another benchmark's subject), the face cache starts empty.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

TARGET_RATIO = 3.0
TARGET_REBUILD = 0.10
TARGET_PEAK_MB = 150.0
PNP_CLI = "from pnp.cli import run; run()"      # the `pnp` console script

WORDS = ("move draw discard attack defend trade swap reveal hide gain lose score block pass "
         "shuffle search").split()


def body_text(i: int) -> str:
    words = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(12)]
    return " ".join(words).capitalize() + "."


def make_pack(root: Path, cards: int, tuckbox: bool = True) -> Path:
    """A simple poker-sized pack: one kind, literal card text, a shared back; `tuckbox=False`:
    its decks get no tuck box."""
    (root / "templates" / "poker").mkdir(parents=True)
    (root / "cards").mkdir()
    (root / "pack.yaml").write_text(textwrap.dedent("""\
        id: poker
        name: game.name
        languages: [en]
        players: {min: 2, max: 4}
        palette: {ink: "#202020", paper: "#f8f4ea"}
        kinds:
          card:
            front: poker/front.svg.j2
            fields: {title: text, body: text, value: int}
        decks:
        """) + "".join(f"  - {{id: d{d}, name: deck.main, back: poker/back.svg.j2, card_size: poker, "
                       f"cards: cards/d{d}.yaml{'' if tuckbox else ', tuckbox: false'}}}\n"
                       for d in range(_decks(cards))), encoding="utf-8")
    (root / "templates" / "poker" / "front.svg.j2").write_text(textwrap.dedent("""\
        {% extends "_base/card.svg.j2" %}
        {% block art %}
        <rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2*bleed }}" height="{{ h + 2*bleed }}" fill="#d8c9a0"/>
        <rect x="{{ safe }}" y="{{ safe }}" width="{{ w - 2*safe }}" height="{{ h - 2*safe }}" rx="2" fill="{{ palette.paper }}"/>
        {{ textbox(card.title, safe + 1, safe + 1, w - 2*safe - 2, 12, font="bold", size=14, min_size=8) }}
        {{ textbox(card.body, safe + 1, 30, w - 2*safe - 2, 40, size=10, min_size=6) }}
        {{ textbox(card.value ~ "", safe + 1, h - safe - 10, 10, 9, font="bold", size=16, align="start") }}
        {% endblock %}
        """), encoding="utf-8")
    (root / "templates" / "poker" / "back.svg.j2").write_text(textwrap.dedent("""\
        {% extends "_base/card.svg.j2" %}
        {% block art %}
        <rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2*bleed }}" height="{{ h + 2*bleed }}" fill="{{ palette.ink }}"/>
        {{ textbox(pack.name, safe, h/2 - 5, w - 2*safe, 10, font="bold", size=12, fill="#ffffff") }}
        {% endblock %}
        """), encoding="utf-8")
    (root / "text").mkdir()
    (root / "text" / "en.yaml").write_text("game: {name: Poker bench}\ndeck: {main: Main deck}\n", encoding="utf-8")
    write_cards(root, cards)
    return root


DECK_CARDS = 95   # cards of one deck: a tuck box of more would not fit A4


def _decks(cards: int) -> int:
    return (cards + DECK_CARDS - 1) // DECK_CARDS


def write_cards(root: Path, cards: int, changed: int | None = None) -> None:
    """The cards, DECK_CARDS to a deck; card `changed` gets another title."""
    for d in range(_decks(cards)):
        lines = []
        for i in range(d * DECK_CARDS, min(cards, (d + 1) * DECK_CARDS)):
            title = f"Card {i + 1}" + (" (changed)" if i == changed else "")
            lines.append(f"- {{id: c{i:05d}, kind: card, title: \"{title}\", body: \"{body_text(i)}\", "
                         f"value: {i % 10}}}")
        (root / "cards" / f"d{d}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


REFERENCE = '''
import sys
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

MM = 72 / 25.4
regular, bold, out, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
pdfmetrics.registerFont(TTFont("R", regular))
pdfmetrics.registerFont(TTFont("B", bold))
W, H, BLEED, GAP = 63 * MM, 88 * MM, 2 * MM, 6 * MM   # a poker card; pnp's poker-a4 sprue:
COLS, ROWS = 2, 4                                      # 2x4 cards turned 90 degrees, 8 a sheet
SW, SH = H, W                                          # a slot: the card lying on its side
PAGE_W, PAGE_H = A4
LEFT = (PAGE_W - COLS * SW - (COLS - 1) * GAP) / 2
TOP = PAGE_H - (PAGE_H - ROWS * SH - (ROWS - 1) * GAP) / 2
RIGHT, BOTTOM = LEFT + COLS * SW + (COLS - 1) * GAP, TOP - ROWS * SH - (ROWS - 1) * GAP
WORDS = "move draw discard attack defend trade swap reveal hide gain lose score block pass shuffle search".split()

def body(i):
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(12)).capitalize() + "."

def wrap(text, font, size, width):
    lines, line = [], ""
    for word in text.split():
        trial = (line + " " + word).strip()
        if pdfmetrics.stringWidth(trial, font, size) > width and line:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line]

def slot(k, mirror):
    col, row = k % COLS, k // COLS
    if mirror:
        col = COLS - 1 - col
    return LEFT + col * (SW + GAP), TOP - (row + 1) * SH - row * GAP

def marks(pdf):
    pdf.setLineWidth(0.25)
    for c in range(COLS):
        for x in (LEFT + c * (SW + GAP), LEFT + c * (SW + GAP) + SW):
            pdf.line(x, TOP + BLEED + 2 * MM, x, TOP + BLEED + 7 * MM)
            pdf.line(x, BOTTOM - BLEED - 2 * MM, x, BOTTOM - BLEED - 7 * MM)
    for r in range(ROWS):
        for y in (TOP - r * (SH + GAP), TOP - r * (SH + GAP) - SH):
            pdf.line(LEFT - BLEED - 2 * MM, y, LEFT - BLEED - 7 * MM, y)
            pdf.line(RIGHT + BLEED + 2 * MM, y, RIGHT + BLEED + 7 * MM, y)

def front(pdf, i, x, y):
    pdf.saveState()
    pdf.translate(x + SW, y)
    pdf.rotate(90)                                     # the card upright from here on
    pdf.setFillColorRGB(0.85, 0.79, 0.63)
    pdf.rect(-BLEED, -BLEED, W + 2 * BLEED, H + 2 * BLEED, fill=1, stroke=0)
    pdf.setFillColorRGB(0.97, 0.96, 0.92)
    pdf.roundRect(3 * MM, 3 * MM, W - 6 * MM, H - 6 * MM, 2 * MM, fill=1, stroke=0)
    pdf.setFillColorRGB(0, 0, 0)
    pdf.setFont("B", 14)
    pdf.drawCentredString(W / 2, H - 12 * MM, "Card %d" % (i + 1))
    pdf.setFont("R", 10)
    for n, line in enumerate(wrap(body(i), "R", 10, W - 8 * MM)):
        pdf.drawCentredString(W / 2, H - 40 * MM - n * 12, line)
    pdf.setFont("B", 16)
    pdf.drawString(4 * MM, 6 * MM, str(i % 10))
    pdf.restoreState()

pdf = canvas.Canvas(out, pagesize=A4, invariant=1)
pdf.beginForm("back", 0, 0, W + 2 * BLEED, H + 2 * BLEED)
pdf.setFillColorRGB(0.125, 0.125, 0.125)
pdf.rect(0, 0, W + 2 * BLEED, H + 2 * BLEED, fill=1, stroke=0)
pdf.setFillColorRGB(1, 1, 1)
pdf.setFont("B", 12)
pdf.drawCentredString(W / 2 + BLEED, H / 2 + BLEED, "Poker bench")
pdf.endForm()
for first in range(0, count, COLS * ROWS):  # a sheet: its fronts page, then its backs
    cards = range(first, min(count, first + COLS * ROWS))
    for k, i in enumerate(cards):
        front(pdf, i, *slot(k, False))
    marks(pdf)
    pdf.drawString(40, 20, "Print at 100%% - sheet %d front" % (first // 8 + 1))
    pdf.showPage()
    for k, i in enumerate(cards):
        x, y = slot(k, True)
        pdf.saveState()
        pdf.translate(x, y + SH)
        pdf.rotate(-90)                                # backs turn the other way (long-edge flip)
        pdf.translate(-BLEED, -BLEED)
        pdf.doForm("back")
        pdf.restoreState()
    marks(pdf)
    pdf.drawString(40, 20, "sheet %d back" % (first // 8 + 1))
    pdf.showPage()
pdf.save()
'''


def child_cpu(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, peak resident MB) of one child process, start to exit."""
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}):\n{errors}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def has_face_cache() -> bool:
    try:
        import pnp.facecache  # noqa: F401
    except ImportError:
        return False
    return True


def pnp_build_argv(pack: Path, out: Path, cache: bool = True) -> list[str]:
    argv = [sys.executable, "-c", PNP_CLI, "build", str(pack), "--lang", "en", "--out", str(out)]
    return argv + (["--no-cache"] if not cache and has_face_cache() else [])


def font_files() -> tuple[str, str]:
    from reportlab.pdfbase import pdfmetrics

    from pnp.text import fonts
    return tuple(pdfmetrics.getFont(fonts.register(style)).face.filename for style in ("regular", "bold"))  # type: ignore[return-value]


def in_process_build(pack: Path, out: Path) -> tuple[float, list[str], int]:
    """(CPU seconds, the faces drawn, the PDF streams reused) of one build() call in this process."""
    from pnp import build as pipeline

    start = time.process_time()
    result = pipeline.build([str(pack)], pipeline.BuildOptions(lang="en", out=out))
    return time.process_time() - start, getattr(result, "drawn", ["?"] * result.faces), getattr(result, "reused", 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="paired runs of the 95-card workload")
    parser.add_argument("--no-large", action="store_true", help="skip the 9,500-card memory figure")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temp:
        tmp = Path(temp)
        cache = tmp / "cache"
        from pnp.text import fonts
        fonts.register_all()
        shutil.copytree(fonts.cache_dir(), cache / "fonts")
        os.environ["PNP_CACHE_DIR"] = str(cache)       # this process and its children
        env = dict(os.environ)
        # Children start from compiled bytecode, as an installed package does (pip compiles it):
        # with PYTHONDONTWRITEBYTECODE set (as in some shells) every child would compile pnp's
        # sources again, most of a small build's time. Kept in the temporary folder.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        regular, bold = font_files()
        reference = tmp / "reference.py"
        reference.write_text(REFERENCE, encoding="utf-8")

        # 1. the 95-card workload, whole processes in alternating pairs, then in this process
        small = make_pack(tmp / "p95" / "poker", 95, tuckbox=False)
        boxed = make_pack(tmp / "p95b" / "poker", 95)
        pnp_times, ref_times, boxed_times = [], [], []
        child_cpu(pnp_build_argv(small, tmp / "o95-warm", cache=False), env)         # bytecode written
        child_cpu(pnp_build_argv(boxed, tmp / "o95b-warm", cache=False), env)
        child_cpu([sys.executable, str(reference), regular, bold, str(tmp / "ref.pdf"), "95"], env)
        for run in range(args.runs):
            pnp_times.append(child_cpu(pnp_build_argv(small, tmp / f"o95-{run}", cache=False), env)[0])
            ref_times.append(child_cpu([sys.executable, str(reference), regular, bold, str(tmp / "ref.pdf"), "95"],
                                       env)[0])
            boxed_times.append(child_cpu(pnp_build_argv(boxed, tmp / f"o95b-{run}", cache=False), env)[0])
        pnp_cpu, ref_cpu = statistics.median(pnp_times), statistics.median(ref_times)
        boxed_cpu = statistics.median(boxed_times)
        pages = _pages(tmp / "o95-0" / "poker" / "poker-cards-en-a4.pdf")
        print(f"95 cards, {pages} pages, A4 duplex with marks and backs ({args.runs} paired runs, median CPU):")
        print(f"  pnp build (whole process, no face cache)  {pnp_cpu:6.2f} s")
        print(f"  hand-written ReportLab script (process)   {ref_cpu:6.2f} s   ({_pages(tmp / 'ref.pdf')} pages)")
        ratio = pnp_cpu / ref_cpu
        print(f"  ratio {ratio:.2f}x (target at most {TARGET_RATIO:g}x): {'met' if ratio <= TARGET_RATIO else 'NOT met'}")
        print(f"  with the deck's tuck box too (a PDF the script does not make): {boxed_cpu:.2f} s, "
              f"{boxed_cpu / ref_cpu:.2f}x the script")
        ns: dict = {}
        start = time.process_time()
        exec(compile(REFERENCE.replace("sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])",
                                       f"{regular!r}, {bold!r}, {str(tmp / 'ref2.pdf')!r}, 95"), "reference", "exec"), ns)
        ref_in = time.process_time() - start
        shutil.rmtree(cache / "faces", ignore_errors=True)
        pnp_in, _, _ = in_process_build(small, tmp / "o95-in")
        print(f"  in this process: pnp {pnp_in:.2f} s, script {ref_in:.2f} s, ratio {pnp_in / ref_in:.2f}x")

        # 2. one-card rebuild against a full build, 950 cards
        big = make_pack(tmp / "p950" / "poker", 950)
        shutil.rmtree(cache / "faces", ignore_errors=True)
        full, drawn_full, _ = in_process_build(big, tmp / "o950")
        write_cards(big, 950, changed=500)
        rebuild, drawn, reused = in_process_build(big, tmp / "o950")
        share = rebuild / full
        print(f"950 cards: full build {full:.2f} s CPU ({len(drawn_full)} faces drawn), one-card rebuild {rebuild:.2f} s "
              f"({len(drawn)} faces drawn: {' '.join(drawn)}; {reused} PDF streams reused)")
        print(f"  rebuild/full {share:.1%} (target at most {TARGET_REBUILD:.0%}): "
              f"{'met' if share <= TARGET_REBUILD else 'NOT met'}")
        shutil.rmtree(cache / "faces", ignore_errors=True)
        whole_full = child_cpu(pnp_build_argv(big, tmp / "o950w"), env)[0]
        write_cards(big, 950, changed=501)
        whole_rebuild = child_cpu(pnp_build_argv(big, tmp / "o950w"), env)[0]
        print(f"  whole process: full {whole_full:.2f} s, rebuild {whole_rebuild:.2f} s, "
              f"{whole_rebuild / whole_full:.1%}")

        # 3. peak memory of a build (face cache empty)
        sizes = [950] if args.no_large else [950, 9500]
        for count in sizes:
            pack = big if count == 950 else make_pack(tmp / f"p{count}" / "poker", count)
            shutil.rmtree(cache / "faces", ignore_errors=True)
            cpu, peak = child_cpu(pnp_build_argv(pack, tmp / f"m{count}"), env)
            print(f"peak memory, {count:,} cards: {peak:6.1f} MB ({cpu:.1f} s CPU) (target < {TARGET_PEAK_MB:g}): "
                  f"{'met' if peak < TARGET_PEAK_MB else 'NOT met'}")
    return 0


def _pages(pdf: Path) -> int:
    import pypdfium2
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.exit(main())
