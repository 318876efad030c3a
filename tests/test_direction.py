"""Text direction from CLDR (pnp.i18n.direction): the quick read of a bare language's own data
file answers what Babel's merged locale answers, for every language Babel has."""
from __future__ import annotations

import pytest
from babel import Locale, localedata

from pnp.i18n import direction


def test_every_bare_language_reads_as_babels_locale_says():
    languages = [name for name in localedata.locale_identifiers() if "_" not in name]
    assert len(languages) > 300
    rtl = [name for name in languages if direction._own_character_order(name) == "right-to-left"]
    assert rtl == [name for name in languages if Locale.parse(name).character_order == "right-to-left"]
    assert {"ar", "he", "fa", "ur"} <= set(rtl) and not {"en", "it", "uk", "de"} & set(rtl)


@pytest.mark.parametrize(("lang", "rtl"), [("ar", True), ("en", False), ("uk", False), ("ar-EG", True),
                                           ("ks_Deva", False), ("ks", True), ("xx", False), ("", False)])
def test_is_rtl(lang, rtl):
    assert direction.is_rtl(lang) is rtl
