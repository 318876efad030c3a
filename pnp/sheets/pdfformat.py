"""ReportLab's formatting of PDF objects, the same bytes with less work: while a cards PDF is saved,
`reportlab.pdfbase.pdfdoc.format` (the function every object's format() calls for each of its
parts) answers the parts that are short strings and numbers from a table, and
`pdfdoc.PDFName` (which every dictionary calls for each of its keys) the names it made before.

    with quick_format():
        save_streamed(canvas)

A page's dictionary formats each key, name, number and object reference through pdfdoc.format,
which encodes each string with ReportLab's PDFDocEncoding codec (a Python charmap): the same few
hundred strings (/Contents, /FormXob.pnpface12, /Type...) thousands of times in a document of
hundreds of pages, a tenth of a one-card rebuild. `_quick` gives exactly what pdfdoc.format gives:
a str (exactly str) or an int or float (exactly those types) is encoded once and looked up after;
bytes are returned as they are (as pdfdoc.format returns them); anything else goes to
pdfdoc.format itself. tests/test_pdfparts.py compares the bytes with and without it.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc

_ORIGINAL = pdfdoc.format
_ORIGINAL_NAME = pdfdoc.PDFName
_REFERENCE = pdfdoc.PDFObjectReference
_LOCK = threading.Lock()
_SHORT = 64                  # strings longer than this are encoded each time (a stream's text...)
_MAX = 50_000                # entries kept: names and numbers of any number of documents
_strings: dict[str, bytes] = {}
_numbers: dict[tuple[type, float], bytes] = {}
_names: dict[str, str] = {}
_active = 0                  # saves inside quick_format, in any thread


def _quick(element: Any, document: Any, toplevel: int = 0) -> bytes:
    kind = type(element)
    if kind is str and len(element) <= _SHORT:
        found = _strings.get(element)
        if found is None:
            found = pdfdoc.pdfdocEnc(element)          # raises as pdfdoc.format does for what it cannot encode
            if len(_strings) < _MAX:
                _strings[element] = found
        return found
    if kind is bytes:
        return element
    if kind is int or kind is float:
        key = (kind, element)
        found = _numbers.get(key)
        if found is None:
            found = pdfdoc.pdfdocEnc(fp_str(element))
            if len(_numbers) < _MAX:
                _numbers[key] = found
        return found
    if kind is _REFERENCE:
        found = document.idToObjectNumberAndVersion.get(element.name)
        if found is not None and type(found[0]) is int and type(found[1]) is int:
            return b"%d %d R" % found
    return _ORIGINAL(element, document, toplevel)


def _name(data: Any, *args: Any) -> str:
    """pdfdoc.PDFName (a function of its text: a name with its unsafe characters escaped, walked
    one character at a time), each text worked out once."""
    if args or type(data) is not str:
        return _ORIGINAL_NAME(data, *args)
    found = _names.get(data)
    if found is None:
        found = _ORIGINAL_NAME(data)
        if len(_names) < _MAX:
            _names[data] = found
    return found


@contextmanager
def quick_format() -> Iterator[None]:
    """pdfdoc.format answered by `_quick` while the block runs (in every thread: it gives the same
    bytes, so another document saved meanwhile is written as it would be)."""
    global _active
    with _LOCK:
        _active += 1
        pdfdoc.format, pdfdoc.PDFName = _quick, _name
    try:
        yield
    finally:
        with _LOCK:
            _active -= 1
            if not _active:
                pdfdoc.format, pdfdoc.PDFName = _ORIGINAL, _ORIGINAL_NAME
