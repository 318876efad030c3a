"""Decks in spreadsheets: `cards:` naming a .csv, .xlsx or .ods file goes through the same schema
as YAML cards, and every problem names the file, the row and the cell.

The .xlsx and .ods files are written by the tests with kept writers (openpyxl, odfpy: test-only
dependencies); python-calamine reads them (the `sheets` extra)."""
from __future__ import annotations

import csv
import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CARDTEXT
from conftest import replace_once as replace
from pdftext import pdf_pages

from pnp import spreadsheets
from pnp.cli import main
from pnp.errors import DataError
from pnp.pack import load_pack

HEADER = ["id", "quantity", "title", "title.it", "body", "body.it", "colour", "value", "tags"]
ROWS = [["rook", 2, "Rook", "Torre", "Moves straight, any distance", "Muove dritto", "red", 5, "heavy; castle"],
        ["pawn", None, "Pawn", "Pedone", "One step", "Un passo", "blue", 1.0, "light"]]



def write_xlsx(path: Path, rows: list[list], sheet: str = "Sheet1") -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    page = book.active
    page.title = sheet
    for row in rows:
        page.append(row)
    book.save(path)


def write_ods(path: Path, rows: list[list], sheet: str = "Sheet1") -> None:
    pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name=sheet)
    for row in rows:
        line = TableRow()
        for value in row:
            if value is None:
                cell = TableCell()
            elif isinstance(value, (int, float)):
                cell = TableCell(valuetype="float", value=value)
                cell.addElement(P(text=str(value)))
            else:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=value))
            line.addElement(cell)
        table.addElement(line)
    document.spreadsheet.addElement(table)
    document.save(str(path))


def use_sheet(pack_dir: Path, name: str, sheet: str | None = None) -> None:
    """Point the `sheet` deck at cards/<name> (and its sheet)."""
    extra = f"\n    sheet: {sheet}" if sheet else ""
    replace(pack_dir / "pack.yaml", "cards: cards/sheet.csv", f"cards: cards/{name}{extra}")


def sheet_cards(pack) -> list[tuple]:
    """What a deck's cards are: id, quantity and each field with its texts resolved."""
    out = []
    for card in pack.deck("sheet").cards:
        fields = {k: (pack.texts["en"][v], pack.texts["it"][v]) if k in ("title", "body") else v
                  for k, v in card.fields.items()}
        out.append((card.id, card.kind, card.quantity, fields))
    return out


EXPECTED = [
    ("rook#1", "plain", 2, {"title": ("Rook", "Torre"), "body": ("Moves straight, any distance", "Muove dritto"),
                            "colour": "red", "value": 5, "tags": ["heavy", "castle"]}),
    ("rook#2", "plain", 2, {"title": ("Rook", "Torre"), "body": ("Moves straight, any distance", "Muove dritto"),
                            "colour": "red", "value": 5, "tags": ["heavy", "castle"]}),
    ("pawn", "plain", 1, {"title": ("Pawn", "Pedone"), "body": ("One step", "Un passo"), "colour": "blue",
                          "value": 1, "tags": ["light"]}),
]


def test_a_csv_deck_is_cards_with_quantities_types_and_translations():
    pack = load_pack(CARDTEXT, strict=False)
    assert sheet_cards(pack) == EXPECTED
    rook = pack.deck("sheet").cards[0]
    assert rook.fields["title"] == "card.sheet.rook.title" and (rook.file.name, rook.line) == ("sheet.csv", 2)


@pytest.mark.parametrize("writer,name", [(write_xlsx, "sheet.xlsx"), (write_ods, "sheet.ods")])
def test_xlsx_and_ods_decks_read_as_the_csv_does(pack_dir, writer, name):
    writer(pack_dir / "cards" / name, [HEADER, *ROWS], sheet="Cards")
    use_sheet(pack_dir, name, sheet="Cards")
    assert sheet_cards(load_pack(pack_dir, strict=False)) == EXPECTED


def test_a_sheet_that_is_not_there_is_named_with_the_ones_that_are(pack_dir):
    write_xlsx(pack_dir / "cards" / "sheet.xlsx", [HEADER, *ROWS], sheet="Cards")
    use_sheet(pack_dir, "sheet.xlsx", sheet="Crads")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    [problem] = error.value.problems
    assert problem.code == "sheet.missing" and "did you mean 'Cards'?" in problem.message


BROKEN = [HEADER,
          ["rook", 2, "Rook", "Torre", "Straight", "Dritto", "red", 3.5, ""],           # row 2: 3.5 in an int field
          ["pawn", 1, "Pawn", "Pedone", "One step", "Un passo", "green", 1, ""],        # row 3: no colour green
          ["queen", "many", "", "Regina", "Any way", "Ovunque", "blue", 9, ""]]         # row 4: quantity, no title


def test_every_problem_of_a_sheet_names_its_row_and_cell_at_once(pack_dir):
    write_xlsx(pack_dir / "cards" / "sheet.xlsx", BROKEN)
    use_sheet(pack_dir, "sheet.xlsx")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    found = sorted((p.code, Path(p.file).name, p.line, p.key) for p in error.value.problems)
    assert found == [
        ("schema.missing-key", "sheet.xlsx", 4, "card queen.title (Sheet1!C4)"),
        ("schema.range", "sheet.xlsx", 2, "card rook.value (Sheet1!H2)"),
        ("schema.reference", "sheet.xlsx", 3, "card pawn.colour (Sheet1!G3)"),
        ("schema.type", "sheet.xlsx", 4, "card queen.quantity (Sheet1!B4)"),
    ] or found == [
        ("schema.missing-key", "sheet.xlsx", 4, "card queen.title (Sheet1!C4)"),
        ("schema.reference", "sheet.xlsx", 3, "card pawn.colour (Sheet1!G3)"),
        ("schema.type", "sheet.xlsx", 2, "card rook.value (Sheet1!H2)"),
        ("schema.type", "sheet.xlsx", 4, "card queen.quantity (Sheet1!B4)"),
    ], found
    result = CliRunner().invoke(main, ["check", str(pack_dir), "--no-print"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "sheet.xlsx:2: error [schema.type] card rook.value (Sheet1!H2): expected a whole number, got the number 3.5" \
        in result.output


def test_csv_problems_name_the_line_and_the_column(pack_dir):
    replace(pack_dir / "cards" / "sheet.csv", ",blue,1.0,light", ",blue,1.5,light")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    assert [(p.code, Path(p.file).name, p.line, p.key) for p in error.value.problems] == \
        [("schema.type", "sheet.csv", 3, "card pawn.value (H3)")]


def test_a_csv_saved_in_latin1_names_the_line_and_column_of_its_first_bad_byte(pack_dir):
    sheet = pack_dir / "cards" / "sheet.csv"
    sheet.write_bytes(sheet.read_bytes().replace(b",blue,", b",bl\xe9,", 1))
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    (problem,) = error.value.problems
    line = next(i for i, row in enumerate(sheet.read_bytes().split(b"\n"), 1) if b"\xe9" in row)
    column = sheet.read_bytes().split(b"\n")[line - 1].index(b"\xe9") + 1
    assert (problem.code, problem.line) == ("sheet.syntax", line)
    assert problem.message.startswith(f"not UTF-8 (byte 0xe9 at column {column}): save the CSV as UTF-8")


def test_a_misspelt_column_is_one_problem_on_its_header_cell(pack_dir):
    replace(pack_dir / "cards" / "sheet.csv", "colour,value", "colour,valeu")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    [problem] = error.value.problems
    assert (problem.code, Path(problem.file).name, problem.line, problem.key) == ("schema.unknown-key", "sheet.csv", 1, "H1")
    assert "unknown column 'valeu'; did you mean 'value'?" in problem.message


def test_a_spreadsheet_only_game_needs_no_text_entries_for_its_cards(pack_dir, tmp_path):
    replace(pack_dir / "pack.yaml", "  - id: main\n    name: deck.main\n    back: tiny/back.svg.j2\n    cards: cards/main.yaml\n", "")
    (pack_dir / "text" / "en.yaml").write_text("ui: {}\n", encoding="utf-8")
    (pack_dir / "text" / "it.yaml").write_text("ui: {}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(pack_dir), "--out", str(tmp_path / "out"), "--lang", "it", "--strict"])
    assert result.exit_code == 0, result.output
    text = pdf_pages(next((tmp_path / "out").rglob("*cards-it*.pdf")))[0]
    assert all(word in text for word in ("Torre", "Pedone", "Muove dritto", "Un passo"))


def test_without_calamine_an_xlsx_deck_names_the_extra(pack_dir):
    write_xlsx(pack_dir / "cards" / "sheet.xlsx", [HEADER, *ROWS])
    use_sheet(pack_dir, "sheet.xlsx")
    code = ("import sys; sys.modules['python_calamine'] = None; from pnp.cli import main; "
            f"sys.argv = ['pnp', 'check', {str(pack_dir)!r}, '--no-print']; main()")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr + result.stdout
    assert "[sheet.extra]" in result.stdout and "pip install 'pnp[sheets]'" in result.stdout


def test_bounds_columns_unpacked_size_and_rows(pack_dir, monkeypatch):
    monkeypatch.setattr(spreadsheets, "MAX_SHEET_COLUMNS", 5)
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    assert [(p.code, Path(p.file).name, p.line) for p in error.value.problems] == [("sheet.too-large", "sheet.csv", 1)]
    monkeypatch.undo()
    write_xlsx(pack_dir / "cards" / "sheet.xlsx", [HEADER, *ROWS])
    use_sheet(pack_dir, "sheet.xlsx")
    monkeypatch.setattr(spreadsheets, "MAX_SHEET_UNPACKED_BYTES", 1000)
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    assert [(p.code, Path(p.file).name) for p in error.value.problems] == [("sheet.too-large", "sheet.xlsx")]
    monkeypatch.undo()
    monkeypatch.setattr(spreadsheets, "MAX_CARDS", 1)
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    assert [(p.code, Path(p.file).name, p.line) for p in error.value.problems] == [("pack.too-large", "sheet.xlsx", 3)]


def test_a_file_that_is_not_a_spreadsheet_is_one_problem(pack_dir):
    (pack_dir / "cards" / "sheet.ods").write_bytes(b"not a zip at all")
    use_sheet(pack_dir, "sheet.ods")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    assert [(p.code, Path(p.file).name) for p in error.value.problems] == [("sheet.syntax", "sheet.ods")]


def test_cell_coercion():
    assert spreadsheets.coerce("int", 3.0) == 3 and spreadsheets.coerce("int", 3.5) == 3.5
    assert spreadsheets.coerce("int", "7") == 7 and spreadsheets.coerce("int?", "x") == "x"
    assert spreadsheets.coerce("list:ref:colours", "red, blue") == ["red", "blue"]
    assert spreadsheets.coerce("list:str", "a, b; c") == ["a, b", "c"]
    assert spreadsheets.coerce("bool", "yes") is True and spreadsheets.coerce("bool", 0.0) is False
    assert spreadsheets.coerce("slug", 12.0) == "12"
    assert [spreadsheets.column_letter(i) for i in (0, 25, 26, 701, 702)] == ["A", "Z", "AA", "ZZ", "AAA"]


def test_a_csv_saved_by_a_european_spreadsheet_program_reads_the_same(pack_dir):
    # Excel in Italy writes `;` between cells (the comma is the decimal separator), often with a BOM
    csv_text = (pack_dir / "cards" / "sheet.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(csv_text)))
    out = io.StringIO()
    csv.writer(out, delimiter=";").writerows(rows)
    (pack_dir / "cards" / "sheet.csv").write_bytes(b"\xef\xbb\xbf" + out.getvalue().encode("utf-8"))
    assert sheet_cards(load_pack(pack_dir, strict=False)) == EXPECTED


def test_values_without_a_column_name_and_repeated_columns_are_one_problem_each(pack_dir):
    rows = [HEADER + ["", "title"], ROWS[0] + ["a note", "Rook again"], ROWS[1] + ["another note", ""]]
    write_xlsx(pack_dir / "cards" / "sheet.xlsx", rows)
    use_sheet(pack_dir, "sheet.xlsx")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    found = sorted((p.code, p.line, p.key, p.get("values")) for p in error.value.problems)
    assert found == [("sheet.column", 1, "Sheet1!K1", None), ("sheet.column", 2, "Sheet1!J2", 2)]


MAIN_DECK = "  - id: main\n    name: deck.main\n    back: tiny/back.svg.j2\n    cards: cards/main.yaml\n"


@pytest.mark.parametrize("only_the_sheet", [False, True])   # True: every plain card is in the sheet
def test_a_sheet_without_an_id_column_is_one_problem_naming_its_columns(pack_dir, only_the_sheet):
    if only_the_sheet:
        replace(pack_dir / "pack.yaml", MAIN_DECK, "")
    write_xlsx(pack_dir / "cards" / "sheet.xlsx", [HEADER[1:], *(row[1:] for row in ROWS)])
    use_sheet(pack_dir, "sheet.xlsx")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    [problem] = error.value.problems            # not one per row, nor pack.yaml's `fields:` said to declare `id`
    assert (problem.code, Path(problem.file).name, problem.line, problem.key) == ("sheet.column", "sheet.xlsx", 1,
                                                                                  "Sheet1 row 1")
    assert problem.message == ("the sheet has no 'id' column: every plain card needs its 'id' (Card id, unique in "
                               "the pack) (its columns: 'quantity', 'title', 'title.it', 'body', 'body.it', "
                               "'colour', 'value', 'tags')")


def test_an_empty_required_cell_is_named_with_its_column(pack_dir):
    rows = [HEADER, ROWS[0], ["queen", 1, "", "", "Any way", "Ovunque", "blue", None, ""], ["", *ROWS[1][1:]]]
    write_xlsx(pack_dir / "cards" / "sheet.xlsx", rows)
    use_sheet(pack_dir, "sheet.xlsx")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    found = sorted((p.code, p.line, p.key, p.message) for p in error.value.problems)
    assert found == [
        ("schema.missing-key", 3, "card queen.title (Sheet1!C3)",
         "empty cell in column 'title': a plain card needs its 'title' (declared in pack.yaml as text)"),
        ("schema.missing-key", 3, "card queen.value (Sheet1!H3)",
         "empty cell in column 'value': a plain card needs its 'value' (declared in pack.yaml as int)"),
        ("schema.missing-key", 4, "card #3.id (Sheet1!A4)",
         "empty cell in column 'id': a plain card needs its 'id' (Card id, unique in the pack)"),
    ]
    result = CliRunner().invoke(main, ["check", str(pack_dir), "--no-print"])
    assert result.exit_code == 2 and "([" not in result.output and "Traceback" not in result.output


def test_an_id_column_left_empty_is_said_on_its_cells_not_on_the_kinds_fields(pack_dir):
    replace(pack_dir / "pack.yaml", MAIN_DECK, "")        # every plain card is in the sheet, none has an id
    write_xlsx(pack_dir / "cards" / "sheet.xlsx", [HEADER, *([None, *row[1:]] for row in ROWS)])
    use_sheet(pack_dir, "sheet.xlsx")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    assert sorted((p.code, Path(p.file).name, p.key) for p in error.value.problems) == [
        ("schema.missing-key", "sheet.xlsx", "card #1.id (Sheet1!A2)"),
        ("schema.missing-key", "sheet.xlsx", "card #2.id (Sheet1!A3)"),
    ]


def patch_sheet(path: Path, old: str, new: str, member: str = "xl/worksheets/sheet1.xml") -> None:
    """Rewrite one cell of an .xlsx's first sheet (or of an .ods's `member` content.xml) as a
    spreadsheet program would have saved it."""
    import zipfile

    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    xml = parts[member].decode()
    assert xml.count(old) == 1, f"test setup: {old!r} not once in the sheet"
    parts[member] = xml.replace(old, new).encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


ODS_CALCEXT = 'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"'


def ods_cell(placeholder: str, cell: str) -> tuple[str, str]:
    """The string cell odfpy wrote for `placeholder`, and `cell` in its place (patch_sheet's pair)."""
    return f'<table:table-cell office:value-type="string"><text:p>{placeholder}</text:p></table:table-cell>', cell


def test_an_ods_formula_error_or_a_formula_without_a_saved_value_is_an_error_on_its_cell(pack_dir):
    # as LibreOffice saves an error (calcext:value-type="error", the error in the paragraph) and as a
    # program that does not calculate writes a formula (no office:value-type)
    rows = [HEADER, ["rook", "B2", *ROWS[0][2:]], ["queen", "B3", *ROWS[1][2:]],
            ["castle", "B4", "Castle", "Castello", "Walls", "Mura", "red", "H4", ""],
            ["pawn", None, *ROWS[1][2:]]]
    sheet = pack_dir / "cards" / "sheet.ods"
    write_ods(sheet, rows)
    patch_sheet(sheet, "<office:document-content ", f"<office:document-content {ODS_CALCEXT} ", "content.xml")
    for placeholder, cell in (
            ("B2", '<table:table-cell table:formula="of:=1/0" office:value-type="string" office:string-value="" '
                   'calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell>'),
            ("B3", '<table:table-cell table:formula="of:=2+1"/>'),
            ("B4", '<table:table-cell table:formula="of:=1+1" office:value-type="float" office:value="2" '
                   'calcext:value-type="float"><text:p>2</text:p></table:table-cell>'),
            ("H4", '<table:table-cell table:formula="of:=[.Z9]" office:value-type="string" office:string-value="" '
                   'calcext:value-type="error"><text:p>#REF!</text:p></table:table-cell>')):
        patch_sheet(sheet, *ods_cell(placeholder, cell), member="content.xml")
    use_sheet(pack_dir, "sheet.ods")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    found = sorted((p.code, Path(p.file).name, p.line, p.key, p.message) for p in error.value.problems)
    assert found == [
        ("sheet.formula", "sheet.ods", 2, "Sheet1!B2",
         "the cell in column 'quantity' holds the formula error #DIV/0!: correct the formula, or type the value"),
        ("sheet.formula", "sheet.ods", 3, "Sheet1!B3", "the cell in column 'quantity' holds a formula with no saved "
         "value (the file was written by a program that does not calculate formulas): open the file in a "
         "spreadsheet program and save it, or type the value"),
        ("sheet.formula", "sheet.ods", 4, "Sheet1!H4",
         "the cell in column 'value' holds the formula error #REF!: correct the formula, or type the value"),
    ]


def test_ods_formula_faults_count_repeated_rows_and_cells_inside_the_grid_only(tmp_path):
    # LibreOffice repeats rows and cells (number-rows/columns-repeated); an inner table is not the sheet's
    table = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
    content = f"""<?xml version="1.0"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="{table}">
<office:body><office:spreadsheet>
<table:table table:name="Other"><table:table-row><table:table-cell table:formula="of:=1"/></table:table-row></table:table>
<table:table table:name="Cards">
 <table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="2"/>
  <table:table-cell table:formula="of:=A1" table:number-columns-repeated="2"/></table:table-row>
 <table:table-row><table:covered-table-cell/><table:table-cell table:formula="of:=1" office:value-type="float"
   office:value="1"/><table:table-cell table:formula="of:=B1"/></table:table-row>
 <table:table-row table:number-rows-repeated="1048570"><table:table-cell table:formula="of:=C1"
   table:number-columns-repeated="16384"/></table:table-row>
</table:table></office:spreadsheet></office:body></office:document-content>"""
    path = tmp_path / "cards.ods"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("content.xml", content)
    faults = spreadsheets._ods_formula_faults(path, "Cards", rows=4, columns=4)
    assert faults == {(1, 2): None, (1, 3): None, (2, 2): None, (2, 3): None, (3, 2): None,
                      (4, 0): None, (4, 1): None, (4, 2): None, (4, 3): None}


def test_a_formula_error_or_a_formula_without_a_saved_value_is_an_error_on_its_cell(pack_dir, tmp_path):
    # openpyxl writes formulas without a value (<f>1/0</f><v></v>), as a program that does not calculate does
    rows = [HEADER, ["rook", "=1/0", *ROWS[0][2:]], ["queen", "=2+1", *ROWS[1][2:]],
            ["castle", "=1+1", "Castle", "Castello", "Walls", "Mura", "red", "=0/0", ""],
            ["pawn", None, *ROWS[1][2:]]]                                # an empty optional cell: quantity 1
    sheet = pack_dir / "cards" / "sheet.xlsx"
    write_xlsx(sheet, rows)
    patch_sheet(sheet, '<c r="B2"><f>1/0</f><v></v></c>', '<c r="B2" t="e"><f>1/0</f><v>#DIV/0!</v></c>')
    patch_sheet(sheet, '<c r="B4"><f>1+1</f><v></v></c>', '<c r="B4"><f>1+1</f><v>2</v></c>')   # saved: 2
    patch_sheet(sheet, '<c r="H4"><f>0/0</f><v></v></c>', '<c r="H4" t="e"><f>0/0</f><v>#DIV/0!</v></c>')
    use_sheet(pack_dir, "sheet.xlsx")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    found = sorted((p.code, Path(p.file).name, p.line, p.key, p.message) for p in error.value.problems)
    no_value = ("holds a formula with no saved value (the file was written by a program that does not calculate "
                "formulas): open the file in a spreadsheet program and save it, or type the value")
    assert found == [      # one message each, the value field's absence not said again
        ("sheet.formula", "sheet.xlsx", 2, "Sheet1!B2",
         "the cell in column 'quantity' holds the formula error #DIV/0!: correct the formula, or type the value"),
        ("sheet.formula", "sheet.xlsx", 3, "Sheet1!B3", f"the cell in column 'quantity' {no_value}"),
        ("sheet.formula", "sheet.xlsx", 4, "Sheet1!H4",
         "the cell in column 'value' holds the formula error #DIV/0!: correct the formula, or type the value"),
    ]
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(pack_dir), "--out", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "sheet.xlsx:2: Sheet1!B2: the cell in column 'quantity' holds the formula error #DIV/0!" in result.output
    assert not out.exists() or not any(out.rglob("*.pdf"))

