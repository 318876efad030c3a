"""The preview's caches: rendered faces by content key, and PNG images by key.

A face is redrawn only when its key (keys.py) changes or a text its template looked up with
`t()` changed; otherwise the entry from before the reload is used as it is. Both caches are
bounded (least recently used entries go first) so a long editing session stays in memory bounds.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from pnp.render.faces import RenderedFace
from pnp.serve.keys import text_value
from pnp.serve.recording import Recording

FACE_LIMIT = 8192                 # entries
IMAGE_LIMIT_BYTES = 512 * 2**20


@dataclass(frozen=True)
class CachedFace:
    face: RenderedFace
    recording: Recording
    texts: tuple[tuple[str, str], ...]     # (key, value) of every text the template looked up


class FaceCache:
    def __init__(self, limit: int = FACE_LIMIT):
        self._entries: OrderedDict[str, CachedFace] = OrderedDict()
        self._limit = limit

    def get(self, key: str, texts: Any) -> CachedFace | None:
        """The entry for `key` if the texts it looked up still read the same in `texts`."""
        entry = self._entries.get(key)
        if entry is None or any(text_value(texts, name) != value for name, value in entry.texts):
            return None
        self._entries.move_to_end(key)
        return entry

    def put(self, key: str, face: RenderedFace, recording: Recording, texts: Any) -> CachedFace:
        looked_up = tuple((name, text_value(texts, name)) for name in dict.fromkeys(recording.text_keys))
        entry = self._entries[key] = CachedFace(face, recording, looked_up)
        self._entries.move_to_end(key)
        while len(self._entries) > self._limit:
            self._entries.popitem(last=False)
        return entry


class ImageStore:
    """PNG bytes by key (a face's SVG hash, a sheet page's digest)."""

    def __init__(self, limit_bytes: int = IMAGE_LIMIT_BYTES):
        self._images: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._limit = limit_bytes

    def __contains__(self, key: object) -> bool:
        return key in self._images

    def get(self, key: str) -> bytes | None:
        data = self._images.get(key)
        if data is not None:
            self._images.move_to_end(key)
        return data

    def put(self, key: str, data: bytes) -> None:
        if key in self._images:
            self._size -= len(self._images.pop(key))
        self._images[key] = data
        self._size += len(data)
        while self._size > self._limit and len(self._images) > 1:
            self._size -= len(self._images.popitem(last=False)[1])
