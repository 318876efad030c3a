"""A pack's own fonts and icons, as pack.yaml declares them.

    fonts:
      regular: {file: fonts/Body-Regular.ttf}
      bold: {file: fonts/Body-Bold.ttf, arabic: fonts/Naskh-Bold.ttf}
    icons: icons/          # one SVG per icon, used in text as :name:

The paths are confined to the pack (pnp.pack reads them with its `_pack_file`)."""
from __future__ import annotations

from pnp import schema

FONT = schema.Schema("font", "The font files of one text style.", {
    "file": schema.Field("path", "TTF or OTF file for Latin, Greek and Cyrillic text (and any other "
                         "script it covers), relative to the pack."),
    "arabic": schema.Field("path?", "TTF or OTF file for Arabic-script text in this style; none: the "
                           "shipped Noto Sans Arabic.", None),
})
FONTS = schema.Schema("", "fonts", values=FONT)
