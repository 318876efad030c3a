"""Composition rules as data: `data/<game>/rules.yaml`, read by one generic checker.

The file's keys and every rule kind's keys are declared in pnp.composition.schema; here is what
each kind checks (CHECKS), loading (`load_rules`) and running (`run_rules`, `check_composition`).
A rule's keys arrive validated, with their defaults filled in.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pnp.composition import RULES_NAME, has_rules
from pnp.composition.findings import ERROR, Finding, finding
from pnp.composition.items import MISSING, Item, ItemIndex, RuleSpecError, parse_path, same_value
from pnp.composition.schema import COMMON, KINDS, RULES_FILE
from pnp.errors import Problem, Problems, display_path
from pnp.limits import MAX_INT
from pnp.pack import Pack
from pnp.schema import Validator
from pnp.units import card_size_pt, pt_to_mm
from pnp.yamlsource import Source, dotted, load_source

VOCABULARY = "see pnp/composition/schema.py for the rule vocabulary"


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

    def report(self, file: Path | str, line: int, key: str, text: str, lang: str = "", **detail: Any) -> None:
        rule = self.rule
        message = f"{rule.message}: {text}" if rule.message else text
        hint = rule.hint
        where = f"rule {rule.id} at {display_path(rule.source.file)}:{rule.line()}"
        hint = f"{hint} ({where})" if hint else where
        self.out.append(finding(rule.severity, rule.id, file, line, key, message, hint, self.pack.id,
                                lang=lang, **detail))

    def report_item(self, item: Item, name: str | None, text: str, lang: str = "", **detail: Any) -> None:
        self.report(item.file, item.line(name), item.key(name), text, lang, **detail)

    # where to point when something is missing rather than wrong
    def container(self, items: list[Item], select: dict | None) -> tuple[Path, int, str]:
        select = select or {}
        main = self.pack.sources["pack"]
        if select.get("collection") is not None:
            steps = parse_path(str(select["collection"]))
            source = self.pack.sources.get(f"collection:{steps[0]}")
            if source is None:
                return main.file, main.line(("collections",)), "collections"
            if items:
                parent = items[0].path[:-1]
                return source.file, source.line(parent), f"{steps[0]}{'.' + dotted(parent) if parent else ''}"
            return source.file, 1, str(select["collection"])
        decks = {item.value["deck"] for item in items} if items else set(_as_list(select.get("deck") or []))
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
        """The bound of validated keys (numbers or None); `required`: at least one is given."""
        bound = cls(params.get("equals"), params.get("min"), params.get("max"))
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


# -- rule kinds (their keys: pnp.composition.schema.KINDS) -----------------------------------------
def rule_total(ctx: Context, p: dict) -> None:
    items = ctx.items.select(p["select"])
    _count_report(ctx, items, p["select"], Bound.of(p), p["noun"])


def rule_count(ctx: Context, p: dict) -> None:
    items = ctx.items.select(p["select"])
    name, expect = p["by"], p["expect"]
    if not expect:
        raise RuleSpecError("expect: a mapping value -> count (or {min, max})")
    groups: dict[Any, list[Item]] = defaultdict(list)
    for item in items:
        value = item.get(name)
        groups[value if not isinstance(value, list) else tuple(value)].append(item)
    for value, spec in expect.items():
        bound = Bound.of(spec if isinstance(spec, dict) else {"equals": spec})
        members = [item for key, group in groups.items() if same_value(key, value) for item in group]
        if not bound.ok(len(members)):
            _count_report(ctx, members, p["select"], bound, f"with {name} {_show(value)}")
    if p["only"]:
        for key, group in groups.items():
            if not any(same_value(key, value) for value in expect):
                ctx.report_item(group[0], name, f"{name} {_show(key)} is not one of {', '.join(map(str, expect))}")


def _value_list(ctx: Context, spec: str | list, id_field: str = "id") -> list[tuple[Any, Item | None]]:
    """Values given as a literal list or a collection path (mapping entries give their `id_field`)."""
    if isinstance(spec, list):
        return [(v, None) for v in spec]
    out: list[tuple[Any, Item | None]] = []
    for item in ctx.items.collection_items(spec):
        value = item.get(id_field) if isinstance(item.value, dict) else item.value
        if value is not MISSING:
            out.append((value, item))
    return out


def rule_each(ctx: Context, p: dict) -> None:
    items = ctx.items.select(p["select"])
    name = p["field"]
    bound = Bound.of(p)
    for value, origin in _value_list(ctx, p["values"], p["values_field"]):
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
            file, line, key = ctx.container(items, p["select"])
            ctx.report(file, line, key, detail)


def _pair(value: str | list, what: str) -> tuple[str, str]:
    """`f` or `[left_f, right_f]`."""
    if isinstance(value, str):
        return value, value
    if len(value) == 2:
        return value[0], value[1]
    raise RuleSpecError(f"{what}: a field name or [left_field, right_field], got {len(value)} names")


def rule_pairing(ctx: Context, p: dict) -> None:
    left = ctx.items.select(p["left"])
    right = ctx.items.select(p["right"])
    lf, rf = _pair(p["by"], "by")
    names = p["names"] or ["left", "right"]
    if len(names) != 2:
        raise RuleSpecError(f"names: two names, [left, right], got {len(names)}")
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
    same = [_pair(pair, "same") for pair in p["same"] or []]
    if same:
        by_key: dict[Any, Item] = {}
        for item in right:
            by_key.setdefault(_hashable(item.get(rf)), item)
        for item in left:
            partner = by_key.get(_hashable(item.get(lf)))
            if partner is None:
                continue
            for a, b in same:
                if not same_value(item.get(a), partner.get(b)):
                    ctx.report_item(item, a, f"{item.label}.{a} is {_show(item.get(a))} but its {names[1]} "
                                    f"{partner.label}.{b} is {_show(partner.get(b))}")


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def rule_unique(ctx: Context, p: dict) -> None:
    name = p["field"]
    seen: dict[Any, Item] = {}
    for item in ctx.items.select(p["select"]):
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
    name = p["field"]
    allowed = p["in"]
    bound = Bound.of(p, required=False)
    wanted_type = p["value_type"]
    if wanted_type is None and (bound.min is not None or bound.max is not None or bound.equals is not None):
        wanted_type = "number"
    for item in ctx.items.select(p["select"]):
        value = item.get(name)
        if value is MISSING or value is None:
            if p["required"]:
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
    name = p["field"]
    if p["in"] is not None:
        targets = [v for v, _ in _value_list(ctx, p["in"], p["in_field"])]
        where = str(p["in"])
    elif p["chars_of"] is not None:
        texts = ctx.items.collection_items(p["chars_of"])
        targets = sorted({c for item in texts if isinstance(item.value, str) for c in item.value})
        where = p["chars_of"]
    else:
        raise RuleSpecError("give in: <collection path> or chars_of: <collection path>")
    for item in ctx.items.select(p["select"]):
        value = item.get(name)
        if value is MISSING or value is None:
            continue
        for v in _values_of(value):
            if not any(same_value(v, t) for t in targets):
                ctx.report_item(item, name, f"{name} {_show(v)} is not in {where}")


def rule_text(ctx: Context, p: dict) -> None:
    """One finding per missing language, carrying `text_key` and `language` (as the loader's text.missing)."""
    name = p["field"]
    for item in ctx.items.select(p["select"]):
        value = item.get(name) if name else item.value
        if value is MISSING or value is None:
            if p["required"]:
                ctx.report_item(item, name, f"{item.label} has no {name}")
            continue
        for key in _values_of(value):
            for lang in ctx.pack.languages:
                if str(key) not in ctx.pack.texts.get(lang, {}):
                    ctx.report_item(item, name, f"text key {str(key)!r} has no {lang!r} text", lang,
                                    text_key=str(key), language=lang)


def rule_distinct_at_least(ctx: Context, p: dict) -> None:
    name = p["field"]
    items = ctx.items.select(p["select"])
    values = {_hashable(v) for item in items for v in _values_of(item.get(name)) if v is not MISSING}
    bound = Bound.of(p)
    if not bound.ok(len(values)):
        file, line, key = ctx.container(items, p["select"])
        ctx.report(file, line, key, f"{len(values)} distinct {name} values, expected {bound.text()}")


def rule_sequence(ctx: Context, p: dict) -> None:
    name = p["field"]
    expected = p["equals"]
    if not isinstance(expected, list):
        raise RuleSpecError("equals: the expected list of values")
    items = ctx.items.select(p["select"])
    got = [None if item.get(name) is MISSING else item.get(name) for item in items]
    for index, (item, value) in enumerate(zip(items, got, strict=True)):
        if index < len(expected) and not same_value(value, expected[index]):
            ctx.report_item(item, name, f"value {index + 1} is {_show(value)}, expected {_show(expected[index])}")
    if len(got) != len(expected):
        file, line, key = ctx.container(items, p["select"])
        if len(got) > len(expected):
            file, line, key = items[len(expected)].file, items[len(expected)].line(), items[len(expected)].label
        ctx.report(file, line, key, f"{len(got)} values, expected {len(expected)}: "
                   f"{', '.join(map(str, expected))}")


def rule_card_size(ctx: Context, p: dict) -> None:
    wanted_decks = p["decks"]
    main = ctx.pack.sources["pack"]
    decks = [(i, d) for i, d in enumerate(ctx.pack.decks) if wanted_decks is None or d.id in _as_list(wanted_decks)]
    target = None
    if p["equals"] is not None:
        target = card_size_pt(p["equals"])
    elif decks:
        target = decks[0][1].size_pt
    for index, deck in decks:
        if target is not None and any(abs(a - b) > 0.01 for a, b in zip(deck.size_pt, target, strict=True)):
            mm = "x".join(f"{pt_to_mm(v):.1f}" for v in deck.size_pt)
            want = "x".join(f"{pt_to_mm(v):.1f}" for v in target)
            ctx.report(main.file, main.line(("decks", index, "card_size")), f"decks[{index}].card_size",
                       f"deck {deck.id} is {mm} mm, expected {want} mm")


# -- grid maps -------------------------------------------------------------------------------------
@dataclass
class Grid:
    rows: list[str]
    item: Item
    first_line: int

    @classmethod
    def of(cls, ctx: Context, path: str) -> "Grid":
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
    value = p[key]
    if not value:
        raise RuleSpecError(f"{key}: a string of map characters")
    return value


def rule_grid_count(ctx: Context, p: dict) -> None:
    grid = Grid.of(ctx, p["grid"])
    chars = _chars(p, "char")
    cells = grid.cells(chars)
    bound = Bound.of(p)
    if bound.ok(len(cells)):
        return
    upper = bound.upper()
    detail = f"{len(cells)} cells {chars!r}, expected {bound.text()}"
    grid.report(ctx, cells[int(upper)] if upper is not None and len(cells) > upper else None, detail)


def rule_grid_adjacent(ctx: Context, p: dict) -> None:
    grid = Grid.of(ctx, p["grid"])
    near = _chars(p, "next_to")
    for r, c in grid.cells(_chars(p, "char")):
        if not any(grid.at(*n) in near for n in _neighbours(r, c)):
            grid.report(ctx, (r, c), f"cell {r},{c} {grid.at(r, c)!r} has no neighbour in {near!r}")


def rule_grid_outside(ctx: Context, p: dict) -> None:
    grid = Grid.of(ctx, p["grid"])
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
    grid = Grid.of(ctx, p["grid"])
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
    """Zones are {cols: [a, b], rows: [a, b]} entries; `apart` 0: they may touch, 1: no shared edge
    or corner."""
    found = ctx.items.collection_items(p["board"])
    if len(found) != 1 or not isinstance(found[0].value, dict):
        raise RuleSpecError("board: the path of the board mapping")
    board = found[0]
    cols, rows = board.get("size.cols"), board.get("size.rows")
    if not (_is_number(cols) and _is_number(rows)):
        ctx.report_item(board, "size", f"board size must be numbers, got {_show(cols)} x {_show(rows)}")
        return
    zones = ctx.items.collection_items(p["zones"])
    size, apart = p["zone_size"], p["apart"]
    if p["count"] is not None and len(zones) != p["count"]:
        ctx.report(board.file, board.line("zones"), board.key("zones"), f"{len(zones)} zones, expected {p['count']}")
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


CHECKS: dict[str, Callable[[Context, dict], None]] = {
    "total": rule_total, "count": rule_count, "each": rule_each, "pairing": rule_pairing,
    "unique": rule_unique, "allowed": rule_allowed, "reference": rule_reference, "text": rule_text,
    "distinct_at_least": rule_distinct_at_least, "sequence": rule_sequence, "card_size": rule_card_size,
    "grid_count": rule_grid_count, "grid_adjacent": rule_grid_adjacent, "grid_outside": rule_grid_outside,
    "grid_reachable": rule_grid_reachable, "zones": rule_zones,
}
assert set(CHECKS) == set(KINDS), "every rule kind has a schema and a check"


# -- loading and running ---------------------------------------------------------------------------
def load_rules(pack_root: Path, game: str) -> tuple[list[Rule], list[Finding]]:
    """The rules of one pack (none when it has no rules.yaml) and the problems of its rules file:
    any problem makes the file unusable (fatal findings, no rules)."""
    if not has_rules(pack_root):
        return [], []
    file = pack_root / RULES_NAME
    problems = Problems()
    source = load_source(file, problems)
    findings = [_file_finding(p, "rules.syntax", "fix the rules file", game) for p in problems.items]
    if source is None:
        return [], findings
    problems = Problems()
    data = Validator(source, problems, max_int=MAX_INT).check(source.value, RULES_FILE)   # pnp.limits
    findings.extend(_file_finding(p, "rules.invalid", VOCABULARY, game) for p in problems.items)
    if findings:
        return [], findings
    rules = [Rule(body["id"], body["type"], body["severity"], body["message"], body["hint"],
                  {k: v for k, v in body.items() if k not in COMMON and k != "type"}, source, index)
             for index, body in enumerate(data["rules"])]
    return rules, []


def _file_finding(problem: Problem, rule: str, hint: str, game: str) -> Finding:
    return Finding(ERROR, rule, problem.file, problem.line, problem.key, problem.message, hint, game, True,
                   detail=(("problem", problem.code), *problem.detail))


def run_rules(pack: Pack, rules: list[Rule]) -> list[Finding]:
    items = ItemIndex(pack)
    out: list[Finding] = []
    for rule in rules:
        ctx = Context(pack, items, rule)
        try:
            CHECKS[rule.type](ctx, rule.params)
        except RuleSpecError as error:
            out.append(finding(ERROR, "rules.invalid", rule.source.file, rule.line(), f"rules[{rule.index}]",
                               f"rule {rule.id}: {error}", VOCABULARY, pack.id, True))
            continue
        out.extend(ctx.out)
    return out


def check_composition(pack: Pack) -> list[Finding]:
    """Every finding of the pack's rules file: its own problems (fatal), else what the rules find."""
    rules, problems = load_rules(pack.root, pack.id)
    return problems or run_rules(pack, rules)
