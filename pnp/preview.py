"""PNG previews: one image per distinct card face and a contact sheet per deck.

Faces are drawn to an in-memory PDF at their bleed-box size and rasterized by PDFium, so a
preview shows exactly what the printed PDF holds (same fonts, same vector art).
"""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from reportlab.pdfgen import canvas

from pnp.sheets.pdfcommon import atomic_path
from pnp.units import PT_PER_IN

PREVIEW_DPI = 150
CONTACT_COLUMNS = 10
CONTACT_SCALE = 0.5
CONTACT_GAP_PX = 8


def _faces_pdf(drawings: list) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, invariant=1)
    for drawing in drawings:
        pdf.setPageSize((drawing.width, drawing.height))
        drawing.draw(pdf)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def rasterize(drawings: list, dpi: int = PREVIEW_DPI) -> list[Image.Image]:
    # PDFium is imported here, not at the top: build imports this module, and a build without
    # --png should not load PDFium (issue 13, lazy imports).
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(_faces_pdf(drawings))
    try:
        return [page.render(scale=dpi / PT_PER_IN).to_pil().convert("RGB") for page in document]
    finally:
        document.close()


def save_png(image: Image.Image, target: Path) -> None:
    """Write `image` atomically, through the temp-file pattern every output shares."""
    with atomic_path(target) as temp:
        image.save(temp, format="PNG", optimize=False)


def write_previews(faces, out_dir: Path) -> list[Path]:
    """`faces` is a build.PreparedFaces; writes <out>/png-<lang>/<deck>/... and contact sheets."""
    root = out_dir / f"png-{faces.lang}"
    wanted: dict[str, tuple[Path, object]] = {}
    per_deck: dict[str, list[str]] = {}
    for card, front, back in faces.cards:
        deck_dir = root / card.deck
        wanted.setdefault(front.key, (deck_dir / f"{card.base_id}-front.png", front.drawing))
        back_name = f"{card.base_id}-back.png" if faces.pack.kinds[card.kind].back else "back.png"
        wanted.setdefault(back.key, (deck_dir / back_name, back.drawing))
        per_deck.setdefault(card.deck, [])
        if front.key not in per_deck[card.deck]:
            per_deck[card.deck].append(front.key)
    keys = list(wanted)
    images = dict(zip(keys, rasterize([wanted[k][1] for k in keys])))
    written = []
    for key in keys:
        target = wanted[key][0]
        target.parent.mkdir(parents=True, exist_ok=True)
        save_png(images[key], target)
        written.append(target)
    for deck_id, deck_keys in per_deck.items():
        target = root / f"{deck_id}-contact.png"
        save_png(contact_sheet([images[k] for k in deck_keys]), target)
        written.append(target)
    return written


def contact_sheet(images: list[Image.Image]) -> Image.Image:
    thumbs = [im.resize((int(im.width * CONTACT_SCALE), int(im.height * CONTACT_SCALE))) for im in images]
    cell_w = max(t.width for t in thumbs) + CONTACT_GAP_PX
    cell_h = max(t.height for t in thumbs) + CONTACT_GAP_PX
    cols = min(CONTACT_COLUMNS, len(thumbs))
    rows = -(-len(thumbs) // cols)
    sheet = Image.new("RGB", (cols * cell_w + CONTACT_GAP_PX, rows * cell_h + CONTACT_GAP_PX), "white")
    for index, thumb in enumerate(thumbs):
        row, col = divmod(index, cols)
        sheet.paste(thumb, (CONTACT_GAP_PX + col * cell_w, CONTACT_GAP_PX + row * cell_h))
    return sheet
