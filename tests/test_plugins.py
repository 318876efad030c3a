"""A designer's own engine, installed as a package of its own, plays its own pack through the same
`pnp.engines` entry point group the shipped engines use."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).resolve().parent
TINY = TESTS / "packs" / "tiny"


def install_fake_distribution(site: Path) -> None:
    """What `pip install` of a designer's package leaves behind: its module (here the Nim game of
    test_engine_core, a GameState written outside pnp) and its `pnp.engines` entry point."""
    (site / "countdown_engine.py").write_text("from test_engine_core import Nim as Countdown  # noqa: F401\n",
                                              encoding="utf-8")
    info = site / "countdown_engine-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: countdown-engine\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[pnp.engines]\ncountdown = countdown_engine:Countdown\n",
                                           encoding="utf-8")


def run_pnp(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(TESTS), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "pnp.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_a_pack_names_an_engine_from_another_package(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    install_fake_distribution(site)
    pack = shutil.copytree(TINY, tmp_path / "countdown")
    main = pack / "pack.yaml"
    main.write_text(main.read_text(encoding="utf-8").replace("id: tiny\n", "id: tiny\nengine: countdown\n"),
                    encoding="utf-8")
    result = run_pnp(site, "simulate", str(pack), "--games", "20", "--players", "2", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert "20 games" in result.stdout or "games: 20" in result.stdout, result.stdout
    record = tmp_path / "game.yaml"
    record.write_text(textwrap.dedent("""\
        game: countdown
        players: 2
        moves: ["2", "4"]
        """), encoding="utf-8")
    result = run_pnp(site, "replay", str(pack), str(record))
    assert result.returncode != 0 and "N1" in result.stdout + result.stderr, result.stdout + result.stderr
    # without the package, the pack's engine is unknown: a message, not a traceback
    result = run_pnp(tmp_path / "nowhere", "simulate", str(pack), "--games", "2")
    assert result.returncode == 2 and "countdown" in result.stderr and "Traceback" not in result.stderr, result.stderr
