"""The `pnp serve` command (registered in pnp/cli.py)."""
from __future__ import annotations

import click


@click.command()
@click.argument("game")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0: any free port; the address is printed).")
def serve(game: str, port: int) -> None:
    """Preview GAME (a pack name or folder) in the browser, live: every card face by deck, the
    imposed sheets and the components, with `pnp check`'s findings beside the cards. Edits to the
    pack's files show up on the page when they are saved. Listens on 127.0.0.1 only."""
    from pnp.errors import PnpError
    from pnp.pack import find_pack
    from pnp.serve.server import run

    root = find_pack(game)                  # an unknown game: a message, exit 2
    try:
        run(root, port, lambda url: click.echo(f"pnp serve: {url} (Ctrl+C stops)"))
    except OSError as error:
        raise PnpError(f"cannot listen on 127.0.0.1:{port}: {error.strerror or error} "
                       "(another program may use it: pick another with --port)") from None
