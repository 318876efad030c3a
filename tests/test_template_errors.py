"""Broken templates and unprintable text: one message per defect, in the designer's terms, at the
template's file and line; the same exit status (2) from `pnp build` and `pnp check`; cycles and
control characters are messages, never tracebacks; templates never read a file outside the pack.

Every test works on a copy (of a shipped pack, or of tests/packs/tiny) in tmp_path."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2.loaders
import pytest
from click.testing import CliRunner

from pnp.build import BuildOptions, render_components, render_faces
from pnp.check import check_pack
from pnp.check.cli import check
from pnp.cli import main
from pnp.components import plan_components
from pnp.errors import display_path
from pnp.pack import load_pack

DATA = Path(__file__).resolve().parent.parent / "data"
TIMEOUT_S = 300     # a child that has not finished by then hangs (it takes seconds)


def line_of(path: Path, needle: str) -> int:
    hits = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    assert len(hits) == 1, f"test setup: {needle!r} is on lines {hits} of {path}"
    return hits[0]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`pnp ARGS` in a child process (a template recursing without end must not take the tests along)."""
    return subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=TIMEOUT_S)


@pytest.fixture
def cimiterio(tmp_path, monkeypatch) -> Path:
    """A copy of cimiterio whose own templates/_base/card.svg.j2 (every card's base, front and
    back) reads a card field with a typo on its third line."""
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "cimiterio"
    shutil.copytree(DATA / "cimiterio", pack)
    base = pack / "templates" / "_base" / "card.svg.j2"
    base.parent.mkdir(parents=True)
    shipped = (DATA.parent / "templates" / "_base" / "card.svg.j2").read_text(encoding="utf-8")
    lines = shipped.splitlines()
    assert lines[2].startswith("<svg "), "test setup: the base's <svg> root is on its third line"
    lines[2] = lines[2].replace("<svg ", '<svg data-card="{{ card.idd }}" ', 1)
    base.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return pack


# ---- one defect, one message ----------------------------------------------------------------------
def test_a_typo_in_the_shared_template_is_one_message_in_every_language(cimiterio):
    result = CliRunner().invoke(main, ["build", "cimiterio", "--out", "out"])
    assert result.exit_code == 2, result.output
    header, *lines = result.output.strip().splitlines()
    assert header == "1 problem in the data:", result.output          # 95 cards x 2 faces x 5 languages: one
    [line] = lines
    assert line.startswith("cimiterio/templates/_base/card.svg.j2:3: card gate: ")
    assert "card has no field 'idd' (its fields: id, " in line and "did you mean 'id'?" in line
    gate = Path("cimiterio/cards/gate.yaml")
    assert line.endswith(f"(card gate at {gate}:{line_of(gate, '- {id: gate')}, and 94 more cards)")
    assert "pnp." not in line and "Record" not in line and "object" not in line
    assert not Path("out").exists()


def test_check_exits_2_like_the_build_with_the_same_one_message(cimiterio):
    result = CliRunner().invoke(check, ["cimiterio"])
    assert result.exit_code == 2, result.output
    found = [line for line in result.output.splitlines() if "[template." in line]
    assert found == [line for line in result.output.splitlines() if "error [" in line]
    [line] = found
    assert line.startswith("cimiterio/templates/_base/card.svg.j2:3: error [template.undefined] card gate: ")
    assert "did you mean 'id'?" in line and line.endswith(", and 94 more cards)")
    assert result.output.strip().endswith("1 error, 0 warnings (cannot be used as it is)")


def test_a_field_typo_names_the_record_its_fields_and_a_guess(tiny_pack, monkeypatch):
    monkeypatch.chdir(tiny_pack.parent)
    front = tiny_pack / "templates" / "tiny" / "front.svg.j2"
    edit(front, "textbox(card.title,", "textbox(card.titel,")
    _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=False)
    [problem] = problems                    # not one per card: 5 cards (alpha is 3 copies)
    assert (problem.code, problem.file, problem.line) == ("template.undefined", "tiny/templates/tiny/front.svg.j2",
                                                          line_of(front, "card.titel"))
    assert problem.key == "card alpha" and problem.lang == "" and problem.face == "front"
    assert problem.message == ("card has no field 'titel' (its fields: id, base_id, kind, deck, copy, quantity, "
                               "title, body, colour_id, colour, value; did you mean 'title'?) "
                               "(card alpha at tiny/cards/main.yaml:1, and 4 more cards)")
    assert problem.get("cards") == 5 and problem.get("template_line") == problem.line


def test_other_records_and_variables_speak_the_designers_terms(tiny_pack):
    folder = tiny_pack / "templates" / "tiny"
    edit(folder / "back.svg.j2", "palette.ink", "palette.inck")                 # cards alpha and beta
    edit(folder / "second.svg.j2", "card.title", "card.colour.hew")             # card gamma's back
    cards = display_path(tiny_pack / "cards" / "main.yaml")
    _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=False)
    assert sorted(p.message for p in problems) == [
        f"colours entry has no field 'hew' (its fields: id, hue; did you mean 'hue'?) (card gamma at {cards}:3)",
        "palette has no field 'inck' (its fields: ink, paper; did you mean 'ink'?) "
        f"(card alpha at {cards}:1, and 3 more cards)"]
    edit(folder / "front.svg.j2", "w - 2*safe - 2, 12", "w - 2*saef - 2, 12")    # every card's front
    _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=False)
    assert [p.message for p in problems] == [
        f"there is no variable 'saef'; did you mean 'safe'? (card alpha at {cards}:1, and 4 more cards)"]


# ---- cycles and recursion: a message naming the templates, no traceback -------------------------------
@pytest.mark.parametrize("how, tag", [("extends", "{% extends NAME %}"), ("includes", "{% include NAME %}"),
                                      ("imports", "{% import NAME as m %}")])
def test_templates_that_refer_to_each_other_in_a_circle_are_refused(tiny_pack, how, tag):
    folder = tiny_pack / "templates" / "tiny"
    (folder / "front.svg.j2").write_text(tag.replace("NAME", '"tiny/b.svg.j2"') + "\n", encoding="utf-8")
    (folder / "b.svg.j2").write_text("{# b #}\n" + tag.replace("NAME", '"tiny/front.svg.j2"') + "\n",
                                     encoding="utf-8")
    result = run_cli("build", str(tiny_pack), "--lang", "en", "--out", "out", cwd=tiny_pack.parent)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr
    assert result.stderr.splitlines()[0] == "1 problem in the data:"
    [line] = result.stderr.splitlines()[1:]
    assert line.startswith("tiny/templates/tiny/front.svg.j2:1: card alpha: front: ")
    assert f"tiny/front.svg.j2:1 {how} tiny/b.svg.j2, tiny/b.svg.j2:2 {how} tiny/front.svg.j2: " in line
    [finding] = check_pack(tiny_pack, {"print"}, languages=["en"])
    assert (finding.rule, finding.fatal) == ("template.cycle", True)


def test_a_macro_that_calls_itself_without_end_is_a_message(tiny_pack):
    front = tiny_pack / "templates" / "tiny" / "front.svg.j2"
    front.write_text("{% macro deeper(n) %}{{ deeper(n + 1) }}{% endmacro %}\n{{ deeper(1) }}\n", encoding="utf-8")
    result = run_cli("check", str(tiny_pack), cwd=tiny_pack.parent)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    [line] = [line for line in result.stdout.splitlines() if "error [" in line]
    assert line.startswith("tiny/templates/tiny/front.svg.j2:1: error [template.recursion] card alpha: front: ")
    assert "calls itself without end" in line


# ---- control characters: refused with the text's key, never an XML traceback --------------------------
def test_a_bel_in_a_card_text_is_refused_at_the_texts_line(tiny_pack, monkeypatch):
    monkeypatch.chdir(tiny_pack.parent)
    en = tiny_pack / "text" / "en.yaml"
    edit(en, "body: Two faces}", 'body: "Two\\a faces"}')
    [finding] = check_pack(tiny_pack, {"print"}, languages=["en"])
    assert (finding.rule, finding.file, finding.line, finding.key) == (
        "text.control-char", "tiny/text/en.yaml", line_of(en, "gamma:"), "card.gamma.body")
    assert finding.fatal and "U+0007" in finding.message and "card gamma" in finding.message
    result = run_cli("build", str(tiny_pack), "--lang", "en", "--out", "out", cwd=tiny_pack.parent)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "'Two\\x07 faces' holds the control character U+0007" in result.stderr
    assert not (tiny_pack.parent / "out").exists()


def test_a_bel_a_template_prints_itself_names_the_text_key(tiny_pack, monkeypatch):
    """Outside textbox(), straight into the SVG: found in the face's SVG, traced to its text key."""
    monkeypatch.chdir(tiny_pack.parent)
    edit(tiny_pack / "text" / "en.yaml", "body: Two faces}", 'body: "Two\\a faces"}')
    edit(tiny_pack / "templates" / "tiny" / "front.svg.j2", "{% block art %}", "{% block art %}\n<desc>{{ card.body }}</desc>")
    for drawings in (False, True):                  # `pnp check` lays out only, `pnp build` draws too
        _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=drawings)
        [problem] = problems
        assert (problem.code, problem.key, problem.file) == ("text.control-char", "card.gamma.body", "tiny/text/en.yaml")
        assert problem.message.startswith("text 'card.gamma.body' holds the control character U+0007")


def test_a_bel_in_a_player_aid_text_is_refused_not_a_traceback(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "cimiterio"
    shutil.copytree(DATA / "cimiterio", pack)
    en = pack / "text" / "en.yaml"
    edit(en, 'event: "Draw an event card', 'event: "Draw an\\a event card')
    _plan, problems = render_components(load_pack(pack), "en", BuildOptions())
    [problem] = problems
    assert (problem.code, problem.key, problem.get("text_key")) == ("text.control-char", "components[3]",
                                                                    "aid.turn.event")
    assert "'Draw an\\x07 event card and resolve it.' holds the control character U+0007" in problem.message


def test_a_bel_in_a_pack_templates_own_output_is_refused_not_a_traceback(tmp_path):
    pack = tmp_path / "zombie-run"
    shutil.copytree(DATA / "zombie-run", pack)
    (pack / "templates").mkdir()
    (pack / "templates" / "track.svg.j2").write_text('<text x="1" y="1">Bell\x07</text>\n<g>\n', encoding="utf-8")
    with (pack / "components.yaml").open("a", encoding="utf-8") as f:
        f.write("- {type: template, template: track.svg.j2, width: 54mm, height: 20mm}\n")
    [problem] = plan_components(load_pack(pack), "en", "a4").problems
    assert (problem.code, problem.key) == ("text.control-char", "components[1].template")
    assert "U+0007" in problem.message and "Bell" in problem.message
    (pack / "templates" / "track.svg.j2").write_text('<text x="1" y="1">Bell</text>\n<g>\n', encoding="utf-8")
    [problem] = plan_components(load_pack(pack), "en", "a4").problems
    assert (problem.code, problem.key) == ("component.template", "components[1].template")
    assert "not well-formed XML" in problem.message


# ---- a pack's own template component: its mistakes at the template's line, like a card template's ---
@pytest.fixture
def track(tmp_path, monkeypatch) -> Path:
    """A copy of zombie-run with a template component (track.svg.j2, whose text each test writes)."""
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "zombie-run"
    shutil.copytree(DATA / "zombie-run", pack)
    (pack / "templates").mkdir()
    with (pack / "components.yaml").open("a", encoding="utf-8") as f:
        f.write("- {type: template, template: track.svg.j2, width: 54mm, height: 20mm, label: track}\n")
    return pack


def _check_and_build(pack: Path) -> list[str]:
    """The errors `pnp check` and `pnp build` print about `pack` (both exit 2, no traceback)."""
    said = []
    for command in (["check", "zombie-run"], ["build", "zombie-run", "--out", "out"]):
        result = run_cli(*command, cwd=pack.parent)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        said.append(next(line for line in (result.stdout + result.stderr).splitlines() if "track.svg.j2:" in line))
    return said


def test_an_undefined_name_in_a_template_component_is_at_its_line_with_the_name_it_gets(track):
    template = track / "templates" / "track.svg.j2"
    template.write_text('<rect x="0" y="0" width="{{ w|mm }}" height="{{ h|mm }}" fill="#ffffff"/>\n'
                        '<rect x="1" y="1" width="{{ (width - 2)|mm }}" height="5" fill="#000000"/>\n', encoding="utf-8")
    entry = f"(named at zombie-run/components.yaml:{line_of(track / 'components.yaml', 'track.svg.j2')})"
    reason = f"there is no variable 'width'; did you mean 'w'? {entry}"
    [finding] = check_pack(track, {"print"})                     # one, not one per language and paper
    assert (finding.rule, finding.file, finding.line, finding.key, finding.lang) == (
        "template.undefined", "zombie-run/templates/track.svg.j2", 2, "components[1].template", "")
    assert finding.message == reason and "components.yaml" in finding.hint and "card" not in finding.hint
    checked, built = _check_and_build(track)
    assert checked.startswith("zombie-run/templates/track.svg.j2:2: error [template.undefined] components[1].template: ")
    assert built == f"zombie-run/templates/track.svg.j2:2: components[1].template: {reason}"


def test_svg_a_template_component_writes_and_the_compiler_refuses_is_at_that_line(track):
    template = track / "templates" / "track.svg.j2"
    template.write_text('<rect x="0" y="0" width="{{ w|mm }}" height="{{ h|mm }}" fill="#ffffff"/>\n'
                        '{% for i in range(copy) %}\n'
                        '<circle cx="{{ 5 + i }}" cy="5" r="2" fill="#000000" filter="url(#blur)"/>\n'
                        '{% endfor %}\n', encoding="utf-8")
    [problem] = plan_components(load_pack(track), "en", "a4").problems
    assert (problem.code, problem.file, problem.line, problem.key) == (
        "template.svg", "zombie-run/templates/track.svg.j2", 3, "components[1].template")
    assert problem.get("template") == "track.svg.j2" and problem.get("template_line") == 3
    assert "attribute 'filter' is not supported on <circle>" in problem.message
    checked, built = _check_and_build(track)
    assert checked.startswith("zombie-run/templates/track.svg.j2:3: error [template.svg] components[1].template: ")
    assert built.startswith("zombie-run/templates/track.svg.j2:3: components[1].template: <circle ")


def test_a_template_component_not_found_or_asking_for_an_unknown_colour_is_one_message(track):
    components = track / "components.yaml"
    edit(components, "template: track.svg.j2", "template: trak.svg.j2")
    [finding] = check_pack(track, {"print"})            # the same in every language: said once
    assert (finding.rule, finding.file, finding.line, finding.key, finding.lang) == (
        "template.not-found", "zombie-run/components.yaml", line_of(components, "trak.svg.j2"),
        "components[1].template", "")
    edit(components, "template: trak.svg.j2", "template: track.svg.j2")
    (track / "templates" / "track.svg.j2").write_text('<rect x="0" y="0" width="{{ w|mm }}" height="{{ h|mm }}"\n'
                                                      '      fill="{{ colour(\'hazrd\') }}"/>\n', encoding="utf-8")
    [finding] = check_pack(track, {"print"})
    assert (finding.rule, finding.file, finding.line, finding.lang) == (
        "component.template", "zombie-run/templates/track.svg.j2", 2, "")
    assert finding.message.startswith("'hazrd' is not a colour: ")


def test_every_name_the_reference_says_a_template_component_gets_is_there(track):
    """The schema's own words (docs/reference.md): each name it lists renders, w and h among them."""
    from pnp.components.types import registered
    doc = registered()["template"].schema.doc
    names = {name.removesuffix("()") for name in re.findall(r"`([^`]+)`", doc)} - {"mm", "<svg>"}
    assert {"w", "h", "copy", "count", "component"} <= names
    (track / "templates" / "track.svg.j2").write_text(
        '<rect x="0" y="0" width="{{ w|mm }}" height="{{ h|mm }}" fill="#ffffff"/>\n'
        + "".join(f"{{% if {name} is not defined %}}{{{{ {name} }}}}{{% endif %}}\n" for name in sorted(names)),
        encoding="utf-8")
    assert not plan_components(load_pack(track), "en", "a4").problems


# ---- templates stay inside the pack -----------------------------------------------------------------
@pytest.fixture
def outside(tmp_path) -> Path:
    """A template outside the pack that would render if it were read."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    secret = folder / "secret.svg.j2"
    secret.write_text('{% extends "_base/card.svg.j2" %}\n', encoding="utf-8")
    return secret


@pytest.fixture
def opened(monkeypatch) -> list[str]:
    """Every file Jinja's loaders open."""
    names: list[str] = []

    def spy(file, *args, **kwargs):
        names.append(os.fspath(file))
        return open(file, *args, **kwargs)
    monkeypatch.setattr(jinja2.loaders, "open", spy, raising=False)
    return names


def test_a_template_linked_to_a_file_outside_the_pack_is_refused_unread(tiny_pack, outside, opened):
    back = tiny_pack / "templates" / "tiny" / "back.svg.j2"
    back.unlink()
    back.symlink_to(outside)
    _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=False)
    [problem] = problems
    assert problem.code == "template.outside" and problem.face == "back" and problem.key == "card alpha"
    assert problem.message.startswith("template tiny/back.svg.j2: refused: it is a link to a file outside ")
    assert problem.message.endswith("(and 3 more cards)")      # alpha's 3 copies and beta
    assert opened and not [name for name in opened if Path(name).resolve() == outside]


def test_a_linked_folder_and_a_dotted_include_are_refused_unread(tiny_pack, outside, opened):
    folder = tiny_pack / "templates" / "tiny"
    (folder / "elsewhere").symlink_to(outside.parent, target_is_directory=True)
    (folder / "back.svg.j2").write_text('{% include "tiny/elsewhere/secret.svg.j2" %}\n', encoding="utf-8")
    edit(folder / "second.svg.j2", "{% block art %}", '{% block art %}\n{% include "../../../elsewhere/secret.svg.j2" %}')
    cards = display_path(tiny_pack / "cards" / "main.yaml")
    _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=False)
    got = sorted((p.code, p.line, p.message) for p in problems)
    assert got == [
        ("template.outside", 1, "template 'tiny/elsewhere/secret.svg.j2' refused: it is a link to a file outside "
         f"{tiny_pack.resolve()} (copy the file into the pack instead) (card alpha at {cards}:1, and 3 more cards)"),
        ("template.outside", 3, "template '../../../elsewhere/secret.svg.j2' refused: '..' would leave the templates "
         f"folder (name a template by its path below templates/) (card gamma at {cards}:3)")]
    assert not [name for name in opened if Path(name).resolve() == outside]


def test_a_link_inside_the_pack_is_followed(tiny_pack):
    folder = tiny_pack / "templates" / "tiny"
    art = tiny_pack / "art"
    art.mkdir()
    (folder / "back.svg.j2").rename(art / "back.svg.j2")
    (folder / "back.svg.j2").symlink_to(art / "back.svg.j2")
    _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=False)
    assert problems == []


def test_a_template_nested_thousands_deep_is_a_message(tiny_pack):
    (tiny_pack / "templates" / "tiny" / "back.svg.j2").write_text("{% if 1 %}" * 3000 + "{% endif %}" * 3000,
                                                                 encoding="utf-8")
    _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=False)
    [problem] = problems
    assert (problem.code, problem.key, problem.face) == ("template.recursion", "card alpha", "back")
    assert problem.message == ("template tiny/back.svg.j2: it nests tags or brackets too deep to be read "
                               "(thousands inside each other) (and 3 more cards)")


# ---- every kind of template typo: one message, at the line where it is, in the designer's terms ---------
BODY_LINE = '{{ textbox(card.body, safe + 1, 30, w - 2*safe - 2, 40, size=10, min_size=6) }}'
PARTS = {      # templates the typos below include or import, each with its own typo
    "part.svg.j2": "<g>\n{{ card.titel }}\n</g>\n",
    "macros.svg.j2": "{# macros #}\n{% macro badge(c) %}\n<g>{{ c.titel }}</g>\n{% endmacro %}\n"
                     "{% macro shout(text) %}\n<g>{{ text|upper }}</g>\n{% endmacro %}\n",
    "broken.svg.j2": "<g>\n{{ card.title }\n</g>\n",
}
FIELDS = "id, base_id, kind, deck, copy, quantity, title, body, colour_id, colour, value"
TYPOS = [   # (what, the front's body line becomes, file with the error, its line, the message)
    ("syntax", "{{ textbox(card.body, safe + 1, 30 }}", "front", 6, "unexpected '}', expected ')'"),
    ("unclosed for", "{% for x in [1] %}\n{{ x }}\n{% endfro %}", "front", 8,
     "Encountered unknown tag 'endfro'. Jinja was looking for the following tags: 'endfor' or 'else'. "
     "The innermost block that needs to be closed is 'for'."),
    ("field", "{{ card.titel }}", "front", 6,
     f"card has no field 'titel' (its fields: {FIELDS}; did you mean 'title'?)"),
    ("field of a text", "{{ card.body.size }}", "front", 6, "a text has no field 'size'"),
    ("field in a loop", "{% for i in range(3) %}\n{{ card.titel }}\n{% endfor %}", "front", 7,
     f"card has no field 'titel' (its fields: {FIELDS}; did you mean 'title'?)"),
    ("loop variable", "{% for i in [1] %}{{ loop.indx }}{% endfor %}", "front", 6,
     "loop has no 'indx' (it has: changed, cycle, depth, first, index, index0, last, length, nextitem, "
     "previtem, revindex, revindex0; did you mean 'index'?)"),
    ("filter", "{{ card.body|uper }}", "front", 6, "there is no filter 'uper'; did you mean 'upper'?"),
    ("helper argument", "{{ textbox(card.body, 1, 2, 3, 4, sise=10) }}", "front", 6,
     "textbox() has no argument 'sise' (its arguments: text, x, y, w, h, font, size, min_size, align, valign, "
     "fill, line_height, max_lines, opacity, direction; did you mean 'size'?)"),
    ("helper arguments missing", "{{ textbox(card.body, 1, 2) }}", "front", 6,
     "textbox() needs 'w', 'h' (its arguments: text, x, y, w, h, font, size, min_size, align, valign, "
     "fill, line_height, max_lines, opacity, direction)"),
    ("macro arguments", "{% macro m(a) %}{{ a }}{% endmacro %}\n{{ m(1, 2) }}", "front", 7,
     "macro m() takes 1 value (a), got 2"),
    ("text and number", "{{ card.value + card.title }}", "front", 6, "cannot compute number 1 + a text"),
    ("calling a text", "{{ card.body() }}", "front", 6, "a text is not a function or macro, it cannot be called"),
    ("included template", '{% include "tiny/part.svg.j2" %}', "part", 2,
     f"card has no field 'titel' (its fields: {FIELDS}; did you mean 'title'?)"),
    ("included syntax", '{% include "tiny/broken.svg.j2" %}', "broken", 2, "unexpected '}'"),
    ("imported macro", '{% import "tiny/macros.svg.j2" as m %}\n{{ m.badge(card) }}', "macros", 3,
     f"card has no field 'titel' (its fields: {FIELDS}; did you mean 'title'?)"),
    # the typo is passed along and fails where it is used (inside the macro, two lines later): the
    # message names the line that looked the field up, where the fix is
    ("field into a macro", '{% import "tiny/macros.svg.j2" as m %}\n{{ m.shout(card.titel) }}', "front", 7,
     f"card has no field 'titel' (its fields: {FIELDS}; did you mean 'title'?)"),
    ("field kept, used later", '{% set name = card.titel %}\n<g>\n{{ name }}\n</g>', "front", 6,
     f"card has no field 'titel' (its fields: {FIELDS}; did you mean 'title'?)"),
    ("macro name", '{% import "tiny/macros.svg.j2" as m %}\n{{ m.bagde(card) }}', "front", 7,
     "imported template 'tiny/macros.svg.j2' has no macro 'bagde' (its macros: badge, shout; did you mean 'badge'?)"),
    ("SVG element", '<blink x="1"/>', "front", 6, '<blink x="1">: element <blink> is not supported'),
    ("SVG colour", '<rect x="1" y="1" width="{{ w }}" height="2" fill="blurple"/>', "front", 6,
     "<rect x=\"1\" y=\"1\" width=\"63.0\" height=\"2\" fill=\"blurple\">: attribute 'fill': 'blurple' is not a "
     "supported colour (use #rrggbb, #rgb, rgb(), a colour name or none)"),
]
PYTHON_WORDS = ("Record", "Undefined", "jinja2", "object", "TypeError", "Error:", "<locals>", "Traceback",
                "str ", "int ", "'str'", "'int'")


@pytest.mark.parametrize("what, typo, where, line, message", TYPOS, ids=[t[0] for t in TYPOS])
def test_each_kind_of_typo_is_one_message_at_its_template_line(tiny_pack, what, typo, where, line, message):
    folder = tiny_pack / "templates" / "tiny"
    for name, text in PARTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    edit(folder / "front.svg.j2", BODY_LINE, typo)
    result = run_cli("build", "tiny", "--lang", "all", "--out", "out", cwd=tiny_pack.parent)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.splitlines()[0] == "1 problem in the data:", result.stderr   # 5 cards x 2 languages
    [got] = result.stderr.splitlines()[1:]
    assert got == (f"tiny/templates/tiny/{where}.svg.j2:{line}: card alpha: front: {message} "
                   "(card alpha at tiny/cards/main.yaml:1, and 4 more cards)")
    assert not [word for word in PYTHON_WORDS if word in got.replace(message, "") or word in message], got
    assert not (tiny_pack.parent / "out").exists()


def test_the_quick_argument_check_never_passes_a_call_python_would_refuse():
    """Accepted.takes answers the common template call without inspect's bind: wherever it says
    yes, bind must agree (else a bad call would reach the helper and fail as a TypeError inside
    it), and it must say yes to the ordinary calls, which is what makes it worth having."""
    import inspect
    import random

    from pnp.render.templates import Accepted

    def keywords(a, b, c=1, *, d, e=2): ...
    def positional_only(a, /, b, c=3, **more): ...
    def only_varargs(*args, x=1): ...
    def everything(a, b=2, *args, c, **more): ...
    def nothing(): ...
    rng = random.Random(13)
    names = ["a", "b", "c", "d", "e", "x", "more", "args", "z"]
    vouched = 0
    for function in (keywords, positional_only, only_varargs, everything, nothing):
        signature = inspect.signature(function)
        accepted = Accepted(signature)
        for _ in range(2000):
            args = tuple(range(rng.randrange(5)))
            kwargs = dict.fromkeys(rng.sample(names, rng.randrange(4)), 0)
            if accepted.takes(args, kwargs):
                vouched += 1
                signature.bind(*args, **kwargs)          # raises TypeError if takes() was wrong
    assert vouched > 400                                  # 483 of the 10,000 random calls
    assert Accepted(inspect.signature(keywords)).takes((1, 2), {"d": 4})
    assert not Accepted(inspect.signature(keywords)).takes((1, 2), {"a": 4, "d": 4})


def test_a_template_saved_into_an_earlier_folder_is_read_in_the_same_process(tmp_path):
    """`--watch` and `pnp serve` keep one environment a process (pnp.components.art.environment):
    a pack's own copy of a shipped template, saved while they run, is what the next build reads,
    and so is the shipped one again once the copy is deleted (Jinja alone checks only the file it
    read)."""
    from pnp.components.art import environment

    own, shipped = tmp_path / "pack" / "templates", tmp_path / "shipped" / "templates"
    (shipped / "game").mkdir(parents=True)
    (own / "game").mkdir(parents=True)
    (shipped / "game" / "cell.svg.j2").write_text("<g>shipped</g>", encoding="utf-8")
    env = environment((own, shipped))
    assert env.get_template("game/cell.svg.j2").render() == "<g>shipped</g>"
    (own / "game" / "cell.svg.j2").write_text("<g>the pack's own</g>", encoding="utf-8")
    assert environment((own, shipped)) is env
    assert env.get_template("game/cell.svg.j2").render() == "<g>the pack's own</g>"
    (own / "game" / "cell.svg.j2").unlink()
    assert env.get_template("game/cell.svg.j2").render() == "<g>shipped</g>"
