"""Benchmark: what starting pnp costs, against importing ReportLab's canvas.

Each side is a fresh Python child process, run in alternating pairs so that both see the same
machine load; the figure is each child's CPU time (user + system, from resource.getrusage), and
the ratio is of the medians. Both sides import from bytecode, as an installed pnp does: a first
unmeasured run writes pnp's __pycache__ (ReportLab's wheel has its own), and PYTHONDONTWRITEBYTECODE
is taken out of the children's environment (with it set, every pnp module would be compiled from
source on every start, a cost no installed copy pays). Target (issue 13): `import pnp.cli` at most
1.5x the baseline.

    .venv/bin/python benchmarks/bench_startup.py [--runs 15]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

TARGET_RATIO = 1.5
CASES = {"import pnp.cli": "import pnp.cli", "baseline: import reportlab.pdfgen.canvas": "import reportlab.pdfgen.canvas"}


ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(code: str) -> float:
    """CPU seconds a fresh `python -c code` takes, start to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for code in CASES.values():
        cpu_seconds(code)                  # writes the bytecode caches; not measured
    for _ in range(runs):
        for name, code in CASES.items():
            times[name].append(cpu_seconds(code))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:45s} median {median * 1000:7.1f} ms CPU over {runs} runs")
    pnp_cli, baseline = medians.values()
    ratio = pnp_cli / baseline
    print(f"ratio {ratio:.2f}x (target at most {TARGET_RATIO}x): {'met' if ratio <= TARGET_RATIO else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
