"""Benchmark: what reading the pack's YAML costs in a build of a 950-card pack.

Builds a generated pack (benchmarks/bigpack.py: 950 distinct simple cards in 10 decks, two
languages, a rules.yaml) in this process under cProfile, fonts already cut, and prints the share
of the build spent in pnp.yamlsource.load_source (reading, composing with libyaml, making values
with their lines), how many times each file was read (the target is once: the rules checker gets
the loaded pack), and libyaml's composer against PyYAML's pure-Python one on the same files.

    .venv/bin/python benchmarks/bench_parse.py [--cards 950] [--lang en]
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from bigpack import simple_pack  # noqa: E402  (a sibling script, not a package)


def compose_seconds(files: list[Path], loader) -> float:
    start = time.process_time()
    for file in files:
        yaml.compose(file.read_text(encoding="utf-8"), Loader=loader)
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=950)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()

    from pnp import build as pipeline
    from pnp import yamlsource
    from pnp.text import fonts

    fonts.register_all()                     # fonts are cut once per machine: not part of this figure
    reads: Counter = Counter()
    read = yamlsource._read_text

    def counting(file: Path, problems):
        reads[file] += 1
        return read(file, problems)

    yamlsource._read_text = counting
    with tempfile.TemporaryDirectory(prefix="pnp-bench-parse-") as tmp:
        pack = simple_pack(Path(tmp) / "pack", args.cards)
        profile = cProfile.Profile()
        profile.enable()
        pipeline.build([str(pack)], pipeline.BuildOptions(lang=args.lang, out=Path(tmp) / "out"))
        profile.disable()
        files = sorted(pack.rglob("*.yaml"))
        c_loader = getattr(yaml, "CSafeLoader", None)
        pure, libyaml = compose_seconds(files, yaml.SafeLoader), compose_seconds(files, c_loader) if c_loader else 0.0
    stats = pstats.Stats(profile)
    parse = sum(row[3] for (file, _, name), row in stats.stats.items()   # type: ignore[attr-defined]
                if name == "load_source" and file.endswith("yamlsource.py"))
    total = stats.total_tt                                                # type: ignore[attr-defined]
    print(f"build of {args.cards} cards ({len(files)} YAML files), --lang {args.lang}, under cProfile")
    print(f"reading YAML (load_source): {parse:6.2f} s of {total:6.2f} s = {100 * parse / total:4.1f}% of the build")
    print(f"file reads: {sum(reads.values())} for {len(reads)} files "
          f"({'each once' if set(reads.values()) == {1} else 'some more than once: ' + ', '.join(sorted(f.name for f, n in reads.items() if n > 1))})")
    if libyaml:
        print(f"composing every file: libyaml {libyaml:.3f} s, pure Python {pure:.3f} s ({pure / libyaml:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
