"""The Unicode bidirectional algorithm, as embedding levels per character (logical order).

python-bidi's pure-Python `bidi.algorithm` resolves the levels (rules P2-P3, X1-X10, W1-W7,
N1-N2, I1-I2); we stop there and do the rest ourselves, because lines are broken between
resolving levels and reordering them: `reorder(levels)` is rule L2 for one line (of runs or of
characters), and mirroring (L4) is done by HarfBuzz when it shapes a right-to-left run.
(python-bidi's Rust `get_display` would also do L2 and L4, but for a whole paragraph, on
characters, and without mirroring brackets.)

The pure-Python algorithm also predates rule N0 (Unicode 6.3: paired brackets take the direction
of what they enclose, BD16 pairing them), so `_resolve_bracket_pairs` applies it between W7 and N1.
Without it a bracket was resolved as a lone neutral, and the two brackets of a pair could get
different levels: "ممر Cimiterio (v1.2) سليم" printed its ")" at the Arabic level, drawn mirrored
on the wrong side ("سليم (Cimiterio (v1.2 ممر" left to right instead of fribidi's
"سليم Cimiterio (v1.2) ممر").

The pure-Python algorithm predates the isolates of Unicode 6.3 (LRI, RLI, FSI, PDI: U+2066-2069)
and asserts on them; `embedding_levels` reads them as the embeddings they extend (LRI as LRE, RLI
as RLE, FSI as whichever of the two its content's first strong character asks for, PDI as PDF).
The one difference: neutrals next to an isolate see its content, not skip over it, which only
matters for punctuation at an isolate's edge. Like every explicit control they print nothing.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from bidi import algorithm as _uba
from bidi.mirror import MIRRORED

STRONG_RTL = frozenset({"R", "AL"})
LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
LRE, RLE, PDF = "\u202a", "\u202b", "\u202c"
ISOLATES = frozenset({LRI, RLI, FSI, PDI})


def _without_isolates(text: str) -> str:
    """`text` with every isolate control replaced by the embedding control of the same direction
    (same length, so indices stay put)."""
    if not ISOLATES.intersection(text):
        return text
    out = []
    for index, char in enumerate(text):
        if char == LRI:
            out.append(LRE)
        elif char == RLI:
            out.append(RLE)
        elif char == PDI:
            out.append(PDF)
        elif char == FSI:
            out.append(RLE if _first_strong(text, index + 1) else LRE)
        else:
            out.append(char)
    return "".join(out)


def _first_strong(text: str, start: int) -> int:
    """P2-P3 for the content of an FSI starting at `start`: 1 if its first strong character
    (skipping nested isolates, stopping at the matching PDI) is right-to-left, else 0."""
    depth = 0
    for char in text[start:]:
        if char in (LRI, RLI, FSI):
            depth += 1
        elif char == PDI:
            if depth == 0:
                return 0
            depth -= 1
        elif depth == 0:
            kind = unicodedata.bidirectional(char)
            if kind in STRONG_RTL:
                return 1
            if kind == "L":
                return 0
    return 0


def base_level(text: str, direction: str = "auto") -> int:
    """0 (left-to-right) or 1 (right-to-left): forced by `direction` ("ltr"/"rtl"), or for
    "auto" from the first strong character (rules P2, P3; no strong character: LTR)."""
    if direction == "rtl":
        return 1
    if direction == "ltr":
        return 0
    if direction != "auto":
        raise ValueError(f"unknown direction {direction!r} (use auto, ltr or rtl)")
    return _first_strong(text, 0) if ISOLATES.intersection(text) else _uba.get_base_level(text)


@lru_cache(maxsize=4096)
def embedding_levels(text: str, base: int) -> tuple[int, ...]:
    """The resolved embedding level of each character of one paragraph (no line breaks inside).

    Characters the algorithm removes (X9: embedding controls, zero-width joiners and the like)
    get the level of the character before them, so they stay with it when runs are cut.
    Isolate controls (LRI, RLI, FSI, PDI) are read as embeddings (see the module's docstring)."""
    text = _without_isolates(text)
    storage = _uba.get_empty_storage()
    storage["base_level"] = base
    storage["base_dir"] = ("L", "R")[base]
    _uba.get_embedding_levels(text, storage)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index
    _uba.explicit_embed_and_overrides(storage)
    _uba.resolve_weak_types(storage, False)
    _resolve_bracket_pairs(storage)
    _uba.resolve_neutral_types(storage, False)
    _uba.resolve_implicit_levels(storage, False)
    resolved = {char["index"]: char["level"] for char in storage["chars"]}
    levels = []
    previous = base
    for index in range(len(text)):
        previous = resolved.get(index, previous)
        levels.append(previous)
    return tuple(levels)


# BD14-BD16: the paired brackets of UCD's BidiBrackets.txt are exactly the characters of general
# category Ps/Pe that are Bidi_Mirrored with a Bidi_Mirroring_Glyph (checked against fribidi's
# table by tests/test_bidi_brackets.py); a pair is an opening bracket and the mirror of its closing
# bracket, up to canonical equivalence (U+2329/U+232A are U+3008/U+3009).
_MAX_BRACKET_DEPTH = 63
_STRONG_OF = {"L": "L", "R": "R", "EN": "R", "AN": "R"}      # N0: numbers inside brackets count as R


@lru_cache(maxsize=1024)
def _bracket(char: str) -> tuple[str, str] | None:
    """('open' or 'close', the canonical opening bracket of its pair), or None: not a paired bracket."""
    category = unicodedata.category(char)
    if category not in ("Ps", "Pe") or not unicodedata.mirrored(char) or char not in MIRRORED:
        return None
    opening = char if category == "Ps" else MIRRORED[char]
    return ("open" if category == "Ps" else "close"), unicodedata.normalize("NFD", opening)


def _bracket_pairs(chars: list[dict]) -> list[tuple[int, int]]:
    """BD16: the bracket pairs of one isolating run sequence (indices into `chars`), sorted by the
    position of the opening bracket. Only characters still of type ON are brackets (not those an
    override made strong); a stack deeper than 63 brackets ends the search, keeping what was found."""
    stack: list[tuple[str, int]] = []
    pairs = []
    for index, char in enumerate(chars):
        if char["type"] != "ON":
            continue
        bracket = _bracket(char["ch"])
        if bracket is None:
            continue
        kind, opening = bracket
        if kind == "open":
            if len(stack) == _MAX_BRACKET_DEPTH:
                break
            stack.append((opening, index))
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == opening:
                pairs.append((stack[depth][1], index))
                del stack[depth:]
                break
    return sorted(pairs)


def _resolve_bracket_pairs(storage: dict) -> None:
    """Rule N0 on python-bidi's storage, between W7 and N1. Each level run is an isolating run
    sequence here (isolates are read as embeddings). For each pair, in order of its opening bracket:
    a strong type inside matching the embedding direction gives the brackets that direction; else
    a strong type inside of the other direction gives them the other direction when the context
    before the opening bracket (back to sor) has it too, and the embedding direction otherwise; with
    nothing strong inside they stay neutral. Nonspacing marks after a resolved bracket follow it."""
    for run in storage["runs"]:
        start, length = run["start"], run["length"]
        chars = storage["chars"][start:start + length]
        pairs = _bracket_pairs(chars)
        if not pairs:
            continue
        embedding = "R" if chars[0]["level"] % 2 else "L"
        for opening, closing in pairs:
            inside = {_STRONG_OF.get(char["type"]) for char in chars[opening + 1:closing]}
            if embedding in inside:
                direction = embedding
            elif inside & {"L", "R"}:
                context = next((_STRONG_OF[char["type"]] for char in reversed(chars[:opening])
                                if char["type"] in _STRONG_OF), run["sor"])
                direction = context          # the other direction if the context has it, else the embedding's
            else:
                continue
            for index in (opening, closing):
                chars[index]["type"] = direction
                following = index + 1
                while following < len(chars) and chars[following]["orig"] == "NSM":
                    chars[following]["type"] = direction
                    following += 1


def reorder(levels: list[int] | tuple[int, ...]) -> list[int]:
    """Rule L2 for one line: the logical indices of the items in visual order (left to right).

    From the highest level down to the lowest odd level, every maximal sequence of items at that
    level or higher is reversed. Items may be characters or runs of one level each."""
    order = list(range(len(levels)))
    if not levels:
        return order
    highest = max(levels)
    odd = [level for level in levels if level % 2]
    if not odd:
        return order
    lowest_odd = min(odd)
    for level in range(highest, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order
