"""The digest of a template's source with every template it pulls in (extends, include, import).

Shared by the build's face cache (pnp.facecache, through pnp.render.faces) and the preview's
(pnp.serve.keys): a face must be drawn again when any template it is drawn from changes.
"""
from __future__ import annotations

import hashlib

import jinja2
from jinja2 import meta

from pnp.facecache import digest


class TemplateSources:
    """The digest of a template's source and of every template it pulls in, read once per reload
    (a dynamic `{% include name %}` cannot be followed, so it depends on every template)."""

    def __init__(self, env: jinja2.Environment, references: dict[str, tuple[str | None, ...]]):
        self.env = env
        self._sources: dict[str, str | None] = {}
        self._digests: dict[str, str] = {}
        self._references = references        # by source digest, kept across reloads: parsing is slow

    def _referenced(self, source: str) -> tuple[str | None, ...]:
        """The templates `source` extends, includes or imports (None: a dynamic name)."""
        key = hashlib.sha256(source.encode()).hexdigest()
        if key not in self._references:
            try:
                self._references[key] = tuple(meta.find_referenced_templates(self.env.parse(source)))
            except jinja2.TemplateSyntaxError:
                self._references[key] = ()       # the render reports it
        return self._references[key]

    def digest(self, name: str) -> str:
        if name not in self._digests:
            names = self._closure(name)
            self._digests[name] = digest([(n, self._source(n)) for n in sorted(names)])
        return self._digests[name]

    def _source(self, name: str) -> str | None:
        if name not in self._sources:
            try:
                self._sources[name] = self.env.loader.get_source(self.env, name)[0] if self.env.loader else None
            except jinja2.TemplateError:      # missing, or refused (outside the pack, too big):
                self._sources[name] = None     # the render reports it, with its file and line
        return self._sources[name]

    def _closure(self, name: str) -> set[str]:
        seen: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            source = self._source(current)
            if source is None:
                continue
            references = self._referenced(source)
            if None in references:
                return set(self.env.list_templates())
            todo.extend(ref for ref in references if ref is not None)
        return seen
