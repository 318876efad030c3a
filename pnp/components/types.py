"""The component types: what an entry of a pack's components.yaml may say, and who draws it.

A pack's `components.yaml` (named by `components:` in pack.yaml) is a list of entries, each with a
`type` and that type's settings:

    - {type: grid-board, board: board, pieces: pieces, coordinates: 9mm, square: board}
    - {type: dice, dice: dice, face: 18mm, tab: 5mm, art: zombies-vs-vampires/die-face.svg.j2}
    - {type: template, template: my-game/score-track.svg.j2, width: 180mm, height: 40mm}

A `ComponentType` is a name, the `Schema` of its settings (every setting declared once, as a
`pnp.schema.Field` with its type, one-line doc and default), the function that draws it
("module:function", imported only when something is drawn) and the document it goes in:
`board` (<game>-board-<lang>-<paper>.pdf), `parts` (<game>-parts-..., packed with the cut/fold/glue
legend) or `mat` (<game>-mat-..., only with `pnp build --mat`).

The registry is open: `register(ComponentType(...))` adds a type, and every installed package may
ship types through the entry-point group `pnp.components` (each entry point loads a
`ComponentType`), loaded once, when the types are first needed. `COMPONENT` is the schema the
loader validates each entry with (pnp.pack: unknown keys, wrong types, missing collections are
errors with file, line and key before anything is drawn); lengths arrive in millimetres, defaults
filled in.

Colours: a setting whose doc says "colour" names a colour of pack.yaml's `palette` or is a
'#rrggbb' value. Art: a setting `art` names a Jinja SVG template (below templates/, like card
templates) drawing one piece of the component in millimetres; see pnp.components.art for what it
gets. This module imports only the schema and the standard library: the loader reads it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

from pnp.limits import MAX_COMPONENT_COPIES
from pnp.schema import SLUG, Field, OneOf, Schema

DOCUMENTS = ("board", "parts", "mat")
ENTRY_POINT_GROUP = "pnp.components"


class ComponentTypeError(Exception):
    """A component type that cannot be registered or loaded (a programming error, not bad data)."""


@dataclass(frozen=True)
class ComponentType:
    """One kind of printed component: its settings, its drawer and its document.

    `draw` is "module:function" (or the function itself); the function takes the drawing context
    (pnp.components.core.Context) and the entry's validated settings, and returns, for a `parts`
    type, groups of `Part`s (each group starts a new row of the parts pages), for a `board` or
    `mat` type, the `PartsPage`s of that document."""

    name: str
    schema: Schema
    draw: str | Callable[..., Any]
    document: str = "parts"

    def __post_init__(self) -> None:
        if not SLUG.match(self.name):
            raise ComponentTypeError(f"component type name {self.name!r} must be a slug (a-z, 0-9, '-', '_')")
        if self.document not in DOCUMENTS:
            raise ComponentTypeError(f"component type {self.name!r}: document {self.document!r} is not one of "
                                     f"{', '.join(DOCUMENTS)}")
        if not isinstance(self.schema, Schema):
            raise ComponentTypeError(f"component type {self.name!r}: schema must be a pnp.schema.Schema")
        if isinstance(self.draw, str) and ":" not in self.draw:
            raise ComponentTypeError(f"component type {self.name!r}: draw must be 'module:function'")

    def drawer(self) -> Callable[..., Any]:
        """The drawing function (imported now, the first time it is needed)."""
        if not isinstance(self.draw, str):
            return self.draw
        module, _, function = self.draw.partition(":")
        return getattr(importlib.import_module(module), function)


_REGISTRY: dict[str, ComponentType] = {}
_entry_points_loaded = False


def register(component_type: ComponentType, replace: bool = False) -> ComponentType:
    """Add a component type; a second type of the same name is an error unless `replace`."""
    if not isinstance(component_type, ComponentType):
        raise ComponentTypeError(f"not a ComponentType: {component_type!r}")
    known = _REGISTRY.get(component_type.name)
    if known is not None and known != component_type and not replace:
        raise ComponentTypeError(f"component type {component_type.name!r} is already registered "
                                 f"(drawn by {known.draw!r})")
    _REGISTRY[component_type.name] = component_type
    return component_type


def entry_points(group: str) -> Any:
    """The installed packages' entry points of `group` (importlib.metadata's): imported here, as it
    costs a build of a pack without components about 30 ms."""
    from importlib.metadata import entry_points as installed
    return installed(group=group)


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = point.load()
        except Exception as error:   # an installed package's bug: name it, do not print a traceback
            raise ComponentTypeError(f"entry point {point.name!r} of group {ENTRY_POINT_GROUP!r} "
                                     f"({point.value}) cannot be loaded: {type(error).__name__}: {error}") from None
        if not isinstance(loaded, ComponentType):
            raise ComponentTypeError(f"entry point {point.name!r} of group {ENTRY_POINT_GROUP!r} "
                                     f"({point.value}) is not a pnp.components.types.ComponentType")
        register(loaded)


def registered() -> dict[str, ComponentType]:
    """Every component type: the shipped ones, those registered and those of installed packages."""
    _load_entry_points()
    return dict(_REGISTRY)


def choices() -> dict[str, Schema]:
    """Type name -> the schema of its settings (for COMPONENT)."""
    return {name: component_type.schema for name, component_type in registered().items()}


COMPONENT = OneOf("component", "One thing printed besides the cards (components.yaml): its `type` "
                  "and that type's settings.", "type", choices)


# ---- the shipped types: their settings, declared once

def _colour(doc: str, default: Any) -> Field:
    return Field("str", f"{doc} (a palette colour's name or '#rrggbb').", default)


def _art(doc: str, default: Any = None) -> Field:
    return Field("str?", f"{doc}: a Jinja SVG template below templates/ (see pnp.components.art).", default)


def _schema(name: str, doc: str, fields: dict[str, Field]) -> Schema:
    return Schema(f"{name} component", doc, fields, unique=None)


INK = _colour("Colour of text and outlines", "#000000")
PAPER = _colour("Colour of the paper under the drawing", "#ffffff")

_GRID_BOARD = _schema("grid-board", "A board of square cells with coordinate strips and tinted zones, "
                      "tiled across pages with an assembly map (board document).", {
    "board": Field("collection", "The board collection: `size` {cols, rows}, `pitch` (a cell's side), "
                   "optional `zones` [{id, cols: [first, last], rows: [first, last]}] and `seats` "
                   "[{players, zones: [zone id...]}].", "board"),
    "pieces": Field("collection?", "Player pieces [{hex, ...}]: each zone of the largest seating takes "
                    "the `hex` colour of the piece set seated there, in order; null: zones keep `zone`.", None),
    "coordinates": Field("length", "Width of the strips around the grid with the column letters "
                         "(top, bottom) and row numbers (left, right).", "9mm"),
    "paper": PAPER,
    "square": _colour("Fill of the cells outside the zones", "#ffffff"),
    "grid": _colour("Colour of the lines between cells", "#000000"),
    "grid_width": Field("length", "Width of the lines between cells.", "0.5mm"),
    "zone": _colour("Fill of a zone nobody sits at, before `zone_tint`", "#ffffff"),
    "zone_edge": _colour("Outline of a zone nobody sits at (a seated zone takes its player's colour)", "#000000"),
    "zone_tint": Field("number", "How far a zone's fill is mixed with white: 0 the colour itself, 1 white.", 0.62),
    "ink": INK,
    "title": Field("bool", "Print the game's name across the middle of the board.", True),
    "zone_art": _art("Drawn over each zone (with `zone`, `owner`, the owner's `colour`, the zone's "
                     "box `x y w h` and the `pitch`)"),
})

_TOKENS = _schema("tokens", "Round counters cut from the parts pages: one row per entry of a "
                  "collection, labelled (parts document).", {
    "pieces": Field("collection", "The token sets: entries with `id`, `count` (tokens to print), `hex` "
                    "(disc colour) and whatever the label and art read.", "pieces"),
    "diameter": Field("length?", "Diameter of a token; null takes the `token_diameter` of `board`.", None),
    "board": Field("collection?", "Collection with `token_diameter`, used when `diameter` is null.", None),
    "label": Field("list:str", "The row's label: text keys, each a pattern filled with the entry's "
                   "fields ('{name}', 'side.{side}'), printed joined by `separator`.", ["{name}"]),
    "separator": Field("str", "Between the parts of the label.", " — "),
    "label_width": Field("length", "Width of the label at the start of each row.", "30mm"),
    "mark": Field("str?", "Field of an entry naming its colour-blind mark (dot, ring, bar, cross), "
                  "printed by the label; null: none.", None),
    "ink": INK,
    "art": _art("Drawn on each token over its disc (with `piece`, the centre `cx cy`, the radius `r`)"),
})

_WALLS = _schema("walls", "Fold-up wall strips that close into a box standing exactly `size` board "
                 "cells long (parts document).", {
    "walls": Field("collection", "The walls: entries with `id`, `size` (length in board cells), `count` "
                   "and `name` (a text key printed on the top).", "walls"),
    "board": Field("collection", "The board whose `pitch` is one cell.", "board"),
    "height": Field("length", "How tall a wall stands.", "10mm"),
    "thickness": Field("length", "How thick a wall is (its top and base).", "4mm"),
    "colour": _colour("Fill of the wall's sides", "#808080"),
    "mortar": _colour("Lines between the bricks", "#000000"),
    "cap_tint": Field("number", "How far the top and base are mixed with white (0 = `colour`).", 0.35),
    "ink": INK,
})

_DICE = _schema("dice", "Cube nets with glue tabs, one per die of a collection (parts document).", {
    "dice": Field("collection", "The dice: entries with `id`, `name` (a text key) and six `faces`, each "
                  "with a `label` (a text key) and whatever the face art reads.", "dice"),
    "face": Field("length", "Edge of one die face.", "18mm"),
    "tab": Field("length", "Depth of the glue tabs.", "5mm"),
    "background": _colour("Fill of the faces", "#ffffff"),
    "label": _colour("Colour of the faces' labels", "#000000"),
    "accent": _colour("Colour of the faces' pictures", "#000000"),
    "ink": INK,
    "art": _art("Draws one face (with `die`, `face`, its `label` text and box `x y size`)",
                "_components/die-face.svg.j2"),
})

_AID_LINE = Schema("aid line", "One line of a player aid.", {
    "text": Field("text", "Text key of the line."),
    "n": Field("number?", "A number standing next to a noun in the line: picks the plural form (CLDR) "
               "and fills {n}.", None),
}, unique=None)
_AID_SECTION = Schema("aid section", "A section of a player aid: its heading and lines.", {
    "heading": Field("text", "Text key of the heading."),
    "lines": Field([_AID_LINE], "The lines, each {text: <key>} or {text: <key>, n: <number>}.", []),
}, unique=None)

_AID = _schema("aid", "Player aid cards, one per player, in the build language: a header with the "
               "game's name and `title`, then the sections at the largest common size that fits, "
               "7.5 pt or more: the card grows taller before its text shrinks (parts document).", {
    "title": Field("text", "Text key of the aid's title, under the game's name."),
    "sections": Field([_AID_SECTION], "The content, top to bottom."),
    "count": Field("int?", "How many cards; null: one per player (players.max).", None,
                   bounds=(1, MAX_COMPONENT_COPIES)),
    "width": Field("length", "Card width.", "88mm"),
    "height": Field("length", "Card height; taller where the text needs it to stay at 7.5 pt (up to what a "
                    "parts page holds).", "118mm"),
    "max_size": Field("number", "Largest text size (pt).", 9.0),
    "min_size": Field("number", "Smallest text size (pt), for text that does not fit the tallest card at 7.5 pt; "
                      "text that fits only below it is a build error.", 6.0),
    "header": _colour("Fill of the header band and colour of the headings", "#000000"),
    "paper": _colour("Card background and header text", "#ffffff"),
    "ink": INK,
    "number": _colour("Colour of the card number (1/4) in the corner", "#000000"),
})

_STANDEE = _schema("standee", "Fold-over standees: a strip with the figure on both halves and glue tabs, "
                   "and a square base, plus the folding help (parts document).", {
    "count": Field("int", "How many standees.", 1, bounds=(1, MAX_COMPONENT_COPIES)),
    "width": Field("length", "Width of the figure.", "26mm"),
    "height": Field("length", "Height of the figure (each half of the strip).", "45mm"),
    "base": Field("length", "Depth of the glue tabs at both ends of the strip.", "13mm"),
    "colours": Field("list:str", "Accent colour of each standee, in turn (palette colour names or "
                     "'#rrggbb').", ["#808080"]),
    "name": Field("text", "Text key of the figure's name, printed with its number."),
    "help": Field("text?", "Text key of the folding help printed beside them; null: none.", None),
    "help_width": Field("length", "Width of the help text.", "70mm"),
    "base_colour": _colour("Fill of the base", "#ffffff"),
    "ink": INK,
    "art": _art("Draws the figure (with `accent`, `name` and the box `x y w h`)", "_components/standee.svg.j2"),
})

_LATTICE_FIELDS = {
    "map": Field("collection", "The map collection, whose `grid` is the lattice: one row per line "
                 "(each may be quoted), one symbol per cell, space for nothing.", "map"),
    "map_id": Field("str?", "When the `map` collection lists several maps (entries with an `id`): the id of "
                    "the one to draw; null: the first.", None),
    "card": Field("size", "Every cell of the lattice is this card size (poker, bridge... or '63mm x 88mm').",
                  "poker"),
    "gutter": Field("length", "Space between neighbouring cells.", "2mm"),
    "border": Field("length", "Depth of the outer ring of cells (the first and last rows and columns).", "40mm"),
    "full": Field("str", "Symbols that make a border row or column a full cell deep (a card lies there).", ""),
    "lanes": Field("str?", "Field of the map listing named lanes [{axis: row|col, index, name}]; the art gets "
                   "each cell's `row_lane` and `col_lane`, the guide labels and draws them.", None),
    "paper": PAPER,
    "ink": INK,
    "art": _art("Draws one cell (with `symbol`, `number`, the cell `x y w h`, the `card` box, `k` the scale, "
                "`guide`, `mode` 'ground' (a first pass under every cell) or 'cell')",
                "_components/lattice-cell.svg.j2"),
}

_LATTICE_GUIDE = _schema("lattice-guide", "The lattice of a map on one page, scaled to fit, with the lane "
                         "names along its edges and a legend (board document).", {
    **_LATTICE_FIELDS,
    "title": Field("text", "Text key of the page's title (after the game's name) and label."),
    "legend": Field([Schema("lattice legend entry", "A symbol and its meaning.", {
        "symbol": Field("str", "The symbol, drawn by the art with mode 'swatch'."),
        "text": Field("text", "Text key of its meaning."),
    }, unique="symbol")], "Legend under the map, four entries a row.", []),
    "guide_ink": _colour("Lane lines and names", "#000000"),
    "stop": Field("str", "Symbols a column's lane line stops short of (so their words stay clear).", ""),
})

_LATTICE_MAT = _schema("lattice-mat", "The lattice of a map at full size, tiled across pages with an "
                       "assembly map; printed with `pnp build --mat` (mat document).", dict(_LATTICE_FIELDS))

_TEMPLATE = _schema("template", "A component the pack draws itself, `count` copies cut out along their "
                    "edges (parts document): a Jinja SVG template rendered like the cards' (sandboxed) "
                    "draws SVG elements, no `<svg>` root, in millimetres with (0, 0) at a copy's top-left "
                    "corner. It gets `w` and `h` (the copy's width and height in mm), `copy` (1..count), "
                    "`count`, `component` (this entry's settings), `t()`, `textbox()`, `mark()`, `tint()`, "
                    "`colour()`, `palette`, `lang`, `rtl`, `direction`, `pack`, `collections` (see "
                    "pnp.components.art), the `mm` filter and `hsl()`, `seeded()`, `range()`, `min()`, "
                    "`max()`, `abs()`, `round()`, `len()`, `enumerate()`, `zip()`.", {
    "template": Field("str", "The template, below templates/ (the pack's own folder or the shared one)."),
    "width": Field("length", "Width of one copy (the template's `w`)."),
    "height": Field("length", "Height of one copy (the template's `h`)."),
    "count": Field("int", "How many copies (the template gets `copy` 1..count).", 1,
                   bounds=(1, MAX_COMPONENT_COPIES)),
    "cut": Field("bool", "Draw the cut line around each copy.", True),
    "label": Field("str", "Name of the part in messages.", "template"),
})

SHIPPED = tuple(register(ComponentType(name, spec, f"pnp.components.{draw}", document)) for name, spec, draw, document in (
    ("grid-board", _GRID_BOARD, "grid_board:draw", "board"),
    ("lattice-guide", _LATTICE_GUIDE, "lattice:draw_guide", "board"),
    ("lattice-mat", _LATTICE_MAT, "lattice:draw_mat", "mat"),
    ("tokens", _TOKENS, "tokens:draw", "parts"),
    ("standee", _STANDEE, "standee:draw", "parts"),
    ("walls", _WALLS, "walls:draw", "parts"),
    ("dice", _DICE, "dice:draw", "parts"),
    ("aid", _AID, "aid:draw", "parts"),
    ("template", _TEMPLATE, "template:draw", "parts"),
))
