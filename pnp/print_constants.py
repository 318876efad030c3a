"""Every print constant, named once. Lengths in mm unless the name says otherwise."""

LAYOUTS = ("duplex", "gutterfold")   # how card sheets are printed: two-sided, or folded along a gutter
FLIPS = ("long", "short")           # the paper edge a duplex printer turns the sheet over

BLEED_MM = 3.0            # art extends this far past the trim (1/8 in)
SAFE_MM = 3.0             # keep text and key art this far inside the trim
MIN_EDGE_MM = 5.0         # nothing is drawn closer than this to a paper edge (home printers' dead zone)

CROP_MARK_LEN_MM = 3.0    # preferred crop mark length
CROP_MARK_MIN_LEN_MM = 2.0  # outer bleed is reduced (not the marks) below this, e.g. Letter top/bottom
CROP_MARK_GAP_MM = 0.5    # clear space between the bleed edge and the start of a mark
CROP_MARK_WIDTH_PT = 0.3  # hairline that still prints on home printers
CROP_MARK_COLOR = (0, 0, 0)

FOLD_LINE_WIDTH_PT = 0.4
FOLD_LINE_DASH_PT = (3, 2)

TEST_BAR_MM = 50.0        # measured test bar on every sheet
TEST_BAR_TICK_MM = 1.5    # end ticks of the test bar
TEST_BAR_WIDTH_PT = 0.5

SHEET_FONT = "Helvetica"  # base-14 font until the text layer provides embedded TTFs
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
