"""Composition rules as data: `data/<game>/rules.yaml`, read by one generic checker.

A rules file is a mapping with a `rules:` list. Every rule has

    id: tombs.pairing        # unique in the file; findings carry it
    type: pairing            # one of RULE_TYPES below
    severity: error          # error (default) | warning
    message: "..."           # what the rule demands, in one line (rule points welcome: C1)
    hint: "..."              # optional: how to fix a failure

plus the keys of its type. A new game adds a rules file, not checker code.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pnp.errors import Problems, display_path
from pnp.pack import Pack
from pnp.check.findings import ERROR, SEVERITIES, Finding, finding
from pnp.check.items import MISSING, Item, ItemIndex, RuleSpecError, parse_path, same_value
from pnp.units import card_size_pt
from pnp.yamlsource import Source, dotted, load_source

RULES_FILE = "rules.yaml"
COMMON_KEYS = {"id", "type", "severity", "message", "hint", "doc"}
BOUND_KEYS = {"equals", "min", "max"}


@dataclass
class Rule:
    id: str
    type: str
    severity: str
    message: str
    hint: str
    params: dict
    source: Source
    index: int

    def line(self, key: str | None = None) -> int:
        path = ("rules", self.index) + ((key,) if key else ())
        return self.source.line(path)


@dataclass
class Context:
    pack: Pack
    items: ItemIndex
    rule: Rule
    out: list[Finding] = field(default_factory=list)

    def report(self, file: Path | str, line: int, key: str, detail: str) -> None:
        rule = self.rule
        message = f"{rule.message}: {detail}" if rule.message else detail
        hint = rule.hint
        where = f"rule {rule.id} at {display_path(rule.source.file)}:{rule.line()}"
        hint = f"{hint} ({where})" if hint else where
        self.out.append(finding(rule.severity, rule.id, file, line, key, message, hint, self.pack.id))

    def report_item(self, item: Item, name: str | None, detail: str) -> None:
        self.report(item.file, item.line(name), item.key(name), detail)

    # where to point when something is missing rather than wrong
    def container(self, items: list[Item], select: dict | None) -> tuple[Path, int, str]:
        select = select or {}
        main = self.pack.sources["pack"]
        if "collection" in select:
            steps = parse_path(str(select["collection"]))
            source = self.pack.sources.get(f"collection:{steps[0]}")
            if source is None:
                return main.file, main.line(("collections",)), "collections"
            if items:
                parent = items[0].path[:-1]
                return source.file, source.line(parent), f"{steps[0]}{'.' + dotted(parent) if parent else ''}"
            return source.file, 1, str(select["collection"])
        decks = {item.value["deck"] for item in items} if items else set(_as_list(select.get("deck", [])))
        if len(decks) == 1:
            deck_id = next(iter(decks))
            for index, deck in enumerate(self.pack.decks):
                if deck.id == deck_id:
                    return main.file, main.line(("decks", index, "cards")), f"decks[{index}].cards"
        return main.file, main.line(("decks",)), "decks"


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


# -- bounds ----------------------------------------------------------------------------------------
@dataclass
class Bound:
    equals: Any = None
    min: Any = None
    max: Any = None

    @classmethod
    def of(cls, params: dict, required: bool = True) -> "Bound":
        bound = cls(params.get("equals"), params.get("min"), params.get("max"))
        for name in ("equals", "min", "max"):
            value = getattr(bound, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise RuleSpecError(f"{name}: expected a number, got {value!r}")
        if required and bound.equals is None and bound.min is None and bound.max is None:
            raise RuleSpecError("give equals, min or max")
        return bound

    def ok(self, n: float) -> bool:
        if self.equals is not None and n != self.equals:
            return False
        if self.min is not None and n < self.min:
            return False
        if self.max is not None and n > self.max:
            return False
        return True

    def upper(self) -> float | None:
        return self.equals if self.equals is not None else self.max

    def text(self) -> str:
        if self.equals is not None:
            return f"exactly {self.equals:g}"
        if self.min is not None and self.max is not None:
            return f"{self.min:g} to {self.max:g}"
        return f"at least {self.min:g}" if self.min is not None else f"at most {self.max:g}"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _show(value: Any) -> str:
    if value is MISSING:
        return "nothing"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _values_of(value: Any) -> list:
    return value if isinstance(value, list) else [value]


def _count_report(ctx: Context, items: list[Item], select: dict | None, bound: Bound, what: str) -> None:
    n = len(items)
    if bound.ok(n):
        return
    upper = bound.upper()
    if upper is not None and n > upper and items:
        extra = items[int(upper)] if int(upper) < n else items[-1]
        ctx.report_item(extra, None, f"{n} {what}, expected {bound.text()} (first one too many: {extra.label})")
    else:
        file, line, key = ctx.container(items, select)
        ctx.report(file, line, key, f"{n} {what}, expected {bound.text()}")


# -- rule types ------------------------------------------------------------------------------------
def rule_total(ctx: Context, p: dict) -> None:
    """Count of selected cards (or collection entries)."""
    items = ctx.items.select(p.get("select"))
    _count_report(ctx, items, p.get("select"), Bound.of(p), p.get("noun", "found"))


def rule_count(ctx: Context, p: dict) -> None:
    """Count of selected items per value of a field: expect {value: n | {min, max}}; `only: true` also
    refuses values that are not listed."""
    items = ctx.items.select(p.get("select"))
    name = _field(p, "by")
    expect = p.get("expect")
    if not isinstance(expect, dict) or not expect:
        raise RuleSpecError("expect: a mapping value -> count (or {min, max})")
    groups: dict[Any, list[Item]] = defaultdict(list)
    for item in items:
        value = item.get(name)
        groups[value if not isinstance(value, list) else tuple(value)].append(item)
    for value, spec in expect.items():
        bound = Bound.of(spec if isinstance(spec, dict) else {"equals": spec})
        members = [item for key, group in groups.items() if same_value(key, value) for item in group]
        if not bound.ok(len(members)):
            _count_report(ctx, members, p.get("select"), bound, f"with {name} {_show(value)}")
    if p.get("only"):
        for key, group in groups.items():
            if not any(same_value(key, value) for value in expect):
                ctx.report_item(group[0], name, f"{name} {_show(key)} is not one of {', '.join(map(str, expect))}")


def _value_list(ctx: Context, spec: Any, id_field: str = "id") -> list[tuple[Any, Item | None]]:
    """`values:` as a literal list or a collection path (mapping entries give their `id`)."""
    if isinstance(spec, list):
        return [(v, None) for v in spec]
    if not isinstance(spec, str):
        raise RuleSpecError("values: a list or a collection path")
    out = []
    for item in ctx.items.collection_items(spec):
        value = item.get(id_field) if isinstance(item.value, dict) else item.value
        if value is not MISSING:
            out.append((value, item))
    return out


def rule_each(ctx: Context, p: dict) -> None:
    """Every value (of a list or a collection) appears on a number of selected items."""
    items = ctx.items.select(p.get("select"))
    name = _field(p)
    bound = Bound.of(p)
    for value, origin in _value_list(ctx, p.get("values"), p.get("values_field", "id")):
        members = [item for item in items if any(same_value(v, value) for v in _values_of(item.get(name)))]
        if bound.ok(len(members)):
            continue
        upper = bound.upper()
        detail = f"{_show(value)} is the {name} of {len(members)}, expected {bound.text()}"
        if upper is not None and len(members) > upper:
            ctx.report_item(members[int(upper)], name, detail)
        elif members:
            ctx.report_item(members[-1], name, detail)
        elif origin is not None:
            ctx.report_item(origin, None, detail)
        else:
            file, line, key = ctx.container(items, p.get("select"))
            ctx.report(file, line, key, detail)


def rule_pairing(ctx: Context, p: dict) -> None:
    """One-to-one between two selections by a field (`by: f` or `by: [left_f, right_f]`); `same:`
    lists fields (or [left, right] pairs) that must be equal on both cards of a pair."""
    left = ctx.items.select(p.get("left"))
    right = ctx.items.select(p.get("right"))
    by = p.get("by")
    if isinstance(by, str):
        lf = rf = by
    elif isinstance(by, list) and len(by) == 2 and all(isinstance(b, str) for b in by):
        lf, rf = by
    else:
        raise RuleSpecError("by: a field name or [left_field, right_field]")
    names = p.get("names") or ["left", "right"]
    sides = ((left, lf, right, rf, names[0], names[1]), (right, rf, left, lf, names[1], names[0]))
    for mine, my_field, other, other_field, my_name, other_name in sides:
        seen: dict[Any, Item] = {}
        partners: dict[Any, list[Item]] = defaultdict(list)
        for item in other:
            partners[_hashable(item.get(other_field))].append(item)
        for item in mine:
            key = _hashable(item.get(my_field))
            if key in seen:
                first = seen[key]
                ctx.report_item(item, my_field, f"{item.label} and {first.label} (line {first.line(my_field)}) are "
                                f"both the {my_name} of {my_field} {_show(item.get(my_field))}")
                continue
            seen[key] = item
            if not partners.get(key):
                ctx.report_item(item, my_field, f"{item.label} ({my_field} {_show(item.get(my_field))}) has no {other_name}")
    same = p.get("same") or []
    if same:
        by_key = {}
        for item in right:
            by_key.setdefault(_hashable(item.get(rf)), item)
        for item in left:
            partner = by_key.get(_hashable(item.get(lf)))
            if partner is None:
                continue
            for pair in same:
                a, b = (pair, pair) if isinstance(pair, str) else pair
                if not same_value(item.get(a), partner.get(b)):
                    ctx.report_item(item, a, f"{item.label}.{a} is {_show(item.get(a))} but its {names[1]} "
                                    f"{partner.label}.{b} is {_show(partner.get(b))}")


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def rule_unique(ctx: Context, p: dict) -> None:
    """A field's value is unique among the selected items (copies of one card count apart)."""
    name = _field(p)
    seen: dict[Any, Item] = {}
    for item in ctx.items.select(p.get("select")):
        value = item.get(name)
        if value is MISSING:
            continue
        key = (type(value).__name__, _hashable(value))
        if key in seen:
            first = seen[key]
            ctx.report_item(item, name, f"{name} {_show(value)} is also on {first.label} (line {first.line(name)})")
        else:
            seen[key] = item


TYPES = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool), "number": _is_number,
         "str": lambda v: isinstance(v, str), "bool": lambda v: isinstance(v, bool)}


def rule_allowed(ctx: Context, p: dict) -> None:
    """A field's values lie in a set (`in:`) and/or a range (`min:`/`max:`); `value_type:` int|number|str|bool."""
    name = _field(p)
    allowed = p.get("in")
    if allowed is not None and not isinstance(allowed, list):
        raise RuleSpecError("in: a list of values")
    bound = Bound.of(p, required=False)
    wanted_type = p.get("value_type")
    if wanted_type is None and (bound.min is not None or bound.max is not None or bound.equals is not None):
        wanted_type = "number"
    if wanted_type is not None and wanted_type not in TYPES:
        raise RuleSpecError(f"value_type: one of {', '.join(TYPES)}")
    required = p.get("required", True)
    for item in ctx.items.select(p.get("select")):
        value = item.get(name)
        if value is MISSING or value is None:
            if required:
                ctx.report_item(item, name, f"{item.label} has no {name}")
            continue
        for v in _values_of(value):
            if wanted_type and not TYPES[wanted_type](v):
                ctx.report_item(item, name, f"{name} must be {'a number' if wanted_type in ('int', 'number') else 'a ' + wanted_type}, "
                                f"got {_show(v)}")
            elif allowed is not None and not any(same_value(v, a) for a in allowed):
                ctx.report_item(item, name, f"{name} {_show(v)} is not one of {', '.join(map(str, allowed))}")
            elif _is_number(v) and not bound.ok(v):
                ctx.report_item(item, name, f"{name} {_show(v)} is not {bound.text()}")


def rule_reference(ctx: Context, p: dict) -> None:
    """A field's value exists in a collection (`in: map.avenues[*].id`) or is a character of a
    text such as a grid map (`chars_of: map.grid`). Without `field:` the selected entries themselves
    are the values (e.g. select: {collection: "board.seats[*].zones"})."""
    name = p.get("field")
    if "in" in p:
        targets = [v for v, _ in _value_list(ctx, p["in"], p.get("in_field", "id"))]
        where = str(p["in"])
    elif "chars_of" in p:
        texts = ctx.items.collection_items(str(p["chars_of"]))
        targets = sorted({c for item in texts if isinstance(item.value, str) for c in item.value})
        where = str(p["chars_of"])
    else:
        raise RuleSpecError("give in: <collection path> or chars_of: <collection path>")
    for item in ctx.items.select(p.get("select")):
        value = item.get(name)
        if value is MISSING or value is None:
            continue
        for v in _values_of(value):
            if not any(same_value(v, t) for t in targets):
                ctx.report_item(item, name, f"{name} {_show(v)} is not in {where}")


def rule_text(ctx: Context, p: dict) -> None:
    """A field holds a text key present in every declared language (for collections, whose text keys
    the loader cannot tell from data; card `text` fields are checked by the loader already)."""
    name = p.get("field")
    required = p.get("required", True)
    for item in ctx.items.select(p.get("select")):
        value = item.get(name) if name else item.value
        if value is MISSING or value is None:
            if required:
                ctx.report_item(item, name, f"{item.label} has no {name}")
            continue
        for key in _values_of(value):
            missing = [lang for lang in ctx.pack.languages if str(key) not in ctx.pack.texts.get(lang, {})]
            if missing:
                ctx.report_item(item, name, f"text key {key!r} has no {', '.join(map(repr, missing))} text")


def rule_distinct_at_least(ctx: Context, p: dict) -> None:
    """At least `min` distinct values of a field among the selected items."""
    name = _field(p)
    items = ctx.items.select(p.get("select"))
    values = {_hashable(v) for item in items for v in _values_of(item.get(name)) if v is not MISSING}
    bound = Bound.of(p)
    if not bound.ok(len(values)):
        file, line, key = ctx.container(items, p.get("select"))
        ctx.report(file, line, key, f"{len(values)} distinct {name} values, expected {bound.text()}")


def rule_sequence(ctx: Context, p: dict) -> None:
    """The selected items' field values, in order, are exactly the list `equals:`."""
    name = _field(p)
    expected = p.get("equals")
    if not isinstance(expected, list):
        raise RuleSpecError("equals: the expected list of values")
    items = ctx.items.select(p.get("select"))
    got = [None if item.get(name) is MISSING else item.get(name) for item in items]
    for index, (item, value) in enumerate(zip(items, got)):
        if index < len(expected) and not same_value(value, expected[index]):
            ctx.report_item(item, name, f"value {index + 1} is {_show(value)}, expected {_show(expected[index])}")
    if len(got) != len(expected):
        file, line, key = ctx.container(items, p.get("select"))
        if len(got) > len(expected):
            file, line, key = items[len(expected)].file, items[len(expected)].line(), items[len(expected)].label
        ctx.report(file, line, key, f"{len(got)} values, expected {len(expected)}: "
                   f"{', '.join(map(str, expected))}")


def rule_card_size(ctx: Context, p: dict) -> None:
    """Selected decks (`decks:`, default all) share one card size; `equals:` a named or explicit size."""
    wanted_decks = p.get("decks")
    main = ctx.pack.sources["pack"]
    decks = [(i, d) for i, d in enumerate(ctx.pack.decks) if wanted_decks is None or d.id in _as_list(wanted_decks)]
    target = None
    if "equals" in p:
        try:
            target = card_size_pt(p["equals"])
        except ValueError as error:
            raise RuleSpecError(f"equals: {error}") from None
    elif decks:
        target = decks[0][1].size_pt
    for index, deck in decks:
        if target is not None and any(abs(a - b) > 0.01 for a, b in zip(deck.size_pt, target)):
            mm = "x".join(f"{v / 72 * 25.4:.1f}" for v in deck.size_pt)
            want = "x".join(f"{v / 72 * 25.4:.1f}" for v in target)
            ctx.report(main.file, main.line(("decks", index, "card_size")), f"decks[{index}].card_size",
                       f"deck {deck.id} is {mm} mm, expected {want} mm")


def _field(p: dict, key: str = "field") -> str:
    name = p.get(key)
    if not isinstance(name, str) or not name:
        raise RuleSpecError(f"{key}: a field name")
    return name


# -- grid maps -------------------------------------------------------------------------------------
@dataclass
class Grid:
    rows: list[str]
    item: Item
    first_line: int

    @classmethod
    def of(cls, ctx: Context, path: Any) -> "Grid":
        if not isinstance(path, str):
            raise RuleSpecError("grid: the collection path of a grid text, e.g. map.grid")
        items = ctx.items.collection_items(path)
        if len(items) != 1 or not isinstance(items[0].value, str):
            raise RuleSpecError(f"grid: {path} is not one text")
        item = items[0]
        rows = [line.strip().strip('"') for line in item.value.strip("\n").splitlines()]
        key_line = item.line()
        raw = item.source.text_lines[key_line - 1].rstrip() if item.source and key_line else ""
        first = key_line + 1 if raw.endswith(("|", "|-", "|+", ">", ">-")) else key_line
        return cls(rows, item, first)

    def cells(self, chars: str) -> list[tuple[int, int]]:
        return [(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch in chars]

    def at(self, r: int, c: int) -> str:
        if 0 <= r < len(self.rows) and 0 <= c < len(self.rows[r]):
            return self.rows[r][c]
        return " "

    def report(self, ctx: Context, cell: tuple[int, int] | None, detail: str) -> None:
        if cell is None:
            ctx.report_item(self.item, None, detail)
        else:
            r, c = cell
            ctx.report(self.item.file, self.first_line + r, f"{self.item.label}[{r},{c}]", detail)


def _neighbours(r: int, c: int):
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def _chars(p: dict, key: str) -> str:
    value = p.get(key)
    if not isinstance(value, str) or not value:
        raise RuleSpecError(f"{key}: a string of map characters")
    return value


def rule_grid_count(ctx: Context, p: dict) -> None:
    """Number of cells holding one of `char:` in a grid map."""
    grid = Grid.of(ctx, p.get("grid"))
    chars = _chars(p, "char")
    cells = grid.cells(chars)
    bound = Bound.of(p)
    if bound.ok(len(cells)):
        return
    upper = bound.upper()
    detail = f"{len(cells)} cells {chars!r}, expected {bound.text()}"
    grid.report(ctx, cells[int(upper)] if upper is not None and len(cells) > upper else None, detail)


def rule_grid_adjacent(ctx: Context, p: dict) -> None:
    """Every `char:` cell has an orthogonal neighbour among `next_to:`."""
    grid = Grid.of(ctx, p.get("grid"))
    near = _chars(p, "next_to")
    for r, c in grid.cells(_chars(p, "char")):
        if not any(grid.at(*n) in near for n in _neighbours(r, c)):
            grid.report(ctx, (r, c), f"cell {r},{c} {grid.at(r, c)!r} has no neighbour in {near!r}")


def rule_grid_outside(ctx: Context, p: dict) -> None:
    """Every `char:` cell lies outside the bounding box of the `region:` characters."""
    grid = Grid.of(ctx, p.get("grid"))
    region = grid.cells(_chars(p, "region"))
    if not region:
        grid.report(ctx, None, "the grid has no region cells")
        return
    top, bottom = min(r for r, _ in region), max(r for r, _ in region)
    left, right = min(c for _, c in region), max(c for _, c in region)
    for r, c in grid.cells(_chars(p, "char")):
        if top <= r <= bottom and left <= c <= right:
            grid.report(ctx, (r, c), f"cell {r},{c} {grid.at(r, c)!r} is inside the region rows {top}-{bottom}, "
                        f"columns {left}-{right}")


def rule_grid_reachable(ctx: Context, p: dict) -> None:
    """Every `to:` cell is reachable from a `from:` cell by orthogonal steps over `over:` cells."""
    grid = Grid.of(ctx, p.get("grid"))
    over = _chars(p, "over")
    sources = grid.cells(_chars(p, "from"))
    targets = grid.cells(_chars(p, "to"))
    if not sources:
        grid.report(ctx, None, f"no {p['from']!r} cell to start from")
        return
    if not targets:
        grid.report(ctx, None, f"no {p['to']!r} cell to reach")
        return
    seen = set(sources)
    queue = list(sources)
    while queue:
        cell = queue.pop()
        for n in _neighbours(*cell):
            if n not in seen and grid.at(*n) in over:
                seen.add(n)
                queue.append(n)
    for cell in targets:
        if cell in seen or any(n in seen for n in _neighbours(*cell)):
            continue
        grid.report(ctx, cell, f"cell {cell[0]},{cell[1]} {grid.at(*cell)!r} cannot be reached from "
                    f"{p['from']!r} over {over!r}")


def rule_zones(ctx: Context, p: dict) -> None:
    """Rectangular zones on a square board: `board:` path to {size: {cols, rows}}, `zones:` path to
    the zone list (each {cols: [a, b], rows: [a, b]}); every zone `zone_size` x `zone_size`, inside
    the board, at least `apart` squares from every other (0: may touch, 1: no shared edge or corner)."""
    board = ctx.items.collection_items(str(p.get("board")))
    if len(board) != 1 or not isinstance(board[0].value, dict):
        raise RuleSpecError("board: the path of the board mapping")
    board = board[0]
    cols, rows = board.get("size.cols"), board.get("size.rows")
    if not (_is_number(cols) and _is_number(rows)):
        ctx.report_item(board, "size", f"board size must be numbers, got {_show(cols)} x {_show(rows)}")
        return
    zones = ctx.items.collection_items(str(p.get("zones")))
    size = p.get("zone_size")
    apart = p.get("apart", 1)
    if "count" in p and len(zones) != p["count"]:
        file, line, key = board.file, board.line("zones"), board.key("zones")
        ctx.report(file, line, key, f"{len(zones)} zones, expected {p['count']}")
    boxes = []
    for zone in zones:
        span = []
        for axis, limit in (("cols", cols), ("rows", rows)):
            value = zone.get(axis)
            if not (isinstance(value, list) and len(value) == 2 and all(_is_number(v) for v in value)):
                ctx.report_item(zone, axis, f"{axis} must be [first, last] numbers, got {_show(value)}")
                break
            a, b = value
            if size is not None and b - a + 1 != size:
                ctx.report_item(zone, axis, f"zone {zone.get('id')} spans {b - a + 1} {axis}, expected {size}")
            if a < 0 or b >= limit or a > b:
                ctx.report_item(zone, axis, f"zone {zone.get('id')} {axis} {a}-{b} is not on the "
                                f"{cols}x{rows} board")
            span.append((a, b))
        else:
            boxes.append((zone, span))
    for i, (zone, (cs, rs)) in enumerate(boxes):
        for other, (oc, orr) in boxes[:i]:
            gap_c = max(oc[0] - cs[1], cs[0] - oc[1]) - 1
            gap_r = max(orr[0] - rs[1], rs[0] - orr[1]) - 1
            if max(gap_c, gap_r) < apart:
                ctx.report_item(zone, None, f"zone {zone.get('id')} is less than {apart} square(s) from zone "
                                f"{other.get('id')} (line {other.line()})")


@dataclass(frozen=True)
class RuleType:
    check: Callable[[Context, dict], None]
    keys: frozenset
    required: frozenset = frozenset()


def _t(check, keys: str, required: str = "") -> RuleType:
    return RuleType(check, frozenset(keys.split()), frozenset(required.split()))


RULE_TYPES: dict[str, RuleType] = {
    "total": _t(rule_total, "select equals min max noun"),
    "count": _t(rule_count, "select by expect only", "by expect"),
    "each": _t(rule_each, "values values_field select field equals min max", "values field"),
    "pairing": _t(rule_pairing, "left right by names same", "left right by"),
    "unique": _t(rule_unique, "select field", "field"),
    "allowed": _t(rule_allowed, "select field in equals min max value_type required", "field"),
    "reference": _t(rule_reference, "select field in in_field chars_of"),
    "text": _t(rule_text, "select field required"),
    "distinct_at_least": _t(rule_distinct_at_least, "select field equals min max", "field min"),
    "sequence": _t(rule_sequence, "select field equals", "field equals"),
    "card_size": _t(rule_card_size, "decks equals"),
    "grid_count": _t(rule_grid_count, "grid char equals min max", "grid char"),
    "grid_adjacent": _t(rule_grid_adjacent, "grid char next_to", "grid char next_to"),
    "grid_outside": _t(rule_grid_outside, "grid char region", "grid char region"),
    "grid_reachable": _t(rule_grid_reachable, "grid from to over", "grid from to over"),
    "zones": _t(rule_zones, "board zones zone_size count apart", "board zones"),
}


# -- loading and running ---------------------------------------------------------------------------
def load_rules(pack_root: Path, game: str) -> tuple[list[Rule], list[Finding]]:
    """Rules of one pack (none when it has no rules.yaml) and the problems of the rules file (fatal)."""
    file = pack_root / RULES_FILE
    if not file.is_file():
        return [], []
    problems = Problems()
    source = load_source(file, problems)
    findings = [finding(ERROR, "rules.syntax", p.file, p.line, p.key, p.message, "fix the rules file", game, True)
                for p in problems.items]
    if source is None:
        return [], findings

    def bad(path: tuple, message: str) -> None:
        findings.append(finding(ERROR, "rules.invalid", file, source.line(path), dotted(path), message,
                                "see pnp/check/rules.py for the rule vocabulary", game, True))

    data = source.value
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        bad((), "expected a mapping with a `rules:` list")
        return [], findings
    for key in data:
        if key not in ("rules", "doc"):
            bad((key,), f"unknown key {key!r} (known: rules, doc)")
    rules, seen = [], {}
    for index, body in enumerate(data["rules"]):
        path = ("rules", index)
        if not isinstance(body, dict):
            bad(path, "expected a rule mapping")
            continue
        rule_id, kind = body.get("id"), body.get("type")
        if not isinstance(rule_id, str) or not rule_id:
            bad(path, "a rule needs an `id`")
            continue
        if rule_id in seen:
            bad(path + ("id",), f"duplicate rule id {rule_id!r} (first on line {seen[rule_id]})")
            continue
        seen[rule_id] = source.line(path + ("id",))
        if kind not in RULE_TYPES:
            bad(path + ("type",), f"rule {rule_id}: unknown type {kind!r} (known: {', '.join(RULE_TYPES)})")
            continue
        spec = RULE_TYPES[kind]
        for key in body:
            if key not in COMMON_KEYS and key not in spec.keys:
                bad(path + (key,), f"rule {rule_id}: unknown key {key!r} for type {kind} "
                    f"(known: {', '.join(sorted(spec.keys | COMMON_KEYS))})")
        for key in spec.required:
            if key not in body:
                bad(path, f"rule {rule_id}: type {kind} needs {key!r}")
        severity = body.get("severity", ERROR)
        if severity not in SEVERITIES:
            bad(path + ("severity",), f"rule {rule_id}: severity must be one of {', '.join(SEVERITIES)}")
            severity = ERROR
        params = {k: v for k, v in body.items() if k not in COMMON_KEYS}
        rules.append(Rule(rule_id, kind, severity, str(body.get("message") or ""), str(body.get("hint") or ""),
                          params, source, index))
    return rules, findings


def run_rules(pack: Pack, rules: list[Rule]) -> list[Finding]:
    items = ItemIndex(pack)
    out: list[Finding] = []
    for rule in rules:
        ctx = Context(pack, items, rule)
        try:
            RULE_TYPES[rule.type].check(ctx, rule.params)
        except RuleSpecError as error:
            out.append(finding(ERROR, "rules.invalid", rule.source.file, rule.line(), f"rules[{rule.index}]",
                               f"rule {rule.id}: {error}", "see pnp/check/rules.py for the rule vocabulary",
                               pack.id, True))
            continue
        out.extend(ctx.out)
    return out
