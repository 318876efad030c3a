"""Bad data: one clear line per problem naming file, line and key; exit 2; no output written."""
import re

import pytest
from click.testing import CliRunner

from pnp.cli import main


def run_build(pack, out, *extra):
    result = CliRunner().invoke(main, ["build", str(pack), "--out", str(out), *extra])
    return result


def replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path, needle):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(needle)


CASES = [
    # (name, file, old, new, expected file, needle for the expected line, message regex)
    ("yaml syntax", "cards/main.yaml", "colour: blue, value: 2}", "colour: blue, value: 2",
     "cards/main.yaml", None, r"YAML syntax error"),
    ("wrong type", "cards/main.yaml", "colour: blue, value: 2}", "colour: blue, value: two}",
     "cards/main.yaml", "id: beta", r"card beta\.value: expected a whole number, got the text 'two'"),
    ("unknown key", "cards/main.yaml", "colour: red, value: 1", "colour: red, valeu: 1",
     "cards/main.yaml", "id: alpha", r"card alpha\.valeu: unknown key 'valeu'"),
    ("duplicate id", "cards/main.yaml", "{id: gamma,", "{id: beta,",
     "cards/main.yaml", "kind: double", r"duplicate card id 'beta' \(first in main\.yaml:2\)"),
    ("dangling reference", "cards/main.yaml", "colour: blue, value: 2", "colour: green, value: 2",
     "cards/main.yaml", "id: beta", r"card beta\.colour: 'green' is not an id in colours"),
    ("missing text", "text/it.yaml", "  gamma: {title: Gamma, body: Due facce}\n", "",
     "cards/main.yaml", "id: gamma", r"text key 'card\.gamma\.title' has no 'it' text"),
    ("duplicate yaml key", "pack.yaml", "players: {min: 2, max: 4}", "players: {min: 2, min: 3, max: 4}",
     "pack.yaml", "players:", r"duplicate key 'min'"),
    ("unknown pack key", "pack.yaml", "palette:", "colours_x: 1\npalette:",
     "pack.yaml", "colours_x", r"unknown key 'colours_x' in pack\.yaml"),
    ("text does not fit", "text/en.yaml", "body: Two faces}", "body: " + "Overflowing " * 80 + "}",
     # said where the text is written, naming the card it prints on (as `pnp check` says it)
     "text/en.yaml", "Overflowing", r"card\.gamma\.body: \[en\] front: card gamma: .* does not fit a 55x40 mm box even at 6 pt"),
    ("unknown kind", "cards/main.yaml", "kind: double", "kind: tripple",
     "cards/main.yaml", "id: gamma", r"card gamma\.kind: unknown kind 'tripple' \(known: plain, double\)"),
]


@pytest.mark.parametrize("name,file,old,new,expected_file,needle,pattern", CASES, ids=[c[0] for c in CASES])
def test_each_defect_gets_one_precise_message(tiny_pack, tmp_path, name, file, old, new, expected_file, needle, pattern):
    replace(tiny_pack / file, old, new)
    out = tmp_path / "out"
    # --strict: a missing translation is an error too (without it, the English text is printed)
    result = run_build(tiny_pack, out, "--strict")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    problem_lines = [line for line in result.output.splitlines() if re.match(r"^\S.*:\d+:", line)]
    matching = [line for line in problem_lines if re.search(pattern, line)]
    assert matching, result.output
    line = matching[0]
    assert expected_file in line.replace("\\", "/")
    if needle:
        expected_line = line_of(tiny_pack / expected_file, needle)
        assert f":{expected_line}:" in line, (line, expected_line)
    assert not list(out.rglob("*.pdf")), "a failed build must not leave a PDF"


def test_all_problems_are_reported_at_once(tiny_pack, tmp_path):
    replace(tiny_pack / "cards/main.yaml", "colour: blue, value: 2", "colour: green, value: two")
    replace(tiny_pack / "cards/main.yaml", "colour: red, value: 1", "colour: red, valeu: 1")
    result = run_build(tiny_pack, tmp_path / "out")
    assert result.exit_code == 2
    # One message per problem: the typo 'valeu' is reported with its suggestion, and the 'value' it
    # was meant to be is not reported again as missing.
    assert "3 problems in the data" in result.output
    assert "missing required key 'value'" not in result.output
    assert "'green' is not an id" in result.output
    assert "expected a whole number" in result.output
    assert "unknown key 'valeu'" in result.output and "did you mean 'value'?" in result.output


def test_a_missing_translation_prints_english_with_a_warning(tiny_pack, tmp_path):
    replace(tiny_pack / "text/it.yaml", "  gamma: {title: Gamma, body: Due facce}\n", "")
    result = run_build(tiny_pack, tmp_path / "out", "--lang", "it")
    assert result.exit_code == 0, result.output
    assert "warning:" in result.output and "card.gamma.title" in result.output
    assert (tmp_path / "out" / "tiny" / "tiny-cards-it-a4.pdf").exists()


def test_a_language_still_in_progress_does_not_stop_the_build_of_another(tiny_pack, tmp_path):
    """A build reports missing texts for the languages it builds only (warnings, and errors under
    --strict); `--lang all` and `pnp check` still report every language's."""
    replace(tiny_pack / "pack.yaml", "languages: [en, it]", "languages: [en, it, es]")
    (tiny_pack / "text/es.yaml").write_text('game:\n  name: "Pequeño"\n', encoding="utf-8")
    replace(tiny_pack / "text/it.yaml", "  gamma: {title: Gamma, body: Due facce}\n", "")
    out = tmp_path / "out"
    for lang in ("en", "it"):
        built = run_build(tiny_pack, out, "--lang", lang)
        assert built.exit_code == 0, built.output
        assert "'es'" not in built.output
    assert "has no 'it' text" in built.output and "card.gamma.title" in built.output   # the built language's kept
    strict = run_build(tiny_pack, out, "--lang", "en", "--strict")
    assert strict.exit_code == 0 and "warning" not in strict.output, strict.output
    strict = run_build(tiny_pack, out, "--lang", "it", "--strict")
    assert strict.exit_code == 2 and "has no 'it' text" in strict.output and "'es'" not in strict.output
    every = run_build(tiny_pack, out, "--lang", "all")
    assert every.exit_code == 0 and "has no 'es' text" in every.output and "has no 'it' text" in every.output
    checked = CliRunner().invoke(main, ["check", str(tiny_pack)])
    assert "has no 'es' text" in checked.output and "has no 'it' text" in checked.output


def test_unknown_language(tiny_pack, tmp_path):
    result = run_build(tiny_pack, tmp_path / "out", "--lang", "fr")
    assert result.exit_code == 2
    assert "unknown language 'fr'" in result.output and "en, it" in result.output
    assert "Traceback" not in result.output


def test_unknown_game(tmp_path):
    result = CliRunner().invoke(main, ["build", "no-such-game", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown game 'no-such-game'" in result.output
    assert "cimiterio" in result.output


def test_an_existing_pdf_is_not_clobbered_by_a_failed_build(tiny_pack, tmp_path):
    out = tmp_path / "out"
    assert run_build(tiny_pack, out, "--lang", "en").exit_code == 0
    pdf = out / "tiny" / "tiny-cards-en-a4.pdf"
    before = pdf.read_bytes()
    replace(tiny_pack / "cards/main.yaml", "value: 2", "value: two")
    assert run_build(tiny_pack, out, "--lang", "en").exit_code == 2
    assert pdf.read_bytes() == before
    assert sorted(p.name for p in pdf.parent.iterdir()) == [pdf.name, "tiny-tuckboxes-en-a4.pdf"]
