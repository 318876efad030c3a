"""`t(key, n=None, **values)`: the text of `key` in one language, its plural form picked for `n`,
its `{placeholders}` filled."""
from __future__ import annotations

from pnp.i18n.placeholders import fill
from pnp.i18n.plurals import PluralText, pick


class TextLookupError(Exception):
    """The key is unknown, a plural text got no `n`, or a placeholder got no value."""


def translate(texts: dict[str, str], lang: str, key: str, n=None, **values) -> str:
    if key not in texts:
        raise TextLookupError(f"text key {key!r} has no {lang!r} text")
    text = texts[key]
    if isinstance(text, PluralText):
        if n is None:
            raise TextLookupError(f"text key {key!r} has plural forms: call t({key!r}, n=<number>)")
        text = pick(text, lang, n)
    if n is not None:
        values = {"n": n, **values}
    if not values:
        return str(text)
    try:
        return fill(text, values, lang)
    except KeyError as error:
        raise TextLookupError(f"text key {key!r} ({lang}) has the placeholder {{{error.args[0]}}} "
                              f"but t() got no value for it") from None
