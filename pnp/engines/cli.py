"""`pnp replay` and `pnp simulate`: the rules engines from the command line."""
from __future__ import annotations

import sys

import click

from pnp.errors import PnpError


class EngineInputError(PnpError):
    """A record, game, bot or variant the engines cannot use (exit status 2)."""


BUDGET_HELP = ("Iterations per move of the search bot (--bot mcts / ismcts): it plays as "
               "'mcts@BUDGET'; default 200.")
BOT_HELP = ("random | greedy | planner | mcts (tree search) | ismcts | a bot of the game's own "
            "| module:function, your own bot (`pnp docs bots`); a game with hidden information "
            "takes only the bots that see what a seat may see. An unknown name is refused with "
            "the game's list.")


def about(game: str, error: Exception) -> str:
    """The error's message led by the game's name, once (the engines' own messages name it)."""
    text = str(error)
    return text if text.startswith(f"{game}:") else f"{game}: {text}"


def check_run_size(game: str, count: int, workers: int, runs: int = 1) -> None:
    """``--games`` (in each of ``runs`` runs) and ``--workers`` within pnp.limits, checked
    before the progress line: one message line per bound crossed, exit status 2."""
    from pnp.engines.simulate import check_games, check_workers
    problems = []
    for check, args in ((check_games, (count, runs)), (check_workers, (workers,))):
        try:
            check(*args)
        except ValueError as error:
            problems.append(about(game, error))
    if problems:
        raise EngineInputError("\n".join(problems))


def bot_with_budget(game: str, bot: str, budget: int | None) -> str:
    """The bot name the simulator takes: ``--bot mcts --budget 50`` is ``mcts@50``."""
    from pnp.engines.search import with_budget
    try:
        return with_budget(bot, budget)
    except ValueError as error:
        raise EngineInputError(about(game, error)) from None


@click.command()
@click.argument("game")
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--keep-going", is_flag=True, help="Report every illegal move, not only the first.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable result.")
@click.option("--check", is_flag=True,
              help="Verify the record's `expect:` block; print each mismatch at its line.")
def replay(game, record, keep_going, as_json, check):
    """Check a recorded GAME move by move and print the final position and outcome. Moves are
    numbered from 1 (the record's first move is move 1).

    Exit status: 0 all moves legal (--check: every expectation holds, expected illegal moves
    included), 1 illegal moves found (--check: an expectation fails), 2 unusable record."""
    from pnp.engines.core import RecordError
    from pnp.engines.replay import replay_file

    try:
        result = replay_file(game, record, keep_going=keep_going, check=check)
    except (RecordError, KeyError, ValueError) as error:
        raise EngineInputError(f"{record}: {error}") from None
    click.echo(result.to_json() if as_json else result.to_text())
    click.get_current_context().exit(0 if result.passed else 1)


@click.command()
@click.argument("game")
@click.option("--games", "count", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="Number of players; default: the game's own default (its least player count "
                   "unless the game declares one), so every game plays without it.")
@click.option("--seed", default="0", show_default=True, help="Master seed; the same seed gives the same report.")
@click.option("--bot", default="random", show_default=True, help=BOT_HELP)
@click.option("--budget", type=click.IntRange(min=1), default=None, help=BUDGET_HELP)
@click.option("--variant", "variants", multiple=True, help="A named variant or key=value option (repeatable).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--max-turns", type=click.IntRange(min=1), default=None, help="Flag games longer than this.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Play on the Dask cluster of this scheduler (tcp://host:8786) instead of "
                   "--workers; same report. Needs pip install 'pnp[cluster]' (`pnp docs cluster`).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
def simulate(game, count, players, seed, bot, budget, variants, workers, max_turns, scheduler,
             as_json):
    """Play many GAME games with bots and report balance, length and rule coverage."""
    from pnp.engines.cluster import executor_for
    from pnp.engines.core import game_argument, get_game
    from pnp.engines.simulate import get_game_bot
    from pnp.engines.simulate import simulate as run

    bot = bot_with_budget(game, bot, budget)
    seed_value = int(seed) if seed.lstrip("-").isdigit() else seed
    extra = {} if max_turns is None else {"max_turns": max_turns}
    check_run_size(game, count, workers)
    try:
        # a game without an engine, or a bot it does not take, says so before the progress line;
        # a pack folder plays its engine on its own data
        game, base = game_argument(game)
        get_game_bot(get_game(game), bot)
    except (KeyError, ValueError) as error:
        raise EngineInputError(about(game, error)) from None
    with executor_for(scheduler, workers) as (executor, workers), \
            click.progressbar(length=count, label=f"{game}: {count} games", file=sys.stderr,
                              show_eta=True) as bar:
        done_before = [0]

        def progress(done, total):
            bar.update(done - done_before[0])
            done_before[0] = done

        try:
            report = run(game, games=count, players=players, seed=seed_value, bot=bot, variants=[*base, *variants],
                         workers=workers, executor=executor, progress=progress, **extra)
        except (KeyError, ValueError) as error:
            raise EngineInputError(about(game, error)) from None
    click.echo(report.to_json() if as_json else report.to_text())


@click.command()
@click.argument("game")
@click.option("--games", "count", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games per player count and variant.")
@click.option("--players", "players", type=click.IntRange(min=1), multiple=True,
              help="A player count (repeatable); default: every count the game allows.")
@click.option("--variant", "variants", multiple=True,
              help="A variant arm: named variants / key=value joined by commas ('default' = "
                   "none). Give two (or more) for an A/B comparison against the first.")
@click.option("--bot", default="random", show_default=True, help=BOT_HELP)
@click.option("--budget", type=click.IntRange(min=1), default=None, help=BUDGET_HELP)
@click.option("--seed", default="0", show_default=True, help="Master seed (same seed, same report).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--max-turns", type=click.IntRange(min=1), default=None,
              help="Turn cap: longer games are reported as 'did not end'.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Output folder (default output/playtest/GAME).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Play on the Dask cluster of this scheduler (tcp://host:8786) instead of "
                   "--workers; same report. Needs pip install 'pnp[cluster]' (`pnp docs cluster`).")
@click.option("--json", "as_json", is_flag=True, help="Also print the figures as JSON.")
def playtest(game, count, players, variants, bot, budget, seed, workers, max_turns, out_dir,
             scheduler, as_json):
    """Simulate GAME and write a designer's report: PDF + PNGs (length, win share per seat,
    game figures, rule coverage, A/B comparison of two variants)."""
    import json
    from pathlib import Path

    from pnp.engines.cluster import executor_for
    from pnp.engines.core import RecordError, game_argument, get_game
    from pnp.engines.playtest import parse_arm, require_matplotlib, result_json, run_playtest
    from pnp.engines.simulate import DEFAULT_MAX_TURNS, get_game_bot

    require_matplotlib()      # one line and exit 2 before any game is played
    bot = bot_with_budget(game, bot, budget)
    seed_value = int(seed) if seed.lstrip("-").isdigit() else seed
    try:
        game, base = game_argument(game)        # a pack folder: its engine, on its own data
        cls = get_game(game)
        counts = list(players) or list(range(cls.min_players, cls.max_players + 1))
        bad = [n for n in counts if not cls.min_players <= n <= cls.max_players]
        if bad:
            raise RecordError(f"{game} is for {cls.min_players}-{cls.max_players} players, not "
                              f"{', '.join(map(str, bad))}")
        arms = [[*base, *parse_arm(v)] for v in variants] or [base]
        get_game_bot(cls, bot)      # an unknown bot is one message, before the progress line
        check_run_size(game, count, workers, runs=len(counts) * len(arms))
        out = Path(out_dir) if out_dir else Path("output") / "playtest" / game
        total = count * len(counts) * len(arms)
        with executor_for(scheduler, workers) as (executor, workers), \
                click.progressbar(length=total, label=f"{game}: {total} games",
                                  file=sys.stderr) as bar:
            last = [0]

            def progress(done, n):
                if done < last[0]:
                    last[0] = 0
                bar.update(done - last[0])
                last[0] = done

            res = run_playtest(game, games=count, players=counts, arms=arms, bot=bot,
                               seed=seed_value, workers=workers, out=out,
                               max_turns=max_turns or DEFAULT_MAX_TURNS, progress=progress,
                               **({} if executor is None else {"executor": executor}))
    except (RecordError, KeyError, ValueError) as error:
        raise EngineInputError(about(game, error)) from None
    for line in res.summary_lines():
        click.echo(line)
    click.echo(f"report: {res.pdf} ({len(res.pages)} pages: {', '.join(res.pages)}); "
               f"PNGs in {res.pdf.parent}")
    if as_json:
        click.echo(json.dumps(result_json(res), indent=2, default=str))
