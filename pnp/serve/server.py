"""The preview's HTTP server: the standard library's ThreadingHTTPServer.

Why the standard library: the preview has a handful of routes, no forms and one long-lived stream
(server-sent events, which are plain chunks of text on an open response); http.server does all of
that with no dependency, and the server only ever listens on 127.0.0.1.

Safe by default: only the routes below exist (nothing maps a URL to a file; images are looked up by
their content key in memory), requests whose Host is not this server are refused (a web page
elsewhere cannot read the preview through DNS rebinding), and every page is autoescaped (page.py).
"""
from __future__ import annotations

import json
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pnp.print_constants import PAPERS
from pnp.serve import page
from pnp.serve.preview import Preview

HOST = "127.0.0.1"
KEEPALIVE_SECONDS = 15
_IMAGE = re.compile(r"/img/([0-9a-f]{20,64})\.png")


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True            # an open event stream must not keep the process alive

    def __init__(self, preview: Preview, port: int):
        self.preview = preview
        self.stopping = threading.Event()
        super().__init__((HOST, port), Handler)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if not self._host_is_ours():
            self._send(HTTPStatus.FORBIDDEN, b"wrong Host", "text/plain")
            return
        url = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(url.query).items()}
        route = _ROUTES.get(url.path)
        if route is not None:
            route(self, query)
        elif (image := _IMAGE.fullmatch(url.path)) is not None:
            self._image(image.group(1))
        else:
            self._not_found()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
        pass                         # quiet: the terminal shows the address and errors only

    # ------------------------------------------------------------------ routes
    def _page(self, query: dict) -> None:
        self._send(HTTPStatus.OK, page.page(self.server.preview).encode(), "text/html; charset=utf-8")

    def _view(self, query: dict) -> None:
        tab = query["tab"] if query.get("tab") in page.TABS else "cards"
        html = page.fragment(self.server.preview, tab, query.get("lang"), _paper(query))
        self._send(HTTPStatus.OK, html.encode(), "text/html; charset=utf-8")

    def _card(self, query: dict) -> None:
        preview = self.server.preview
        with preview.lock:
            view = preview.view(query.get("lang"))
            html = page.card_detail(view, query.get("id", "")) if view else None
        if html is None:
            self._not_found()
        else:
            self._send(HTTPStatus.OK, html.encode(), "text/html; charset=utf-8")

    def _state(self, query: dict) -> None:
        self._send(HTTPStatus.OK, json.dumps(state(self.server.preview, query.get("lang"))).encode(),
                   "application/json")

    def _events(self, query: dict) -> None:
        """Server-sent events: `data: <version>` after every reload, a comment now and then so a
        closed tab is noticed."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        preview, seen = self.server.preview, self.server.preview.version
        try:
            while not self.server.stopping.is_set():
                version = preview.wait_for_change(seen, KEEPALIVE_SECONDS)
                self.wfile.write(f"data: {version}\n\n".encode() if version != seen else b": still here\n\n")
                self.wfile.flush()
                seen = version
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _image(self, key: str) -> None:
        data = self.server.preview.images.get(key)
        if data is None:
            self._not_found()
        else:   # content-addressed: an image key never changes meaning
            self._send(HTTPStatus.OK, data, "image/png", cache="max-age=31536000, immutable")

    # ------------------------------------------------------------------ helpers
    def _host_is_ours(self) -> bool:
        port = self.server.server_address[1]
        return self.headers.get("Host", "") in (f"{HOST}:{port}", f"localhost:{port}")

    def _not_found(self) -> None:
        self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")

    def _send(self, status: HTTPStatus, body: bytes, content_type: str, cache: str = "no-store") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)


_ROUTES = {"/": Handler._page, "/view": Handler._view, "/card": Handler._card, "/api/state": Handler._state,
           "/events": Handler._events}


def _paper(query: dict) -> str:
    paper = query.get("paper", "a4")
    return paper if paper in PAPERS else "a4"


def state(preview: Preview, lang: str | None) -> dict[str, Any]:
    """What the preview shows, as data (for tests and scripts): the version, redraw counters,
    errors and every card with its texts, images and findings."""
    with preview.lock:
        view = preview.view(lang)
        cards = [] if view is None else [
            {"id": c.card.base_id, "deck": deck.id, "quantity": c.card.quantity, "file": str(c.card.file),
             "line": c.card.line, "texts": c.texts, "faces": [f.image for f in c.faces],
             "findings": [f.to_dict() for f in c.findings]}
            for deck, views in view.decks for c in views]
        return {"version": preview.version, "ok": view is not None, "lang": view.lang if view else None,
                "redraws": preview.redraws, "rasterized": preview.rasterized, "last_redrawn": preview.last_redrawn,
                "errors": [f.to_dict() for f in preview.findings if view is None],
                "findings": [f.to_dict() for f in view.findings] if view else [], "cards": cards}


def run(root, port: int, announce) -> None:
    """Serve the preview of the pack at `root` until Ctrl+C; `announce(url)` once it listens."""
    from pnp.serve.watch import start_watching

    preview = Preview(root)
    server = PreviewServer(preview, port)
    watcher = start_watching(preview, server.stopping)
    announce(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stopping.set()
        server.server_close()
        watcher.join(timeout=5)
        preview.close()
