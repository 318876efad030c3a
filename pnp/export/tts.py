"""Tabletop Simulator decks: sheets of faces, one back, and a saved-object JSON.

TTS imports a custom deck from a sheet of card faces in a grid of at most 10 x 7; the last slot of
the grid is the "hidden" image, what other players see of a card in someone's hand (pnp puts the
deck's back there). Its knowledge base (Asset Creation) recommends sheets of at most 4096 x 4096 px,
the texture size every GPU TTS runs on takes. Every card is rendered at the export's dpi (300): a
sheet holds as many cards as fit in 4096 px at that resolution (5 x 3 slots of a poker card, 14
cards and the hidden slot), and a deck takes as many sheets as it needs (CustomDeck "1", "2"...;
card ids are sheet * 100 + slot), each sheet's grid the smallest, then the squarest, that holds its
cards. Only a card too big for two slots in 4096 px at that dpi is rendered smaller. Every copy of a
card has its own slot, in the deck's order, so the deck comes out of the JSON exactly as printed.
When every card shares the deck's back, the back is one image; when some card has its own back, the
backs are a second set of sheets in the same grids (UniqueBack).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from pnp.export.faces import ExportCard, ExportDeck, Frame
from pnp.export.presets import Preset
from pnp.export.raster import png_bytes, rasterize
from pnp.render.faces import RenderedFace
from pnp.units import PT_PER_IN, mm

MAX_COLUMNS = 10
MAX_ROWS = 7
MAX_SHEET_PX = 4096
POKER_ASPECT = 63.5 / 88.9                         # TTS's card mesh: its scale 1 is a poker card


@dataclass(frozen=True)
class SheetGrid:
    columns: int
    rows: int
    cell: tuple[int, int]            # px of one card

    @property
    def hidden_slot(self) -> int:
        return self.columns * self.rows - 1

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.cell[0], self.rows * self.cell[1]

    def origin(self, slot: int) -> tuple[int, int]:
        row, column = divmod(slot, self.columns)
        return column * self.cell[0], row * self.cell[1]


def card_cell(card_pt: tuple[float, float], dpi: int) -> tuple[int, int]:
    """One card's px at `dpi`; smaller only when two slots (a card and the hidden one) would not fit
    in MAX_SHEET_PX side by side or one above the other."""
    scale = dpi / PT_PER_IN
    fits = max(min(MAX_SHEET_PX / (2 * card_pt[0]), MAX_SHEET_PX / card_pt[1]),      # 2 x 1
               min(MAX_SHEET_PX / card_pt[0], MAX_SHEET_PX / (2 * card_pt[1])))      # 1 x 2
    scale = min(scale, fits)
    return math.floor(card_pt[0] * scale), math.floor(card_pt[1] * scale)


def cards_per_sheet(cell: tuple[int, int]) -> int:
    """The cards one sheet of such cells holds: every slot within 10 x 7 and MAX_SHEET_PX but the hidden one."""
    return min(MAX_COLUMNS, MAX_SHEET_PX // cell[0]) * min(MAX_ROWS, MAX_SHEET_PX // cell[1]) - 1


def sheet_grid(cards: int, cell: tuple[int, int]) -> SheetGrid:
    """The grid of one sheet of `cards` (at most cards_per_sheet) and the hidden slot: the fewest
    slots, then the squarest sheet (TTS's recommended deck sheet is a square 4096 px), then the
    fewest columns."""
    columns = min(MAX_COLUMNS, MAX_SHEET_PX // cell[0])
    rows = min(MAX_ROWS, MAX_SHEET_PX // cell[1])
    grids = [(c, r) for c in range(1, columns + 1) for r in range(1, rows + 1) if c * r >= cards + 1]
    c, r = min(grids, key=lambda g: (g[0] * g[1], abs(g[0] * cell[0] - g[1] * cell[1]), g[0]))
    return SheetGrid(c, r, cell)


def write_deck(deck: ExportDeck, preset: Preset, dpi: int, folder: Path, final: Path, game: str,
               write) -> list[Path]:
    """The sheets, back and JSON of one deck into `folder` (their URLs point at `final`, where
    they are once the export is committed); `write(path, bytes)` writes a file. Returns the paths."""
    card_pt = deck.deck.size_pt
    frame = Frame(card_pt, mm(preset.bleed_mm))
    shared = deck.shared_back
    hidden = shared or next((c.back for c in deck.cards if not c.own_back), deck.cards[0].back)
    written: list[Path] = []
    custom: dict[str, dict] = {}
    contained: list[dict] = []
    names = dict(game=game, deck=deck.deck.id)
    cell = card_cell(card_pt, dpi)
    per_sheet = cards_per_sheet(cell)
    chunks = [deck.cards[i:i + per_sheet] for i in range(0, len(deck.cards), per_sheet)]
    back_url = ""
    if shared is not None:
        path = folder / preset.file("deck_back", **names, card="back", n=0, sheet=0)
        write(path, png_bytes(next(rasterize([shared], frame, _dpi(cell, card_pt), cell)), _dpi(cell, card_pt)))
        written.append(path)
        back_url = (final / path.relative_to(folder)).resolve().as_uri()
    for number, chunk in enumerate(chunks, start=1):
        grid = sheet_grid(len(chunk), cell)
        sheets = {"sheet": [c.front for c in chunk]}
        if shared is None:
            sheets["back_sheet"] = [c.back for c in chunk]
        urls = {}
        for role, faces in sheets.items():
            path = folder / preset.file(role, **names, card="", n=number, sheet=number)
            write(path, png_bytes(compose_sheet(grid, faces, hidden, frame), _dpi(grid.cell, card_pt)))
            written.append(path)
            urls[role] = (final / path.relative_to(folder)).resolve().as_uri()
        entry = {"FaceURL": urls["sheet"], "BackURL": urls.get("back_sheet", back_url),
                 "NumWidth": grid.columns, "NumHeight": grid.rows, "BackIsHidden": True,
                 "UniqueBack": shared is None, "Type": 0}
        custom[str(number)] = entry
        for slot, card in enumerate(chunk):
            contained.append(_card_object(card, number * 100 + slot, {str(number): entry}, card_pt))
    path = folder / preset.file("json", **names, card="", n=0, sheet=0)
    write(path, (json.dumps(saved_object(deck.name, contained, custom, card_pt), indent=2, ensure_ascii=False)
                 + "\n").encode("utf-8"))
    written.append(path)
    return written


def compose_sheet(grid: SheetGrid, faces: list[RenderedFace], hidden: RenderedFace, frame: Frame) -> Image.Image:
    """The faces in slot order, the hidden image in the last slot, white elsewhere."""
    dpi = grid.cell[0] * PT_PER_IN / frame.page[0]          # the cells' resolution
    sheet = Image.new("RGB", grid.size, "white")
    keys = list(dict.fromkeys(face.key for face in [*faces, hidden]))
    by_key = {face.key: face for face in [*faces, hidden]}
    images = dict(zip(keys, rasterize([by_key[k] for k in keys], frame, dpi, grid.cell)))
    for slot, face in enumerate(faces):
        sheet.paste(images[face.key], grid.origin(slot))
    sheet.paste(images[hidden.key], grid.origin(grid.hidden_slot))
    return sheet


def _dpi(cell: tuple[int, int], card_pt: tuple[float, float]) -> float:
    """The resolution a sheet's cells are at (rendering and pHYs)."""
    return cell[0] * PT_PER_IN / card_pt[0]


def _transform(card_pt: tuple[float, float]) -> dict:
    """Face down at the table's centre, widened or narrowed from TTS's poker card to the deck's shape."""
    scale_x = round((card_pt[0] / card_pt[1]) / POKER_ASPECT, 4)
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": scale_x, "scaleY": 1.0, "scaleZ": 1.0}


def _card_object(card: ExportCard, card_id: int, custom: dict, card_pt: tuple[float, float]) -> dict:
    """A card as players see it: named by its printed title (its id when its kind declares none),
    its rules as the description; the id stays in the GM notes, for the designer to trace it."""
    return {"Name": "Card", "Transform": _transform(card_pt), "Nickname": card.title or card.card.id,
            "Description": card.rules or "", "GMNotes": card.card.id, "CardID": card_id, "CustomDeck": custom}


def saved_object(name: str, cards: list[dict], custom: dict, card_pt: tuple[float, float]) -> dict:
    """A TTS saved object (Saved Objects/<name>.json): a DeckCustom of `cards`, or the one Card."""
    if len(cards) == 1:                   # the one card, under its own name
        state = cards[0]
    else:
        state = {"Name": "DeckCustom", "Transform": _transform(card_pt), "Nickname": name,
                 "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards}
    return {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "PlayerTurn": "", "LuaScript": "", "ObjectStates": [state]}
