"""Compiled templates kept in the process (pnp.render.templates.COMPILED): a second build in the
same process compiles no template again, a template whose text changed is compiled again and
prints its new text, and the PDFs are a fresh build's."""
from __future__ import annotations

import pytest
import test_facecache as shared
from jinja2 import Environment

from pnp.render import templates

build, edit, cards_pdf = shared.build, shared.edit, shared.cards_pdf
cache_dir = shared.cache_dir          # the fixture: an empty face cache for the test


@pytest.fixture
def compiled(monkeypatch) -> list[str]:
    """The names of the templates Jinja compiles from here on (a fresh process's empty memory)."""
    names: list[str] = []
    original = Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(templates, "COMPILED", templates.CompiledTemplates())
    monkeypatch.setattr(Environment, "compile", counting)
    return names


def test_a_second_build_compiles_nothing_and_a_changed_template_again(tiny_pack, tmp_path, cache_dir, compiled):
    build(tiny_pack, tmp_path / "first", cache=False)
    first = sorted(compiled)
    assert {"tiny/front.svg.j2", "tiny/back.svg.j2", "_base/card.svg.j2"} <= set(first)
    compiled.clear()
    build(tiny_pack, tmp_path / "second", cache=False)
    assert compiled == []
    assert cards_pdf(tmp_path / "second") == cards_pdf(tmp_path / "first")

    back = tiny_pack / "templates" / "tiny" / "back.svg.j2"
    edit(back, 'r="15"', 'r="9"')
    build(tiny_pack, tmp_path / "third", cache=False)
    assert compiled == ["tiny/back.svg.j2"]
    third = cards_pdf(tmp_path / "third")
    assert third != cards_pdf(tmp_path / "first")

    templates.COMPILED._code.clear()           # what a fresh process compiles from these files
    compiled.clear()
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert sorted(compiled) == first
    assert cards_pdf(tmp_path / "fresh") == third


def test_the_oldest_templates_go_first_past_the_limit(tiny_pack, tmp_path, cache_dir, compiled, monkeypatch):
    monkeypatch.setattr(templates.COMPILED, "limit", 2)
    build(tiny_pack, tmp_path / "first", cache=False)
    assert len(templates.COMPILED._code) == 2
    compiled.clear()
    build(tiny_pack, tmp_path / "second", cache=False)
    assert compiled                              # some were dropped, and compiled again
    assert cards_pdf(tmp_path / "second") == cards_pdf(tmp_path / "first")


def test_a_template_with_a_syntax_error_is_reported_on_every_build(tiny_pack, tmp_path, cache_dir, compiled):
    from pnp.errors import DataError

    edit(tiny_pack / "templates" / "tiny" / "back.svg.j2", "{% endblock %}", "{% endblock %}{% if %}")
    tries = []
    for out in ("first", "second"):
        with pytest.raises(DataError) as raised:
            build(tiny_pack, tmp_path / out, cache=False)
        assert any(p.code == templates.TEMPLATE_SYNTAX for p in raised.value.problems)
        tries.append(compiled.count("tiny/back.svg.j2"))
        compiled.clear()
    assert tries[0] > 0 and tries[1] == tries[0]         # parsed again each time: nothing kept of it
