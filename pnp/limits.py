"""Every bound pnp puts on its input, named in one place (documented in docs/limits.md).

A pack from a forum may be hostile or simply broken; these limits make sure a few bytes can never
hang the machine or fill its memory. Each is far above what a real game needs, and each is
reported as a message naming the file, line and key that crossed it, never as a crash.
"""
from __future__ import annotations

# Files: each is read whole and parsed into memory; a real pack file is a few hundred kilobytes at
# most (the largest shipped one: 27 KB). Refused before parsing, naming the file.
MAX_FILE_BYTES = 8 * 1024 * 1024  # bytes of one file of a pack (YAML: pack, cards, collections, texts...)
MAX_PACK_FILES = 200          # files pack.yaml may name: collections, decks, languages, components

# YAML: aliases re-use a node, so ten nested aliases of ten items each ("billion laughs") expand to
# 10^9 values from a few hundred bytes. A real 950-card file holds about 15,000 values.
MAX_VALUES = 500_000          # values one YAML file may expand to (aliases counted at every use)
MAX_DEPTH = 64                # nesting levels of one YAML file
MAX_TEXT_CHARS = 20_000       # characters of one value (a text, a grid map): a card holds a few hundred

# Numbers: a count of a billion (`count: 1000000000`) would be looped over by a template or a rule;
# every whole number and number of pack data stays within +-MAX_INT unless its field is tighter.
MAX_INT = 1_000_000           # |n| of an `int` or `number` in pack data (pack.yaml, cards, collections, rules)
MAX_PLAYERS = 100             # `players: {min, max}` of pack.yaml
MAX_COMPONENT_COPIES = 1000   # `count` of one component entry (tokens, standees, template copies)

# Cards: more copies of one card is a typo, not a deck (and would not fit memory).
MAX_QUANTITY = 1000           # `quantity` of one card

# Spreadsheets (a deck's `cards: cards.xlsx`): .xlsx and .ods are zip files of XML, read whole by
# calamine; a few megabytes can unpack to gigabytes (a zip bomb), so the unpacked size is summed from
# the zip's directory first. A sheet's rows are cards (MAX_CARDS bounds them); its columns fields.
MAX_SHEET_UNPACKED_BYTES = 64 * 1024 * 1024   # bytes an .xlsx/.ods card file may unpack to
MAX_SHEET_COLUMNS = 200       # columns of a card sheet (fields and their per-language columns)
MAX_SHEET_CELLS = 2_000_000   # rows x columns of a card sheet (read from A1): 20,000 cards of 100 columns

# Faces: every face is a drawing and a page slot; a build of this many takes hours and gigabytes,
# so more is a mistake (a quantity typo) rather than a game. Counted after `quantity`, both sides.
MAX_CARDS = 20_000            # expanded cards of one pack (front and back: 40,000 faces)
MAX_FACES_PER_BUILD = 100_000  # faces of one `pnp build`, all packs together (checked in build.py)

# Translators' PO files (`pnp i18n import`): a game's PO file is tens of kilobytes.
MAX_PO_BYTES = 20_000_000     # bytes of one PO file: refused unread above this
MAX_PO_PROBLEMS = 200         # problems listed for one PO file, then their count: nobody reads more

# Templates: Jinja's sandbox keeps its own safe `range`, which refuses loops of more than this.
MAX_TEMPLATE_RANGE = 100_000  # jinja2.sandbox.MAX_RANGE, restated so the documentation names it
# A card template is a few kilobytes; one this large is a mistake (or hostile) and is not read.
MAX_TEMPLATE_BYTES = 1_000_000
# What `*` and `**` may make in a template: far above any face's needs, far below the memory.
MAX_TEMPLATE_VALUE = 1_000_000     # characters of a repeated string, items of a repeated list
MAX_TEMPLATE_EXPONENT = 1_000      # of an integer power

# SVG: <g> inside <g>...: real faces nest a handful; a template looping out thousands would exhaust
# Python's stack while the face is compiled (and PDF viewers limit nested graphics states).
MAX_GROUP_DEPTH = 64          # nested groups of one card face (pnp.render.svgcanvas)
MAX_MARKUP_DEPTH = 64         # elements nested in one piece of component markup (pnp.components.svgkit)

# Search bots (`--bot mcts --budget N`): iterations per move; more is hours per game, not a bot.
MAX_BUDGET = 100_000          # a search bot's budget per move (pnp.engines.search)

# Simulations (`pnp simulate`, `pnp playtest`, soak and fairness runs): the report holds every
# game's summary in memory, about 2 KB a game, so a million games is 2-3 GB on the machine that
# reports (docs/cluster.md's sweep); a billion is a typo. Seeds are made as chunks are sent, so
# the count itself costs nothing before the games are played.
MAX_GAMES = 1_000_000         # games one command plays in all (playtest: every player count and variant)
MAX_WORKERS = 256             # `--workers`: local processes; more than the cores plays no faster

# A pack's own fonts and icons (pnp.text.packfonts, pnp.text.icons): read whole and parsed, so bounded.
MAX_FONT_BYTES = 32 * 1024 * 1024   # one font file (Noto Sans CJK is 16 MB; a card font is far smaller)
MAX_ICON_BYTES = 64 * 1024          # one icon SVG: icons are a few shapes
MAX_ICON_ELEMENTS = 500             # elements of one icon
MAX_ICON_DEPTH = 16                 # groups nested in one icon

# Art in templates (pnp.render.art, pnp.render.svgcanvas): files are decoded and SVG art is compiled whole.
MAX_ART_PIXELS = 40_000_000         # pixels of one raster art file (width x height), read from its header
MAX_ART_BYTES = 100 * 1024 * 1024   # bytes of one raster art file
MAX_SVG_ART_BYTES = 5 * 1024 * 1024  # bytes of one SVG art file (parsed whole, like a face)
MAX_USE_ELEMENTS = 100_000    # elements drawn through <use> in one face, every level counted
MAX_ART_DEPTH = 8             # SVG art inside SVG art inside... (<image> of an .svg)
MAX_GRADIENT_LINKS = 16       # gradients inheriting from gradients (href="#other")

# The face cache (pnp.facecache): a compiled face takes a few kilobytes on disk, so 256 MB holds
# the faces of every language of many games (the 950-card test pack: under 10 MB); above it the
# entries used longest ago are removed after each build, so a cache never grows without bound.
MAX_FACE_CACHE_BYTES = 256 * 1024 * 1024   # bytes of the face cache folder (<cache>/faces)
