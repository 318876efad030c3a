"""Seat fairness of every game at every player count, as one table (issue 15).

``sweep(game, games, ...)`` plays ``games`` games per player count (and per variant "arm") with a
fair bot through :func:`pnp.engines.playtest.run_playtest` (no PDF) and returns one row per run:
how many games ended, the median length, and for each seat its share of the games with a single
winner, its Wilson 95% interval and the exact binomial test against the fair share 1/players,
Holm-corrected over every seat test of the game (``pnp.engines.conclusions``). A game the players
play together against the game (it declares ``game_win_rules``, e.g. Cimiterio's broken gate) has
no seats to be fair between: its row gives the players' win rate instead.

The fair bot: a bot that sees only what its seat may see. The default is the game's own first
bot other than ``random`` (``observation_bots`` for a game with hidden information, else
``bots``), else the generic ``greedy``; ``bot=`` overrides it. Nothing here knows a game.

``benchmarks/fairness.py`` is the one command that writes the tables of docs/rules/<game>.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pnp.engines.conclusions import PLAYERS_VS_GAME, pct
from pnp.engines.core import get_game
from pnp.engines.playtest import run_playtest
from pnp.engines.simulate import DEFAULT_MAX_TURNS, hidden_information


def fair_bot(game: str) -> str:
    """The bot a sweep plays ``game`` with when none is named (see the module text)."""
    cls = get_game(game)
    own = getattr(cls, "observation_bots", None) or getattr(cls, "bots", None) or {}
    for name in own:
        if name != "random":
            return name
    return "random" if hidden_information(cls) else "greedy"   # greedy would see hidden information


@dataclass
class SeatRow:
    """One run of a sweep: a variant at a player count."""

    game: str
    variant: str
    players: int
    games: int
    finished: int
    did_not_end: int
    turns_median: float | None
    kind: str                                   # conclusions.COMPETITIVE / PLAYERS_VS_GAME
    seats: list[dict] = field(default_factory=list)     # conclusions' seats, Holm p included
    players_win: dict | None = None                     # cooperative: the players' win rate

    @property
    def unfair(self) -> list[int]:
        return [s["seat"] for s in self.seats if s.get("unfair")]


def sweep(game: str, games: int = 200, players=None, arms=None, bot: str | None = None,
          seed: int | str = 0, workers: int = 1,
          max_turns: int = DEFAULT_MAX_TURNS) -> list[SeatRow]:
    """The seat fairness of ``game`` at each player count (default: every count it allows) for
    each variant arm (default: the rules as shipped)."""
    res = run_playtest(game, games=games, players=players, arms=arms, bot=bot or fair_bot(game),
                       seed=seed, workers=workers, max_turns=max_turns)
    c = res.conclusions
    rows = []
    for r in c["runs"]:
        rows.append(SeatRow(game=game, variant=r["variant"], players=r["players"],
                            games=r["games"], finished=r["finished"],
                            did_not_end=r["did_not_end"],
                            turns_median=r["length"]["turns_median"], kind=c["kind"],
                            seats=r["seats"], players_win=r.get("players_win")))
    return rows


def _ci(ci: list[float]) -> str:
    return f"{100 * ci[0]:.0f}-{100 * ci[1]:.0f}%"


def _p(p: float | None) -> str:
    return "-" if p is None else f"{p:.2g}"


def markdown(rows: list[SeatRow], bot: str, seed: int | str) -> str:
    """The rows as a Markdown table (one line per run) with a line saying how it was made."""
    if not rows:
        return ""
    coop = rows[0].kind == PLAYERS_VS_GAME
    head = ["variant", "players", "games", "ended", "median turns"]
    if coop:
        head += ["players win (95% CI)", "seat fairness"]
    else:
        head += ["seat wins: share (95% CI), Holm p", "verdict"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r.variant, str(r.players), str(r.games), f"{r.finished}/{r.games}",
                 "-" if r.turns_median is None else f"{r.turns_median:g}"]
        if coop:
            w = r.players_win or {}
            cells.append(f"{pct(w.get('rate'))} ({_ci(w['ci95'])})" if w.get("games") else "-")
            cells.append("cooperative: all players win or lose together")
        else:
            seats = "; ".join(f"{s['seat']}: {s['wins']}/{s['games']} = {pct(s['share'])} "
                              f"({_ci(s['ci95'])}), p {_p(s['p_holm'])}" for s in r.seats)
            cells.append(seats or "no single-winner game")
            tested = any(s["p_holm"] is not None for s in r.seats)
            verdict = ("not tested" if not tested else
                       f"UNFAIR: seat {', '.join(map(str, r.unfair))}" if r.unfair else "fair")
            cells.append(verdict)
        out.append("| " + " | ".join(cells) + " |")
    fair = "" if coop else (" Fair share 1/players; exact two-sided binomial test of each seat's "
                            "wins among the single-winner games, Holm-corrected over the table; "
                            "unfair when the adjusted p < 0.05.")
    out.append("")
    out.append(f"Bot `{bot}` in every seat, seed {seed!r}; games that did not end are not "
               f"counted in the shares.{fair}")
    return "\n".join(out)
