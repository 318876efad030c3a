"""Benchmark: the first build on a new machine (empty font cache) against a warm one.

Each run is a fresh `pnp build` child process; a cold run gets a PNP_CACHE_DIR of its own, empty,
so it cuts every font the build draws with; a warm run reuses a cache that already holds them.
The target's pair is about the font cache (the issue's "font cache empty" against warm), so both
of its builds draw every face (`--no-cache`: the face cache, PNP_CACHE_DIR/faces, neither read
nor filled). A second pair, printed for information, is a new machine against one that built the
game before with every cache in use: there the warm build also reuses its drawn faces (the
incremental build of issue 13 item 4), which no first build can.
Cold and warm runs alternate so that both see the same machine load; the figure is each child's
CPU time (user + system), and the ratio is of the medians. The cold and warm PDFs are compared
byte for byte as well (a cache state must never change the output). Target (issue 13): cold at
most 1.5x warm.

    .venv/bin/python benchmarks/bench_fonts_cold.py [--game cimiterio] [--lang en] [--runs 3]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TARGET_RATIO = 1.5


def cpu_build(game: str, lang: str, cache: Path, out: Path, faces: bool = False) -> float:
    """CPU seconds of one `pnp build GAME --lang LANG` child with PNP_CACHE_DIR=cache (`faces`:
    with the face cache, else --no-cache)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "pnp.cli", "build", game, "--lang", lang, "--out", str(out),
                    *([] if faces else ["--no-cache"])],
                   env={**os.environ, "PNP_CACHE_DIR": str(cache)}, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def pdf_bytes(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cimiterio")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    cold: list[float] = []
    warm: list[float] = []
    new: list[float] = []           # every cache empty, faces cached as they are drawn
    built: list[float] = []         # every cache warm, the faces too
    same = True
    with tempfile.TemporaryDirectory(prefix="pnp-bench-fonts-") as tmp:
        root = Path(tmp)
        warm_cache = root / "warm-cache"
        cpu_build(args.game, args.lang, warm_cache, root / "first", faces=True)   # fills both caches
        for run in range(args.runs):
            cold.append(cpu_build(args.game, args.lang, root / f"cold-cache-{run}", root / f"cold-{run}"))
            warm.append(cpu_build(args.game, args.lang, warm_cache, root / f"warm-{run}"))
            new.append(cpu_build(args.game, args.lang, root / f"new-cache-{run}", root / f"new-{run}", faces=True))
            built.append(cpu_build(args.game, args.lang, warm_cache, root / f"built-{run}", faces=True))
            outputs = [pdf_bytes(root / f"{side}-{run}") for side in ("cold", "warm", "new", "built")]
            same = same and outputs[0] != {} and all(o == outputs[0] for o in outputs)
        fonts = sorted(p.name for p in (root / "cold-cache-0" / "fonts").glob("*.ttf"))
    cold_s, warm_s = statistics.median(cold), statistics.median(warm)
    new_s, built_s = statistics.median(new), statistics.median(built)
    ratio = cold_s / warm_s
    print(f"pnp build {args.game} --lang {args.lang}, {args.runs} runs each (CPU time, medians)")
    print("font cache, every face drawn in both (--no-cache):")
    print(f"cold (empty font cache): {cold_s:7.2f} s   cuts {len(fonts)} fonts: {', '.join(f.split('-')[0] + '-' + f.split('-')[1] for f in fonts)}")
    print(f"warm (fonts cached):     {warm_s:7.2f} s")
    print(f"ratio cold/warm {ratio:.2f}x (target at most {TARGET_RATIO}x): {'met' if ratio <= TARGET_RATIO else 'NOT met'}")
    print(f"for information, every cache in use: a new machine {new_s:.2f} s, one that built the game "
          f"before {built_s:.2f} s (its drawn faces reused): {new_s / built_s:.2f}x")
    print(f"the PDFs of all four kinds of build byte-identical: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
