import pytest

from pnp import print_constants as pc
from pnp.units import CARD_SIZES_MM, card_size_pt, mm, parse_size, pt_to_mm, to_pt


@pytest.mark.parametrize("value, expected_pt", [
    ("63mm", 63 * 72 / 25.4), ("63 mm", 63 * 72 / 25.4), ("1cm", 10 * 72 / 25.4), ("2.5in", 180.0),
    ("10pt", 10.0), (" 0.5IN ", 36.0), (63, 63 * 72 / 25.4), (2.5, 2.5 * 72 / 25.4), ("12", 12 * 72 / 25.4),
    (".5mm", 0.5 * 72 / 25.4), ("-1mm", -72 / 25.4),
])
def test_to_pt(value, expected_pt):
    assert to_pt(value) == pytest.approx(expected_pt)


@pytest.mark.parametrize("bad", ["63 furlongs", "mm", "", "1,5mm", "2in3", None, True, [63], "63mm x 88mm"])
def test_to_pt_rejects_and_quotes_the_value(bad):
    with pytest.raises(ValueError) as info:
        to_pt(bad)
    assert repr(bad) in str(info.value)


def test_mm_round_trip():
    assert mm(25.4) == pytest.approx(72.0)
    assert pt_to_mm(mm(63)) == pytest.approx(63)


def test_parse_size():
    assert parse_size("63mm x 88mm") == pytest.approx((mm(63), mm(88)))
    assert parse_size("2.5in × 3.5in") == pytest.approx((180.0, 252.0))
    assert parse_size("70x70") == pytest.approx((mm(70), mm(70)))
    for bad in ["63mm", "63mm x", "x 88mm", "0mm x 88mm", "63mm x 88mm x 1mm", 63]:
        with pytest.raises(ValueError, match="size"):
            parse_size(bad)


def test_named_card_sizes():
    expected = {"poker": (63, 88), "bridge": (57, 89), "tarot": (70, 120), "mini": (44.5, 63.5),
                "mini-euro": (44, 68), "euro": (59, 92), "square": (70, 70)}
    assert CARD_SIZES_MM == expected
    for name, (w, h) in expected.items():
        assert card_size_pt(name) == pytest.approx((mm(w), mm(h)))
    assert card_size_pt("50mm x 50mm") == pytest.approx((mm(50), mm(50)))
    with pytest.raises(ValueError, match="'jumbo'.*poker"):
        card_size_pt("jumbo")


def test_print_constants():
    assert pc.BLEED_MM == 3 and pc.SAFE_MM == 3 and pc.MIN_EDGE_MM == 5 and pc.TEST_BAR_MM == 50
    assert pc.PAPER_SIZES_MM == {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
