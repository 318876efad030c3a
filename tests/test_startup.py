"""Starting pnp stays light: `import pnp.cli` loads no drawing, engine or report code, and
`pnp build` never imports the engines, the checker's CLI, the preview server or matplotlib
(speed is measured by benchmarks/, never timed here: these tests look at sys.modules)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

from conftest import TINY

HEAVY = ("pnp.engines", "pnp.serve", "pnp.check", "pnp.build", "pnp.components", "reportlab", "matplotlib",
         "numpy", "svgwrite", "pypdfium2", "uharfbuzz")


# What `pnp build` never imports: the engines and the playtest report (matplotlib, numpy), the
# checker (a build runs the composition rules, pnp.composition, not `pnp check`), the server, the
# translators' and exporters' commands with their libraries (Babel's PO catalogs too: a build
# needs only its plural rules), the cluster and agent extras.
BUILD_NEVER = ("pnp.engines", "pnp.check", "pnp.serve", "pnp.i18n.cli", "pnp.i18n.po", "pnp.export",
               "pnp.scaffold", "babel.messages", "matplotlib", "numpy", "pikepdf", "ruamel", "dask", "pettingzoo",
               "gymnasium")


def modules_after(code: str) -> list[str]:
    """The top modules loaded by a child Python running `code` (a fresh process: nothing cached)."""
    script = code + "\nimport json, sys; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def loaded(modules: list[str], prefix: str) -> bool:
    return any(m == prefix or m.startswith(prefix + ".") for m in modules)


def test_importing_the_cli_loads_none_of_the_heavy_parts():
    modules = modules_after("import pnp.cli")
    assert [name for name in HEAVY if loaded(modules, name)] == []


def test_help_lists_every_command_without_running_them():
    modules = modules_after("import pnp.cli\nfrom click.testing import CliRunner\n"
                            "out = CliRunner().invoke(pnp.cli.main, ['--help']).output\n"
                            "assert all(c in out for c in ('build', 'check', 'i18n', 'replay', 'simulate', "
                            "'playtest', 'serve', 'schema', 'list', 'calibrate')), out")
    assert not loaded(modules, "pnp.engines.simulate") and not loaded(modules, "matplotlib")


def test_a_build_never_imports_the_engines_the_checker_or_the_report(tmp_path):
    modules = modules_after("import pnp.cli\n"
                            f"pnp.cli.main(['build', {str(TINY)!r}, '--lang', 'en', '--out', {str(tmp_path)!r}], "
                            "standalone_mode=False)")
    assert (tmp_path / "tiny" / "tiny-cards-en-a4.pdf").is_file()
    assert [name for name in BUILD_NEVER if loaded(modules, name)] == []


# What a build of a pack that has no rules file, no raster art and no misspelt name has no use
# for: the composition checker, difflib's did-you-mean, Babel's date
# patterns (the text direction reads one string of a locale file), Pillow's EXIF turning and
# importlib.resources (the shipped folders are found beside pnp.shipped): issue 13.
PLAIN_BUILD_NEVER = ("pnp.composition.rules", "pnp.composition.findings", "difflib", "babel.dates",
                     "PIL.ImageOps", "importlib.resources")


def test_a_plain_build_loads_only_what_it_uses(tmp_path):
    modules = modules_after("import pnp.cli\n"
                            f"pnp.cli.main(['build', {str(TINY)!r}, '--lang', 'en', '--out', {str(tmp_path)!r}], "
                            "standalone_mode=False)")
    assert (tmp_path / "tiny" / "tiny-cards-en-a4.pdf").is_file()
    assert not (TINY / "rules.yaml").exists()
    assert [name for name in PLAIN_BUILD_NEVER if name in modules] == []


def test_a_build_reads_only_the_fonts_and_plugins_it_uses(tmp_path):
    """A pack whose texts are regular and bold does not parse the condensed font, and a pack
    without components does not look for component plugins (importlib.metadata) nor load the
    drawers' machinery (its tuck boxes need only the drawing kit): issue 13."""
    pack = tmp_path / "tiny"
    shutil.copytree(TINY, pack)
    front = pack / "templates" / "tiny" / "front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace('font="condensed"', 'font="bold"'), encoding="utf-8")
    script = ("import json, sys\nfrom reportlab.pdfbase import pdfmetrics\nimport pnp.cli\n"
              f"pnp.cli.main(['build', {str(pack)!r}, '--lang', 'en', '--out', {str(tmp_path / 'out')!r}], "
              "standalone_mode=False)\n"
              "print(json.dumps([sorted(pdfmetrics.getRegisteredFontNames()), 'importlib.metadata' in sys.modules, "
              "'pnp.components.core' in sys.modules]))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    fonts, plugins_looked_up, drawers_loaded = json.loads(result.stdout.splitlines()[-1])
    assert [name for name in fonts if name.startswith("Pnp")] == ["PnpSans-Bold", "PnpSans-Regular"]
    assert not plugins_looked_up and not drawers_loaded


def test_the_console_script_freezes_the_imports_and_main_leaves_the_collector_alone(tmp_path):
    """`pnp` (pnp.cli:run) freezes what the build imported out of garbage collection (its process
    ends with the command); `main` called from Python leaves the collector as it found it."""
    script = ("import atexit, gc, sys\n"
              "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 10000, gc.isenabled()))\n"
              f"sys.argv = ['pnp', 'build', {str(TINY)!r}, '--lang', 'en', '--out', {str(tmp_path / 'a')!r}]\n"
              "from pnp.cli import run\nrun()\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "frozen True True"
    script = ("import gc\nimport pnp.cli\n"
              f"pnp.cli.main(['build', {str(TINY)!r}, '--lang', 'en', '--out', {str(tmp_path / 'b')!r}], "
              "standalone_mode=False)\nprint('frozen', gc.get_freeze_count(), gc.isenabled())")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "frozen 0 True"
    assert (tmp_path / "a" / "tiny" / "tiny-cards-en-a4.pdf").read_bytes() == \
        (tmp_path / "b" / "tiny" / "tiny-cards-en-a4.pdf").read_bytes()
