"""Card lists in spreadsheets: a deck's `cards:` may name a .csv, .xlsx or .ods file.

The first non-empty row names the columns; every further non-empty row is one card. A column is a
card key (`id`, `kind`, `quantity`) or a field of the card's kind; `title.it` (a text field and a
declared language) holds the Italian text of `title`. The rows become the same list of card
mappings a YAML card file holds, and the loader checks them with the same schema (same codes, all
problems at once); each key path keeps its row as its line and its cell (`Sheet1!C14`) for the
message. Cells are typed by the field they fill: empty is absent, `3.0` in an `int` field is 3
(3.5 stays 3.5 and is the schema's error), a `list:` field splits on `;` (or on `,` when the cell
has no `;`), a `text` cell is the text itself in the column's language, never a text key.
An .xlsx or .ods cell holding a formula error or a formula with no saved value is `sheet.formula`
(calamine reads both as an empty cell: see _formula_faults and _ods_formula_faults).

CSV is read with the standard library (UTF-8, a byte-order mark allowed; `,`, `;` or tab, whichever
the header row uses); .xlsx and .ods with python-calamine, the optional `sheets` extra. Bounded:
MAX_FILE_BYTES, MAX_SHEET_UNPACKED_BYTES (a zip's entries, before calamine unpacks them),
MAX_SHEET_COLUMNS and MAX_CARDS rows.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from pnp import schema
from pnp.errors import SNIPPET_CHARS, Problems, shortened
from pnp.limits import MAX_CARDS, MAX_SHEET_CELLS, MAX_SHEET_COLUMNS, MAX_SHEET_UNPACKED_BYTES, MAX_TEXT_CHARS
from pnp.yamlsource import Source, not_utf8, read_bounded

CSV = ".csv"
CALAMINE = (".xlsx", ".ods")
CARD_COLUMNS = ("id", "kind", "quantity")
EXTRA = "sheets"            # pip install 'pnp[sheets]': python-calamine


def is_spreadsheet(file: Path) -> bool:
    return file.suffix.lower() in (CSV, *CALAMINE)


@dataclass
class SheetSource(Source):
    """A spreadsheet read as a list of cards: `lines` holds each key path's row, `cells` its cell."""

    cells: dict[tuple, str] = field(default_factory=dict)     # key path -> 'Sheet1!C14' (CSV: 'C14')
    # key path -> what the snippet shows: (column name, cell) or a row's cells; formatted when asked
    shown: dict[tuple, Any] = field(default_factory=dict)
    headers: dict[tuple, str] = field(default_factory=dict)   # key path -> the header of its column
    reported: set[tuple] = field(default_factory=set)         # key paths whose absence is reported already

    def missing(self, path: tuple) -> str | None:
        """A required key's empty cell, named with its column (the validator says it there);
        '' for a key of a column the sheet lacks, reported once on the header row."""
        if path in self.reported:
            return ""
        header = self.headers.get(path)
        return None if header is None else f"empty cell in column {header!r}"

    def cell(self, path: tuple) -> str:
        while path:
            if path in self.cells:
                return self.cells[path]
            path = path[:-1]
        return ""

    def snippet(self, path: tuple) -> str:
        while path:
            if path in self.shown:
                shown = self.shown[path]
                if isinstance(shown, tuple):
                    return f"{shown[0]}: {_shown(shown[1])}"
                return " | ".join(_shown(c) for c in shown if _cell_text(c).strip())[:120]
            path = path[:-1]
        return ""


@dataclass
class _Grid:
    """The rows of one sheet: (row number, cells), and how cells are named."""

    rows: list[tuple[int, list[Any]]]
    sheet: str | None           # None for CSV
    # (row number, column index) -> the formula error the cell holds ('#DIV/0!'), or None: a formula
    # with no saved value. calamine reads both as '', an empty cell (see _formula_faults)
    faults: dict[tuple[int, int], str | None] = field(default_factory=dict)

    def ref(self, column: int, row: int) -> str:
        return f"{self.prefix}{column_letter(column)}{row}"

    @property
    def prefix(self) -> str:
        return f"{self.sheet}!" if self.sheet else ""


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def load_cards(file: Path, kinds: dict[str, schema.Schema], languages: list[str], problems: Problems,
               sheet: str | None = None, default_kind: str | None = None) -> SheetSource | None:
    """The cards of a spreadsheet as a Source the card loader reads like YAML, or None with problems."""
    grid = _read_csv(file, problems) if file.suffix.lower() == CSV else _read_calamine(file, sheet, problems)
    if grid is None:
        return None
    return _cards(file, grid, kinds, languages, default_kind, problems)


# ---- reading the grid ---------------------------------------------------------------------------

def _read_csv(file: Path, problems: Problems) -> _Grid | None:
    data = read_bounded(file, problems)
    if data is None:
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line, where = not_utf8(data, error)
        problems.add("sheet.syntax", file, line, "", f"not UTF-8 ({where}): save the CSV as UTF-8 (in a "
                     "spreadsheet program: CSV UTF-8)")
        return None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)        # the header names fields: no separator inside a name
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[tuple[int, list[Any]]] = []
    start, cells_read = 1, 0
    try:
        for cells in reader:
            cells_read += len(cells)
            if len(cells) > MAX_SHEET_COLUMNS or cells_read > MAX_SHEET_CELLS:
                _too_large(file, start, len(cells), cells_read, problems)
                return None
            rows.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as error:
        problems.add("sheet.syntax", file, start, "", f"cannot read the CSV: {error}")
        return None
    return _Grid(rows, None)


def _read_calamine(file: Path, sheet: str | None, problems: Problems) -> _Grid | None:
    try:
        import python_calamine
    except ImportError:
        problems.add("sheet.extra", file, 0, "", f"reading {file.suffix} card files needs the `{EXTRA}` extra: "
                     f"pip install 'pnp[{EXTRA}]' (or save the sheet as .csv)")
        return None
    if read_bounded(file, problems) is None or not _unpacks_within_bounds(file, problems):
        return None
    try:
        workbook = python_calamine.CalamineWorkbook.from_path(str(file))
        names = list(workbook.sheet_names)
        if sheet is not None and sheet not in names:
            problems.add("sheet.missing", file, 0, "", f"no sheet {sheet!r}{schema.did_you_mean(sheet, names)} "
                         f"(the file has: {', '.join(names) or 'none'})")
            return None
        if not names:
            problems.add("sheet.syntax", file, 0, "", "the file has no sheet")
            return None
        chosen = sheet if sheet is not None else names[0]
        data = workbook.get_sheet_by_name(chosen)
        # the grid is read from A1 to the last cell used: bounded before it is made
        rows, columns = (data.end[0] + 1, data.end[1] + 1) if data.end is not None else (0, 0)
        if columns > MAX_SHEET_COLUMNS or rows * columns > MAX_SHEET_CELLS:
            _too_large(file, rows, columns, rows * columns, problems, chosen)
            return None
        cells = data.to_python(skip_empty_area=False)
        faults = (_formula_faults(file, chosen) if file.suffix.lower() == ".xlsx"
                  else _ods_formula_faults(file, chosen, rows, columns))
    except Exception as error:      # calamine's errors (CalamineError, ZipError, XmlError...) and Rust panics
        problems.add("sheet.syntax", file, 0, "", f"cannot read the {file.suffix} file: {error}")
        return None
    return _Grid([(number, list(row)) for number, row in enumerate(cells, 1)], chosen, faults)


_FORMULA_OR_ERROR = re.compile(rb'<(?:\w+:)?f[\s>/]|\st=["\']e["\']')
_CELL_REF = re.compile(r"([A-Z]+)(\d+)")


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _formula_faults(file: Path, sheet: str) -> dict[tuple[int, int], str | None]:
    """The cells of an .xlsx's `sheet` that hold a formula error (t="e": '#DIV/0!')
    or a formula with no saved value (no <v>: the file was written by a program that does not
    calculate, openpyxl say). calamine reads both as '', which would make an empty cell of a
    formula gone wrong: this reads the sheet's XML, streamed, and only when it has formulas or
    errors at all. The zip's unpacked size is bounded already (_unpacks_within_bounds); expat
    bounds entity expansion and ElementTree fetches no external entity."""
    with zipfile.ZipFile(file) as archive:
        book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
        # the sheet's r:id (transitional or strict namespace), and the part its relationship names
        rel_id = next((value for e in book.iter() if _local(e.tag) == "sheet" and e.get("name") == sheet
                       for key, value in e.attrib.items() if _local(key) == "id"), None)
        target = next((e.get("Target", "") for e in rels if e.get("Id") == rel_id), "")
        member = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")
        if not target or not _FORMULA_OR_ERROR.search(archive.read(member)):
            return {}
        faults: dict[tuple[int, int], str | None] = {}
        row, column = 0, -1
        with archive.open(member) as stream:
            for event, element in ElementTree.iterparse(stream, events=("start", "end")):
                name = _local(element.tag)
                if event == "start" and name == "row":      # r is optional: the next row, then
                    row, column = int(element.get("r") or row + 1), -1
                elif event == "end" and name == "c":
                    ref = _CELL_REF.fullmatch(element.get("r") or "")
                    column = _column_index(ref.group(1)) if ref else column + 1
                    parts = {_local(child.tag): child for child in element}
                    value = parts["v"].text if "v" in parts else None
                    if element.get("t") == "e":
                        faults[(row, column)] = value or "#N/A"
                    elif "f" in parts and not value and element.get("t") not in ("str", "inlineStr"):
                        faults[(row, column)] = None      # an empty text result (t="str") is a value
                    element.clear()
                elif event == "end" and name == "row":
                    element.clear()                         # a streamed sheet's rows are not kept
    return faults


def _ods_formula_faults(file: Path, sheet: str, rows: int, columns: int) -> dict[tuple[int, int], str | None]:
    """_formula_faults for an .ods: the cells of `sheet` (in the grid of `rows` x `columns` calamine
    read) with a `table:formula` whose saved result is an error (calcext:value-type="error", the
    error's text in its paragraph: LibreOffice's '#DIV/0!') or that has no saved value at all (no
    office:value-type: a program that does not calculate wrote it). Rows and cells repeat
    (table:number-rows-repeated, table:number-columns-repeated): a repeated faulty cell is one
    fault per cell it stands for, inside the grid only (LibreOffice repeats empty rows to the
    sheet's end)."""
    with zipfile.ZipFile(file) as archive:
        if b"formula=" not in archive.read("content.xml"):
            return {}
        faults: dict[tuple[int, int], str | None] = {}
        row, column, repeat_rows, depth, inside = 0, 0, 1, 0, False   # depth: tables open (a cell may hold one)
        with archive.open("content.xml") as stream:
            for event, element in ElementTree.iterparse(stream, events=("start", "end")):
                name = _local(element.tag)
                if name == "table":
                    depth += 1 if event == "start" else -1
                    if event == "start" and depth == 1:
                        inside = _attribute(element, "name") == sheet
                    continue
                if not inside or depth != 1:
                    continue
                if event == "start" and name == "table-row":
                    column, repeat_rows = 0, int(_attribute(element, "number-rows-repeated") or 1)
                elif event == "end" and name == "table-row":
                    row += repeat_rows
                    element.clear()                      # a streamed sheet's rows are not kept
                elif event == "end" and name in ("table-cell", "covered-table-cell"):
                    repeat = int(_attribute(element, "number-columns-repeated") or 1)
                    if _attribute(element, "formula") is not None:
                        faulty, fault = _ods_fault(element)
                        if faulty:
                            for number in range(row + 1, min(row + repeat_rows, rows) + 1):
                                for index in range(column, min(column + repeat, columns)):
                                    faults[(number, index)] = fault
                    column += repeat
    return faults


def _ods_fault(cell: ElementTree.Element) -> tuple[bool, str | None]:
    """(whether an .ods formula cell is faulty, its error's text or None: no saved value)."""
    if _attribute(cell, "value-type", "calcext") == "error":
        return True, "".join(cell.itertext()).strip()[:SNIPPET_CHARS] or "#N/A"
    return _attribute(cell, "value-type", "office") is None, None


def _attribute(element: ElementTree.Element, name: str, prefix: str = "") -> str | None:
    """The attribute `name` of `element` in any namespace (`prefix`: only in a namespace whose URI
    holds it, calcext's value-type beside office's)."""
    for key, value in element.attrib.items():
        if _local(key) == name and (not prefix or prefix in key.partition("}")[0]):
            return value
    return None


def _column_index(letters: str) -> int:
    """A -> 0, Z -> 25, AA -> 26 (column_letter's inverse)."""
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


def _too_large(file: Path, row: int, columns: int, cells: int, problems: Problems, sheet: str = "") -> None:
    what = f"{columns:,} columns, more than the {MAX_SHEET_COLUMNS:,}" if columns > MAX_SHEET_COLUMNS else \
        f"{cells:,} cells (rows times columns, from A1), more than the {MAX_SHEET_CELLS:,}"
    problems.add("sheet.too-large", file, row, sheet, f"{what} one card sheet may have", cells=cells)


def _unpacks_within_bounds(file: Path, problems: Problems) -> bool:
    """An .xlsx/.ods is a zip: its unpacked size, from the zip's directory, is bounded before calamine
    unpacks anything (a zip bomb of a few kilobytes expands to gigabytes)."""
    try:
        with zipfile.ZipFile(file) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as error:
        problems.add("sheet.syntax", file, 0, "", f"not a {file.suffix} file (it is not a zip archive: {error})")
        return False
    if unpacked > MAX_SHEET_UNPACKED_BYTES:
        problems.add("sheet.too-large", file, 0, "", f"the file unpacks to {unpacked / 2**20:,.0f} MB, more than the "
                     f"{MAX_SHEET_UNPACKED_BYTES / 2**20:g} MB one card sheet may", unpacked=unpacked)
        return False
    return True


# ---- from rows to cards -------------------------------------------------------------------------

@dataclass
class _Column:
    index: int
    name: str           # the header as written
    target: str         # the card key or field it fills
    lang: str | None    # a per-language column (`title.it`): its language
    letter: str = ""    # its column letter

    def __post_init__(self) -> None:
        self.letter = column_letter(self.index)


def _columns(file: Path, grid: _Grid, header_row: int, header: list[Any], languages: list[str],
             problems: Problems) -> list[_Column] | None:
    if len(header) > MAX_SHEET_COLUMNS:
        problems.add("sheet.too-large", file, header_row, "", f"{len(header):,} columns, more than the "
                     f"{MAX_SHEET_COLUMNS:,} one card sheet may have")
        return None
    columns: list[_Column] = []
    seen: dict[str, str] = {}
    for index, raw in enumerate(header):
        name = _cell_text(raw).strip()
        if not name:
            continue                # a column without a name is checked row by row (_row)
        target, _, lang = name.rpartition(".")
        if not target or lang not in languages:
            target, lang = name, ""
        key = f"{target}.{lang}" if lang and lang != languages[0] else target
        if key in seen:
            problems.add("sheet.column", file, header_row, grid.ref(index, header_row),
                         f"column {name!r} repeats column {seen[key]} (each field has one column per language)")
            continue
        seen[key] = column_letter(index)
        columns.append(_Column(index, name, target, lang or None))
    return columns


def _cards(file: Path, grid: _Grid, kinds: dict[str, schema.Schema], languages: list[str],
           default_kind: str | None, problems: Problems) -> SheetSource | None:
    faulty = {number for number, _index in grid.faults}
    rows = [(number, cells) for number, cells in grid.rows
            if number in faulty or any(_cell_text(c).strip() for c in cells)]
    source = SheetSource(file, [], {(): 1}, [])
    if not rows:
        problems.add("sheet.empty", file, 0, "", "the sheet is empty: write a header row of field names "
                     "(id, kind, quantity, the fields) and one card per row")
        return None
    header_row, header = rows[0]
    columns = _columns(file, grid, header_row, header, languages or [""], problems)
    if columns is None:
        return None
    body = rows[1:]
    if len(body) > MAX_CARDS:
        number = body[MAX_CARDS][0]
        problems.add("pack.too-large", file, number, f"row {number}", f"more than {MAX_CARDS:,} rows of cards, "
                     f"the most one pack may have")
        return None
    _formula_problems(file, grid, header_row, header, problems)
    _nameless_values(file, grid, header_row, header, body, problems)
    _unknown_columns(file, grid, header_row, columns, _kinds_used(body, columns, kinds, default_kind), problems)
    absent = _absent_columns(file, grid, header_row, columns, body, kinds, default_kind, problems)
    for index, (number, cells) in enumerate(body):
        card = _row(index, number, cells, columns, grid, kinds, languages, default_kind, source, problems)
        source.reported.update((index, key) for key in absent)
        source.value.append(card)
    return source


def _formula_problems(file: Path, grid: _Grid, header_row: int, header: list[Any], problems: Problems) -> None:
    """`sheet.formula`: a cell holding a formula error or a formula with no saved value, each on its
    cell. The card then lacks that value (a quantity is never silently 1), without a second message."""
    for (number, index), error in sorted(grid.faults.items()):
        name = _cell_text(header[index]).strip() if index < len(header) else ""
        what = "the header cell" if number == header_row else \
            f"the cell in column {name!r}" if name else f"the cell in column {column_letter(index)}"
        if error is not None:
            message = f"{what} holds the formula error {error}: correct the formula, or type the value"
        else:
            message = (f"{what} holds a formula with no saved value (the file was written by a program that does "
                       "not calculate formulas): open the file in a spreadsheet program and save it, or type the value")
        problems.add("sheet.formula", file, number, grid.ref(index, number), message, error=error or "", column=name)


def _nameless_values(file: Path, grid: _Grid, header_row: int, header: list[Any], body: list[tuple[int, list[Any]]],
                     problems: Problems) -> None:
    """Values in a column without a name in the header row: one problem per column, on its first."""
    named = {index for index, name in enumerate(header) if _cell_text(name).strip()}
    found: dict[int, list[tuple[int, Any]]] = {}
    for number, cells in body:
        for position, value in enumerate(cells):
            if position not in named and _cell_text(value).strip():
                found.setdefault(position, []).append((number, value))
    for position, values in sorted(found.items()):
        number, value = values[0]
        more = f" ({len(values) - 1} more rows have a value there)" if len(values) > 1 else ""
        problems.add("sheet.column", file, number, grid.ref(position, number),
                     f"a value in column {column_letter(position)}, which has no name in the header row "
                     f"(row {header_row}){more}", _shown(value), values=len(values))


def _kinds_used(body: list[tuple[int, list[Any]]], columns: list[_Column], kinds: dict[str, schema.Schema],
                default_kind: str | None) -> list[schema.Schema]:
    names = {_row_kind(cells, columns, default_kind) for _number, cells in body}
    return [kinds[name] for name in sorted(n for n in names if n in kinds)]


def _row_kind(cells: list[Any], columns: list[_Column], default_kind: str | None) -> str | None:
    """A row's kind: its `kind` cell, else the deck's `kind:`."""
    kind_column = next((c for c in columns if c.target == "kind" and c.lang is None), None)
    cell = _cell_text(cells[kind_column.index]).strip() if kind_column and kind_column.index < len(cells) else ""
    return cell or default_kind


def _absent_columns(file: Path, grid: _Grid, header_row: int, columns: list[_Column], body: list[tuple[int, list[Any]]],
                    kinds: dict[str, schema.Schema], default_kind: str | None, problems: Problems) -> list[str]:
    """A key the cards need and no column holds (`id`, a kind's required field) is one problem on
    the header row, naming the columns there are, not one per card; those keys."""
    present = {column.target for column in columns}
    needed: dict[str, str] = {}             # key -> what needs it
    for _number, cells in body:
        kind_id = _row_kind(cells, columns, default_kind)
        if kind_id in kinds:                # its kind is known: `kind` is there
            for key, spec in kinds[kind_id].fields.items():
                if spec.required and key != "kind" and key not in present:
                    needed.setdefault(key, f"every {kind_id} card needs its {key!r} ({spec.doc.rstrip('.')})")
        else:                               # what every card has (pnp.pack.CARD_KEYS); the kind is reported
            for key in ("id",) if kind_id else ("id", "kind"):
                if key not in present:
                    needed.setdefault(key, f"every card needs its {key!r}" + (
                        ", from this column or the deck's `kind:` in pack.yaml" if key == "kind" else ""))
    names = ", ".join(repr(column.name) for column in columns) or "none"
    where = f"{grid.sheet} row {header_row}" if grid.sheet else f"row {header_row}"
    for key, why in needed.items():
        problems.add("sheet.column", file, header_row, where,
                     f"the sheet has no {key!r} column: {why} (its columns: {names})", missing=key)
    return list(needed)


def _unknown_columns(file: Path, grid: _Grid, header_row: int, columns: list[_Column], known: list[schema.Schema],
                     problems: Problems) -> None:
    """A column that no card's kind has (`valeu`) is one misspelt header, not one unknown key per
    row: reported on its header cell, and taken out of the cards (its values go to the field it
    was probably meant to be, so that its absence is not reported on every row as well)."""
    if not known:
        return                      # no kind to tell: the rows are reported as they are
    fields = list(dict.fromkeys(name for kind in known for name in kind.fields))
    for column in columns:
        if column.target in fields:
            continue
        problems.add("schema.unknown-key", file, header_row, grid.ref(column.index, header_row),
                     f"unknown column {column.name!r}{schema.did_you_mean(column.target, fields)} (the fields of "
                     f"{', '.join(sorted({k.name or k.doc for k in known}))}: {', '.join(fields)})",
                     column.name, unknown=column.target)
        # its values stand for the field it was meant to be: the typo is the one message
        meant = schema.closest(column.target, [f for f in fields if f not in {c.target for c in columns}])
        column.target = meant or ""


def _row(index: int, number: int, cells: list[Any], columns: list[_Column], grid: _Grid,
         kinds: dict[str, schema.Schema], languages: list[str], default_kind: str | None,
         source: SheetSource, problems: Problems) -> dict[str, Any]:
    """One row as a card mapping; each key's path keeps the row and the cell."""
    path = (index,)
    source.lines[path] = number
    source.cells[path] = f"{grid.sheet} row {number}" if grid.sheet else ""
    source.shown[path] = cells
    values = {c.name: cells[c.index] for c in columns if c.index < len(cells) and _cell_text(cells[c.index]).strip()}
    kind_column = next((c for c in columns if c.target == "kind" and c.lang is None), None)
    kind_id = _cell_text(values[kind_column.name]).strip() if kind_column and kind_column.name in values else default_kind
    fields = kinds[kind_id].fields if isinstance(kind_id, str) and kind_id in kinds else {}
    card: dict[str, Any] = {}
    if kind_id is not None and (kind_column is None or kind_column.name not in values):
        card["kind"] = kind_id
    faulty: set[str] = set()            # the keys of the row's formula faults (_formula_problems)
    for column in columns:
        if not column.target:
            continue                # an unknown column, reported on its header
        where = path + ((column.target, column.lang) if column.lang else (column.target,))
        source.lines[where] = number
        source.cells[where] = f"{grid.prefix}{column.letter}{number}"   # an empty cell too: a missing value is there
        source.headers.setdefault(where, column.name)
        source.headers.setdefault(path + (column.target,), column.name)   # `title.it` alone: the text's column
        source.cells.setdefault(path + (column.target,), source.cells[where])
        if (number, column.index) in grid.faults:
            faulty.add(column.target)
        if column.name not in values:
            continue
        raw = values[column.name]
        source.shown[where] = (column.name, raw)
        if isinstance(raw, str) and len(raw) > MAX_TEXT_CHARS:
            problems.add("sheet.too-large", source.file, number, grid.ref(column.index, number),
                         f"a cell of {len(raw):,} characters, more than the {MAX_TEXT_CHARS:,} one value may hold")
            continue
        spec = fields[column.target].type if column.target in fields else \
            ("int" if column.target == "quantity" else "str")
        base = _base(spec)
        if base == "list:text" and column.lang is None:
            card[column.target] = [{languages[0]: item} for item in _split(_cell_text(raw))]
            continue
        if base == "text" or (column.lang is not None and not fields):    # not fields: an unknown kind
            # text cells are the text itself, per language: a mapping is never read as a text key
            texts = card.setdefault(column.target, {})
            if isinstance(texts, dict):
                texts[column.lang or languages[0]] = _cell_text(raw).strip()
            continue
        if column.lang is not None:
            problems.add("sheet.column", source.file, number, grid.ref(column.index, number),
                         f"column {column.name!r}: only a text field has a column per language "
                         f"({column.target!r} is {schema.type_name(spec)})")
            continue
        card[column.target] = coerce(spec, raw)
    for key in faulty:                  # reported on its cell: neither a default nor a second message
        card.pop(key, None)
        source.reported.add(path + (key,))
    return card


def _base(spec: Any) -> str:
    return spec.rstrip("?") if isinstance(spec, str) else ""


def coerce(spec: Any, value: Any) -> Any:
    """A cell's value as the field's type wants it (a value that does not fit is left for the schema
    to report: `3.5` in an int field, `many` in a number field)."""
    base = _base(spec)
    if isinstance(value, (dt.datetime, dt.date, dt.time, dt.timedelta)):
        value = value.isoformat() if not isinstance(value, dt.timedelta) else str(value)
    if isinstance(value, str):
        value = value.strip()
    if base.startswith("list:"):
        items = _split(value) if isinstance(value, str) else [value]
        return [coerce(base[5:], item) for item in items]
    if base == "int":
        return _whole(value)
    if base == "number":
        number = _number(value)
        return _whole(number) if isinstance(number, float) else number
    if base == "bool":
        return _bool(value)
    if base == "length" and isinstance(value, float):
        return _whole(value)                        # a bare number is millimetres
    return _cell_text(value)


def _split(text: str) -> list[str]:
    """`a; b` or `a, b` (`;` when the cell has one, so list items may hold commas)."""
    separator = ";" if ";" in text else ","
    return [item.strip() for item in text.split(separator) if item.strip()]


def _whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            number = _number(value)         # "3.5" is the number 3.5, which the schema refuses as such
            return int(number) if isinstance(number, float) and number.is_integer() else number
    return value


def _number(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _bool(value: Any) -> Any:
    words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
    if isinstance(value, str):
        return words.get(value.lower(), value)
    if isinstance(value, float) and value in (0.0, 1.0):
        return bool(value)
    return value


def _cell_text(value: Any) -> str:
    """A cell as text: calamine reads every number as a float (3.0 is '3')."""
    if type(value) is str:
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _shown(value: Any) -> str:
    return shortened(_cell_text(value).replace("\n", " "))
