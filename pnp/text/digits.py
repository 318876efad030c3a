"""Printed numbers: Latin (0-9) or Arabic-Indic (٠-٩) digits, and signs that read right to left.

Numbers are data (card values, counts, the numbers in a rule text); how they print is the text
layer's business, decided here just before a text is laid out (`textbox()` and component text call
`printed`), so data, text keys, PO files and the fit report's texts never change.

Which digits: pack.yaml's `digits` names a system per language ({ar: arabic-indic}; a language not
named prints Latin digits), and `pnp build --digits latin|arabic-indic` overrides it for the
right-to-left languages of a build. `using(numbers)` makes a setting the one `printed` applies (a
context variable, like `pnp.text.packfonts.using`); without one, text prints as written.

Arabic-Indic: each digit 0-9 becomes ٠-٩; between digits "." becomes the Arabic decimal separator
٫ and "," the thousands separator ٬, and "%" after a digit the Arabic percent sign ٪ (CLDR's `arab`
number symbols). Not in a Latin token: a word with a left-to-right letter in it, its parts joined
by . , : / + - ("v1.2", "D6", "2d6+1", "x2"), is a name or a notation the translator wrote in Latin
and prints as written, digits, separators and all; a number standing alone ("5", "3.5", "100%", the
"2" of "Cimiterio 2") or attached to Arabic letters changes.

Signs, in a right-to-left language. CLDR writes Arabic signed numbers with a mark before the sign
(Arabic plusSign/minusSign): ARABIC LETTER MARK (U+061C) with Arabic-Indic digits, so the sign
belongs to the right-to-left text and is read first, to the right of the digits ("٦+" as drawn);
LEFT-TO-RIGHT MARK (U+200E) with Latin digits, so "+6" stays as in left-to-right text. `printed`
puts that mark before a + - − ± that starts a number (at the start of the text or after a space or
an opening bracket). Without it the bidi algorithm draws "+6" in Arabic text as "6+".

Number badges: a text that is only a number with a sign, a "+" after it ("6+": six or more) or a
range ("1–5") is laid out right to left in a right-to-left language, even in a box a template forces
left to right (it is wrapped in RIGHT-TO-LEFT ISOLATE ... POP DIRECTIONAL ISOLATE). "6+" then reads
"six, or more" from the right (drawn "+6"), "1–5" reads from 1 to 5 (1 on the right), and a signed
number follows CLDR as above. A bare number is left alone.
"""
from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

SYSTEMS = ("latin", "arabic-indic")
ALM, LRM = "\u061c", "\u200e"
RLI, PDI = "\u2067", "\u2069"
_ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
_DIGIT = "0-9\u0660-\u0669"
_SEPARATOR = re.compile(f"(?<=[{_DIGIT}])([.,])(?=[{_DIGIT}])")
_PERCENT = re.compile(f"(?<=[{_DIGIT}])%")
# a sign that starts a number: at the start, or after white space or an opening bracket
_SIGN = re.compile(f"(?:^|(?<=[\\s(\\[{{«]))([+\\-\u2212\u00b1])(?=[{_DIGIT}])")
# a word and the words joined to it by . , : / + - ; one with a left-to-right letter keeps its digits
_TOKEN = re.compile(r"\w+(?:[.,:/+\-]\w+)*")
_BADGE = re.compile(f"[+\\-\u2212\u00b1]?[{_DIGIT}]+(?:[\u2013\\-][{_DIGIT}]+|\\+)?")


@dataclass(frozen=True)
class Numbers:
    """How numbers print in one language of one build."""

    system: str = "latin"      # one of SYSTEMS
    rtl: bool = False          # the language is written right to left: signs and badges read so


_ACTIVE: ContextVar[Numbers | None] = ContextVar("pnp_numbers", default=None)


def active() -> Numbers | None:
    return _ACTIVE.get()


@contextlib.contextmanager
def using(numbers: Numbers | None) -> Iterator[Numbers | None]:
    token = _ACTIVE.set(numbers)
    try:
        yield numbers
    finally:
        _ACTIVE.reset(token)


def for_language(declared: dict[str, str], lang: str, override: str | None = None) -> Numbers:
    """The numbers of `lang`: pack.yaml's `digits` (`declared`), or the build's --digits
    (`override`) for a right-to-left language."""
    from pnp.i18n.direction import is_rtl

    rtl = is_rtl(lang)
    system = override if override and rtl else declared.get(lang, "latin")
    if system not in SYSTEMS:
        raise ValueError(f"unknown digits {system!r} (use {' or '.join(SYSTEMS)})")
    return Numbers(system, rtl)


def printed(text: str, numbers: Numbers | None = None) -> str:
    """`text` as it prints with `numbers` (default: the active setting; none: unchanged)."""
    numbers = numbers if numbers is not None else active()
    if numbers is None or not any(c.isdigit() for c in text):
        return text
    if numbers.system == "arabic-indic":
        text = _arabic_indic(text)
    if not numbers.rtl:
        return text
    mark = ALM if numbers.system == "arabic-indic" else LRM
    marked = _SIGN.sub(lambda m: mark + m.group(1), text)
    if _BADGE.fullmatch(text.strip()) and not text.strip().isdigit():
        return RLI + marked + PDI
    return marked


def _arabic_indic(text: str) -> str:
    """Arabic-Indic digits and number signs everywhere but in Latin tokens (they print as written)."""
    pieces, done = [], 0
    for token in _TOKEN.finditer(text):
        if any(c.isalpha() and unicodedata.bidirectional(c) == "L" for c in token.group()):
            pieces += [_arabic_indic_numbers(text[done:token.start()]), token.group()]
            done = token.end()
    pieces.append(_arabic_indic_numbers(text[done:]))
    return "".join(pieces)


def _arabic_indic_numbers(text: str) -> str:
    text = _PERCENT.sub("\u066a", text)
    text = _SEPARATOR.sub(lambda m: "\u066b" if m.group(1) == "." else "\u066c", text)
    return text.translate(_ARABIC_INDIC)


def printed_rich(rich, numbers: Numbers | None = None):
    """A `pnp.text.markup.Rich` as it prints: `printed` on its text, each inserted mark taking the
    style of the character after it (or before it, at the end)."""
    from pnp.text.markup import ICON_CHAR, Rich

    text = printed(rich.text, numbers)
    if text == rich.text:
        return rich
    if ICON_CHAR in rich.text and text.count(ICON_CHAR) != rich.text.count(ICON_CHAR):
        return rich                                   # never: printing only adds marks and maps digits
    if not rich.marks:
        return Rich(text, (), rich.icons)
    marks, source = [], 0
    inserted = {ALM, LRM, RLI, PDI}
    for char in text:
        if char in inserted and (source >= len(rich.text) or rich.text[source] != char):
            marks.append(rich.marks[min(source, len(rich.marks) - 1)])
        else:
            marks.append(rich.marks[source])
            source += 1
    return Rich(text, tuple(marks), rich.icons)
