"""Benchmark: a full cold build of every shipped deck against a minimal ReportLab baseline.

Both run in this process. The baseline draws the same number of card faces as plain rectangles
with a line of text each, so the ratio says what pnp's templates, text layout, SVG conversion and
imposition cost on top of ReportLab itself. Prints per-face milliseconds and peak memory.

    .venv/bin/python benchmarks/bench_build.py [--lang all] [--paper a4]
"""
from __future__ import annotations

import argparse
import io
import resource
import sys
import tempfile
import time
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

TARGET_MS_PER_FACE = 10.0
TARGET_PEAK_MB = 300.0


def baseline(faces: int) -> float:
    """Draw `faces` card rectangles with text, 9 per page, the way a hand-written script would."""
    start = time.perf_counter()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    card_w, card_h = 63 * 72 / 25.4, 88 * 72 / 25.4
    for index in range(faces):
        slot = index % 9
        x, y = 30 + (slot % 3) * card_w, 60 + (slot // 3) * card_h
        pdf.setFillColorRGB(0.9, 0.85, 0.7)
        pdf.rect(x, y, card_w, card_h, fill=1, stroke=1)
        pdf.setFillColorRGB(0, 0, 0)
        pdf.setFont("Helvetica-Bold", 12)
        pdf.drawCentredString(x + card_w / 2, y + card_h - 30, f"Card {index}")
        pdf.setFont("Helvetica", 8)
        pdf.drawString(x + 10, y + 40, "Some rules text on the card.")
        if slot == 8:
            pdf.showPage()
    pdf.save()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="all")
    parser.add_argument("--paper", default="a4")
    args = parser.parse_args()

    from pnp import build as pipeline
    from pnp.pack import available_packs
    from pnp.text import fonts

    fonts.register_all()  # font instances are made once per machine and cached: not part of a build
    games = [p.name for p in available_packs()]
    with tempfile.TemporaryDirectory() as out:
        options = pipeline.BuildOptions(lang=args.lang, paper=args.paper, out=Path(out))
        start = time.perf_counter()
        result = pipeline.build(games, options)
        elapsed = time.perf_counter() - start
    faces = result.faces
    base = baseline(faces)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    per_face = elapsed * 1000 / faces
    print(f"games: {', '.join(games)}  languages: {args.lang}  paper: {args.paper}")
    print(f"faces built: {faces} in {len(result.files)} PDFs")
    print(f"pnp build (cold):   {elapsed:8.2f} s   {per_face:6.2f} ms/face   (target < {TARGET_MS_PER_FACE:g})")
    print(f"reportlab baseline: {base:8.2f} s   {base * 1000 / faces:6.2f} ms/face")
    print(f"ratio pnp/baseline: {elapsed / base:8.1f}x")
    print(f"peak memory:        {peak_mb:8.0f} MB   (target < {TARGET_PEAK_MB:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
