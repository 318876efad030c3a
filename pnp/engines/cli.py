"""`pnp replay` and `pnp simulate`: the rules engines from the command line."""
from __future__ import annotations

import click

from pnp.errors import PnpError


class EngineInputError(PnpError):
    """A record, game, bot or variant the engines cannot use (exit status 2)."""


@click.command()
@click.argument("game")
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--keep-going", is_flag=True, help="Report every illegal move, not only the first.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable result.")
def replay(game, record, keep_going, as_json):
    """Check a recorded GAME move by move and print the final position and outcome.

    Exit status: 0 all moves legal, 1 illegal moves found, 2 unusable record."""
    from pnp.engines.core import RecordError
    from pnp.engines.replay import replay_file

    try:
        result = replay_file(game, record, keep_going=keep_going)
    except (RecordError, KeyError, ValueError) as error:
        raise EngineInputError(f"{record}: {error}") from None
    click.echo(result.to_json() if as_json else result.to_text())
    click.get_current_context().exit(0 if result.ok else 1)


@click.command()
@click.argument("game")
@click.option("--games", "count", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--players", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Master seed; the same seed gives the same report.")
@click.option("--bot", default="random", show_default=True, help="random | greedy | planner")
@click.option("--variant", "variants", multiple=True, help="A named variant or key=value option (repeatable).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--max-turns", type=click.IntRange(min=1), default=None, help="Flag games longer than this.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
def simulate(game, count, players, seed, bot, variants, workers, max_turns, as_json):
    """Play many GAME games with bots and report balance, length and rule coverage."""
    from pnp.engines.simulate import simulate as run

    seed_value = int(seed) if seed.lstrip("-").isdigit() else seed
    extra = {} if max_turns is None else {"max_turns": max_turns}
    with click.progressbar(length=count, label=f"{game}: {count} games", file=click.get_text_stream("stderr"),
                           show_eta=True) as bar:
        done_before = [0]

        def progress(done, total):
            bar.update(done - done_before[0])
            done_before[0] = done

        try:
            report = run(game, games=count, players=players, seed=seed_value, bot=bot, variants=list(variants),
                         workers=workers, progress=progress, **extra)
        except (KeyError, ValueError) as error:
            raise EngineInputError(f"{game}: {error}") from None
    click.echo(report.to_json() if as_json else report.to_text())
