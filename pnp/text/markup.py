"""Rich text inside printed text: `**bold**`, `*italic*`, `***both***`, inline icons `:skull:`
and the escapes `\\*`, `\\:` and `\\\\`. Parsed here, by the text layer, never by Jinja: card text
stays data (docs/text.md is the designer's description of these rules).

The rule for stars is CommonMark's idea of *flanking*, made stricter so that ordinary text keeps
its stars ("3 * 4", "3*4", "2*: move"):
- a run of one to three `*` opens when the character after it is not a space and the one before
  it is the start of the paragraph, a space or punctuation;
- it closes when the character before it is not a space and the one after it is the end, a space
  or punctuation;
- a closing run closes the innermost open run of the same length; runs nest (`**a *b* c**`);
- any other star is a literal star. A single `*` that can only close while nothing is open is
  a literal too (a rating or footnote mark after a word: "2*", "Zombie*").
Everything else that does not balance (an opening run never closed, `**` closing nothing, runs
crossing) is a TEXT_MARKUP problem, and that paragraph prints its stars as typed.

An icon is `:name:` with a name of lowercase letters, digits, `-` and `_` (starting with a
letter), not glued to a letter or digit on either side ("10:30", "a:b:c" stay text). A name the
pack has no icon for is a TEXT_ICON problem and prints as typed.

Markup never spans paragraphs (newlines).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container
from dataclasses import dataclass

from pnp.text.fitreport import TEXT_ICON, TEXT_MARKUP

BOLD, ITALIC = 1, 2
ICON_CHAR = "\ufffc"          # OBJECT REPLACEMENT CHARACTER: a bidi neutral, so an icon keeps its place
_STAR_BITS = {1: ITALIC, 2: BOLD, 3: BOLD | ITALIC}
_ICON = re.compile(r":([a-z][a-z0-9_-]{0,63}):")
_SPECIAL = ("*", ":", "\\")
_ESCAPABLE = "*:\\"


@dataclass(frozen=True)
class Rich:
    """A printed text after markup: `text` is what prints (each icon one ICON_CHAR), `marks` the
    BOLD/ITALIC bits of each of its characters (empty: all plain), `icons` the icon names in the
    order of their ICON_CHARs."""

    text: str
    marks: tuple[int, ...] = ()
    icons: tuple[str, ...] = ()

    @property
    def plain(self) -> bool:
        """True when nothing is bold, italic or an icon: the text lays out as it always did."""
        return not self.icons and not any(self.marks)


@dataclass(frozen=True)
class MarkupProblem:
    code: str                 # TEXT_MARKUP or TEXT_ICON
    reason: str               # what is wrong, for the designer


def _is_space(char: str | None) -> bool:
    return char is None or char.isspace()


def _is_punctuation(char: str | None) -> bool:
    return char is not None and unicodedata.category(char)[0] in "PS"


@dataclass
class _Token:
    text: str                  # what prints if the token is not markup
    kind: str = "text"         # "text" | "star" | "icon"
    opens: bool = False
    closes: bool = False
    bits: int = 0              # star: the BOLD/ITALIC bits it switches; text: set when matched
    matched: bool = False


def parse(text: str, has_icon: Container[str] | Callable[[str], bool] = ()) -> tuple[Rich, list[MarkupProblem]]:
    """The rich text of `text` and what is wrong with its markup. `has_icon(name)` (or `name in
    has_icon`) says whether the pack has that icon."""
    if not any(mark in text for mark in _SPECIAL):
        return Rich(text), []
    known = has_icon if callable(has_icon) else has_icon.__contains__
    problems: list[MarkupProblem] = []
    out_text: list[str] = []
    out_marks: list[int] = []
    icons: list[str] = []
    for index, paragraph in enumerate(text.split("\n")):
        if index:
            out_text.append("\n")
            out_marks.append(0)
        tokens = _tokens(paragraph, known, problems)
        if not _match(tokens, paragraph, problems):
            for token in tokens:           # unbalanced: the stars print as typed
                if token.kind == "star":
                    token.kind = "text"
        _emit(tokens, out_text, out_marks, icons)
    rich_text = "".join(out_text)
    marks = tuple(out_marks) if any(out_marks) else ()
    return Rich(rich_text, marks, tuple(icons)), problems


def _tokens(paragraph: str, known: Callable[[str], bool], problems: list[MarkupProblem]) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(paragraph)

    def before(at: int) -> str | None:
        return paragraph[at - 1] if at > 0 else None

    while i < n:
        char = paragraph[i]
        if char == "\\" and i + 1 < n and paragraph[i + 1] in _ESCAPABLE:
            tokens.append(_Token(paragraph[i + 1]))
            i += 2
            continue
        if char == "*":
            j = i
            while j < n and paragraph[j] == "*":
                j += 1
            run = paragraph[i:j]
            prev, after = before(i), (paragraph[j] if j < n else None)
            if len(run) in _STAR_BITS:
                opens = not _is_space(after) and (_is_space(prev) or _is_punctuation(prev))
                closes = not _is_space(prev) and (_is_space(after) or _is_punctuation(after))
                tokens.append(_Token(run, "star", opens, closes, _STAR_BITS[len(run)]))
            else:
                tokens.append(_Token(run))
            i = j
            continue
        if char == ":":
            match = _ICON.match(paragraph, i)
            if match and not _glued(before(i)) and not _glued(paragraph[match.end()] if match.end() < n else None):
                name = match.group(1)
                if known(name):
                    tokens.append(_Token(name, "icon"))
                else:
                    problems.append(MarkupProblem(TEXT_ICON, f"no icon {name!r} in the pack's icons folder "
                                                  f"(write \\:{name}: to print the colons)"))
                    tokens.append(_Token(match.group(0)))
                i = match.end()
                continue
        tokens.append(_Token(char))
        i += 1
    return tokens


def _glued(char: str | None) -> bool:
    return char is not None and unicodedata.category(char)[0] in "LN"


def _match(tokens: list[_Token], paragraph: str, problems: list[MarkupProblem]) -> bool:
    """Pair the star runs; False (with a problem) when they do not balance."""
    stack: list[_Token] = []
    for token in tokens:
        if token.kind != "star":
            continue
        if not token.opens and not token.closes:   # "3 * 4", "3*4": flanks no word
            token.kind = "text"
            continue
        if token.closes and stack and stack[-1].text == token.text:
            opener = stack.pop()
            opener.matched = token.matched = True
            continue
        if token.closes and any(open_.text == token.text for open_ in stack):
            problems.append(MarkupProblem(TEXT_MARKUP, f"{token.text!r} closes {token.text!r} across "
                                          f"{stack[-1].text!r}, which is still open: close the inner one first"))
            return False
        if token.opens:
            stack.append(token)
            continue
        if token.closes and len(token.text) == 1 and not stack:
            token.kind = "text"              # "2*", "Zombie*": a mark after a word
            continue
        problems.append(MarkupProblem(TEXT_MARKUP, f"{token.text!r} closes {_what(token.text)} that was never "
                                      f"opened (write {_escaped(token.text)} to print the stars)"))
        return False
    if stack:
        first = stack[0]
        problems.append(MarkupProblem(TEXT_MARKUP, f"{first.text!r} opens {_what(first.text)} that never closes "
                                      f"in {paragraph!r} (write {_escaped(first.text)} to print the stars)"))
        return False
    return True


def _what(stars: str) -> str:
    return {1: "italic", 2: "bold", 3: "bold italic"}[len(stars)]


def _escaped(stars: str) -> str:
    return "\\*" * len(stars)


def _emit(tokens: list[_Token], out_text: list[str], out_marks: list[int], icons: list[str]) -> None:
    bits = 0
    for token in tokens:
        if token.kind == "star" and token.matched:
            bits ^= token.bits
            continue
        if token.kind == "icon":
            icons.append(token.text)
            out_text.append(ICON_CHAR)
            out_marks.append(bits)
            continue
        out_text.append(token.text)
        out_marks.extend([bits] * len(token.text))


def variant(base: str, bits: int, known: Callable[[str], bool]) -> str:
    """The style of a BOLD/ITALIC span inside a box of style `base`.

    regular -> bold, italic, bold-italic; bold -> bold, bold-italic; a style X with variants of its
    own (X-bold, X-italic, X-bold-italic, declared by the pack) uses them. A style without them
    keeps itself for bold (a condensed bold box stays condensed) and takes italic or bold-italic
    for italic."""
    if not bits:
        return base
    suffix = {BOLD: "bold", ITALIC: "italic", BOLD | ITALIC: "bold-italic"}[bits]
    if base in ("regular", "bold", "italic", "bold-italic"):
        weight_bold = bool(bits & BOLD) or base in ("bold", "bold-italic")
        slant = bool(bits & ITALIC) or base in ("italic", "bold-italic")
        return {(False, False): "regular", (True, False): "bold", (False, True): "italic",
                (True, True): "bold-italic"}[(weight_bold, slant)]
    own = f"{base}-{suffix}"
    if known(own):
        return own
    if bits == BOLD:
        return base
    return "bold-italic" if bits & BOLD or base == "condensed" else "italic"
