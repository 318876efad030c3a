"""The preview's HTML: one page whose script swaps in fragments rendered here.

Everything is rendered by a Jinja environment with autoescape on, so a card titled
`<script>alert(1)</script>` shows as text; the page's script only sets `innerHTML` from these
fragments and builds no HTML from data itself.
"""
from __future__ import annotations

from typing import Any

import jinja2

from pnp.composition import Finding
from pnp.errors import display_path, location
from pnp.print_constants import PAPERS
from pnp.serve.preview import LangView, Preview

TABS = ("cards", "sheets", "components")


def where(f: Finding) -> str:
    """'file:line: key:' as `pnp check` prints it (pnp.errors.location)."""
    return location(f.file, f.line, f.key, lang=f.lang, face=f.face)


_TEMPLATES = {
    "page.html": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pnp serve: {{ name }}</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 0; background: #eee; color: #222; }
header { position: sticky; top: 0; background: #223; color: #fff; padding: .5em 1em; display: flex; gap: 1em;
         align-items: center; flex-wrap: wrap; z-index: 1; }
header button { background: #445; color: #fff; border: 0; padding: .3em .8em; cursor: pointer; }
header button.on { background: #88a; }
main { padding: 1em; }
h2 { margin: 1em 0 .5em; }
.cards { display: flex; flex-wrap: wrap; gap: 1em; }
figure.card { margin: 0; background: #fff; padding: .5em; cursor: pointer; max-width: 260px; }
figure.card img, .pages img { height: 180px; margin-right: 4px; box-shadow: 0 0 2px #888; }
figure.card.bad { outline: 3px solid #c33; }
figcaption { font-size: 12px; }
.texts { color: #555; display: block; }
ul.findings, ul.errors { padding-left: 1.2em; margin: .3em 0; font-size: 12px; }
.error, ul.errors li { color: #b00; }
.warning { color: #a60; }
.pages figure { display: inline-block; margin: 0 1em 1em 0; background: #fff; padding: .5em; }
.pages img { height: 420px; }
dialog { max-width: 90vw; max-height: 90vh; overflow: auto; }
dialog img { height: 60vh; margin-right: 8px; }
table { border-collapse: collapse; font-size: 12px; } td, th { border: 1px solid #ccc; padding: 2px 6px; }
</style></head>
<body><div id="app">loading…</div><dialog id="detail"></dialog>
<script>
const app = document.getElementById("app"), detail = document.getElementById("detail");
const query = new URLSearchParams(location.search);
const state = {tab: query.get("tab") || "cards", lang: query.get("lang") || "", paper: query.get("paper") || "a4"};
let asked = 0, openCard = null;
async function refresh() {
  const mine = ++asked, params = new URLSearchParams(state);
  const html = await (await fetch("/view?" + params)).text();
  if (mine !== asked) return;                       // a newer refresh is on its way
  app.innerHTML = html;
  const root = app.querySelector("[data-lang]");
  if (root) state.lang = root.dataset.lang;
  history.replaceState(null, "", "/?" + new URLSearchParams(state));
  if (openCard) show(openCard);
}
async function show(id) {
  openCard = id;
  detail.innerHTML = await (await fetch("/card?" + new URLSearchParams({id: id, lang: state.lang}))).text();
  if (!detail.open) detail.showModal();
}
app.addEventListener("change", e => { if (e.target.name in state) { state[e.target.name] = e.target.value; refresh(); } });
app.addEventListener("click", e => {
  const tab = e.target.closest("[data-tab]");
  if (tab) { state.tab = tab.dataset.tab; refresh(); return; }
  const card = e.target.closest("[data-card]");
  if (card) show(card.dataset.card);
});
detail.addEventListener("close", () => { openCard = null; });
detail.addEventListener("click", e => { if (e.target === detail || e.target.closest("[data-close]")) detail.close(); });
new EventSource("/events").onmessage = refresh;
refresh();
</script></body></html>
""",
    "header.html": """<header>
<b>{{ name }}</b>
{% if languages %}<label>Language <select name="lang">{% for l in languages %}
<option{{ " selected" if l == lang }}>{{ l }}</option>{% endfor %}</select></label>{% endif %}
<label>Paper <select name="paper">{% for p in papers %}<option{{ " selected" if p == paper }}>{{ p }}</option>
{% endfor %}</select></label>
<nav>{% for t in tabs %}<button data-tab="{{ t }}"{{ ' class="on"' | safe if t == tab }}>{{ t }}</button>{% endfor %}</nav>
<span id="status" data-version="{{ version }}">v{{ version }} · {{ redraws }} faces drawn</span>
</header>""",
    "errors.html": """<section data-lang="" id="errors">{% include "header.html" %}<main>
<h2>The pack does not load</h2>
<ul class="errors">{% for f in errors %}<li>{{ where(f) }} {{ f.message }}{% if f.hint %} (hint: {{ f.hint }}){% endif %}</li>
{% endfor %}</ul><p>Fix the file and save: the cards come back by themselves.</p></main></section>""",
    "findings.html": """{% if findings %}<ul class="findings">{% for f in findings %}
<li class="{{ f.severity }}">{{ where(f) }} {{ f.severity }} [{{ f.rule }}] {{ f.message }}</li>{% endfor %}</ul>{% endif %}""",
    "cards.html": """<section data-lang="{{ lang }}" id="cards">{% include "header.html" %}<main>
{% with findings = view.findings %}{% include "findings.html" %}{% endwith %}
{% for deck, cards in view.decks %}<h2>{{ deck.id }} ({{ cards | length }})</h2><div class="cards">
{% for c in cards %}<figure class="card{{ ' bad' if c.findings }}" data-card="{{ c.card.base_id }}">
{% for f in c.faces %}{% if f.image %}<img src="/img/{{ f.image }}.png" alt="{{ c.card.base_id }} {{ f.side }}: {{ f.boxes | map(attribute='text') | join(' · ') }}" title="{{ c.card.base_id }} {{ f.side }}">{% else %}<span class="error">({{ f.side }} not drawn)</span>{% endif %}{% endfor %}
<figcaption><b>{{ c.card.base_id }}</b> ×{{ c.card.quantity }}<span class="texts">{{ c.texts | join(' · ') }}</span></figcaption>
{% with findings = c.findings %}{% include "findings.html" %}{% endwith %}
</figure>{% endfor %}</div>{% endfor %}</main></section>""",
    "pages.html": """<section data-lang="{{ lang }}" id="{{ tab }}">{% include "header.html" %}<main>
{% if pages is none %}<p>no pages</p>{% else %}{% if pages.note %}<p>{{ pages.note }}</p>{% endif %}
{% with findings = pages.findings %}{% include "findings.html" %}{% endwith %}
<div class="pages">{% for p in pages.pages %}<figure><img src="/img/{{ p.image }}.png" alt="{{ p.label }}">
<figcaption>{{ p.label }}</figcaption></figure>{% endfor %}</div>{% endif %}</main></section>""",
    "card.html": """<div id="card-detail" data-card="{{ c.card.base_id }}"><button data-close>close</button>
<h2>{{ c.card.base_id }}</h2>
<p>{{ c.card.file | shown }}:{{ c.card.line }} · kind {{ c.card.kind }} · deck {{ c.card.deck }} · {{ c.card.quantity }}
cop{{ "y" if c.card.quantity == 1 else "ies" }}</p>
<div>{% for f in c.faces %}{% if f.image %}<img src="/img/{{ f.image }}.png" alt="{{ f.side }}">{% endif %}{% endfor %}</div>
{% with findings = c.findings %}{% include "findings.html" %}{% endwith %}
{% for f in c.faces %}<h3>{{ f.side }}: text fit</h3>{% if f.boxes %}<table><tr><th>text</th><th>font</th>
<th>size used</th><th>asked (min)</th><th>box</th><th>lines</th><th>fits</th></tr>
{% for b in f.boxes %}<tr class="{{ 'error' if b.overflow }}"><td>{{ b.text }}</td><td>{{ b.font }}</td>
<td>{{ "%g" | format(b.used_pt) }} pt</td><td>{{ "%g" | format(b.size_pt) }} ({{ "%g" | format(b.min_size_pt) }}) pt</td>
<td>{{ "%g" | format(b.box_mm[0]) }}×{{ "%g" | format(b.box_mm[1]) }} mm</td><td>{{ b.lines }}</td>
<td>{{ "no" if b.overflow else ("shrunk" if b.used_pt < b.size_pt else "yes") }}</td></tr>{% endfor %}</table>
{% else %}<p>no text boxes</p>{% endif %}{% endfor %}</div>""",
}

_ENV = jinja2.Environment(loader=jinja2.DictLoader(_TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined)
_ENV.globals["where"] = where
_ENV.filters["shown"] = display_path


def _common(preview: Preview, tab: str, lang: str, paper: str) -> dict[str, Any]:
    pack = preview.pack
    return {"name": pack.texts[lang].get(pack.name, pack.id) if pack and lang in pack.texts else preview.root.name,
            "languages": list(pack.languages) if pack else [], "lang": lang, "papers": PAPERS, "paper": paper,
            "tabs": TABS, "tab": tab, "version": preview.version, "redraws": preview.redraws}


def page(preview: Preview) -> str:
    return _ENV.get_template("page.html").render(name=preview.pack.id if preview.pack else preview.root.name)


def fragment(preview: Preview, tab: str, lang: str | None, paper: str) -> str:
    """The header and the tab's content; the errors when the pack does not load."""
    with preview.lock:
        view = preview.view(lang)
        if view is None:
            return _ENV.get_template("errors.html").render(errors=preview.findings,
                                                           **_common(preview, tab, "", paper))
        common = _common(preview, tab, view.lang, paper)
        if tab == "cards":
            return _ENV.get_template("cards.html").render(view=view, **common)
        pages = preview.sheets(view.lang, paper) if tab == "sheets" else preview.components(view.lang, paper)
        return _ENV.get_template("pages.html").render(pages=pages, **common)


def card_detail(view: LangView, card_id: str) -> str | None:
    for _, cards in view.decks:
        for c in cards:
            if c.card.base_id == card_id:
                return _ENV.get_template("card.html").render(c=c)
    return None

