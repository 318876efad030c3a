"""Every print constant, named once. Lengths in mm unless the name says otherwise."""

LAYOUTS = ("duplex", "gutterfold")   # how card sheets are printed: two-sided, or folded along a gutter
FLIPS = ("long", "short")           # the paper edge a duplex printer turns the sheet over

BLEED_MM = 3.0            # art extends this far past the trim (1/8 in)
SAFE_MM = 3.0             # keep text and key art this far inside the trim
OFF_CARD_TOLERANCE_MM = 0.05  # text reaching farther than this past the trim is cut off: text.off-card
MIN_BLEED_MM = 2.0        # card sheets: every card edge keeps at least this much of its own art beyond the trim
MIN_EDGE_MM = 5.0         # parts and calibration pages: nothing is drawn closer than this to a paper edge

PRINTER_MARGIN_MM = 6.35  # card sheets: the dead zone many home printers cannot reach (1/4 in); nothing
                          # (art, marks, text) is drawn in it. `pnp build --printer-margin MM` changes it.
MAX_PRINTER_MARGIN_MM = 30.0  # a larger --printer-margin leaves no room for a card on A4 or Letter

CROP_MARK_LEN_MM = 3.0    # every crop mark is this long, entirely outside the printer margin
CROP_MARK_GAP_MM = 0.5    # clear space between the bleed edge and the start of a mark
CROP_MARK_WIDTH_PT = 0.3  # hairline that still prints on home printers
CROP_MARK_COLOR = (0, 0, 0)

FOLD_LINE_WIDTH_PT = 0.4
FOLD_LINE_DASH_PT = (3, 2)

TEST_BAR_MM = 50.0        # the measured test length: two bars at right angles on card sheets (x and y),
                          # a 50 x 50 mm square on the calibration sheet, a bar on parts pages
TEST_BAR_TICK_MM = 1.5    # end ticks of a test bar
TEST_BAR_WIDTH_PT = 0.5
SHEET_TEXT_PT = 7.0       # nominal size of sheet text (instructions, labels)
SHEET_TEXT_MIN_PT = 4.5   # sheet text shrinks to fit its margin, never below this
SHEET_TEXT_GRAY = 0.25
SHEET_ITEM_SPACING_MM = 4.0  # space between info items sharing a margin strip
MARK_CLEARANCE_MM = 1.0   # space kept between info items and crop marks

GUTTERFOLD_GUTTER_MM = 10.0  # space between the front block and the back block (fold line in the middle)


PAPER_SIZES_MM: dict[str, tuple[float, float]] = {  # portrait (w, h)
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}
PAPERS: tuple[str, ...] = tuple(PAPER_SIZES_MM)  # the papers a build can print on

# Calibration sheet
CALIBRATION_SCALE_MM = 5.0       # the back scale spans +-5 mm
CALIBRATION_TICK_STEP_MM = 0.5
MAX_BACK_OFFSET_MM = 10.0        # --back-offset X,Y: each within +-this. Twice what the calibration sheet
                                 # reads (+-CALIBRATION_SCALE_MM); a larger shift is a typo or a
                                 # paper-feed fault, and moves the backs off their fronts and the page
