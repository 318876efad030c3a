"""`pnp serve`: a live preview of a pack in the browser while its files are edited.

    preview.py   the model: load the pack, render faces through the build's pipeline, findings
    cache.py     content-addressed face cache (keys.py says what a face's key is made of)
    recording.py what a face's template asked for while it rendered: text boxes and text keys
    sheets.py    imposed sheets and components pages as PNGs
    page.py      the HTML (a Jinja environment with autoescape)
    server.py    the HTTP server (standard library), its routes and server-sent events
    watch.py     watchfiles: reload on every save
    cli.py       the click command

This package's __init__ imports nothing, so `pnp.cli` stays light (see docs/serve.md).
"""
