"""A designer's own bot: ``--bot module:function`` (docs/bots.md).

``function(state_or_observation, rng) -> move`` has the built-in bots' contract: in a game
without hidden information it gets a copy of the position (a ``GameState``; it may push and
pop freely) and answers a move or a move text; in a game with hidden information it gets
``observation(seat)`` and answers one of the move texts in ``observation["legal"]``. ``rng``
is the simulator's seeded :class:`~pnp.engines.core.Rng` (``random()``, ``randbelow(n)``,
``choice(seq)``), so the same seed plays the same games.

Whatever goes wrong with the designer's code is a :class:`BotError` naming the spec: the module
does not import, has no such function, the function raises, or answers a move that is not
legal. It is a ValueError, so ``pnp simulate`` / ``pnp playtest`` report it with exit status 2
and no traceback.
"""
from __future__ import annotations

import importlib
import re
import traceback
from typing import Any, Callable

from pnp.engines.core import GameState, Move, Rng

SPEC = re.compile(r"(?P<module>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):(?P<function>[A-Za-z_]\w*)")
LEGAL_SHOWN = 8                 # legal moves quoted in the message about an illegal answer


class BotError(ValueError):
    """A designer's bot that cannot play: ``spec`` is the ``module:function`` given."""

    def __init__(self, spec: str, message: str):
        self.spec = spec
        self.detail = message
        super().__init__(f"bot {spec!r}: {message}")

    def __reduce__(self):
        """Picklable as it was made, so it crosses from a worker process intact."""
        return type(self), (self.spec, self.detail)


def is_designer_bot(name: str) -> bool:
    """Does the bot name look like ``module:function``?"""
    return ":" in name


def load_policy(spec: str) -> Callable[[Any, Rng], Any]:
    """The function ``spec`` names, imported; every failure a BotError."""
    found = SPEC.fullmatch(spec)
    if found is None:
        raise BotError(spec, "expected module:function (e.g. mybots.policy:choose), a module "
                             "Python can import (on PYTHONPATH) and a function in it")
    module_name, function_name = found["module"], found["function"]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if not _names_the_module(error, module_name):     # the module's own import failed
            raise BotError(spec, f"importing module {module_name!r} raised "
                                 f"{_described(error)}") from None
        raise BotError(spec, f"cannot import module {module_name!r}: {error} (is its folder "
                             f"on PYTHONPATH?)") from None
    except SyntaxError as error:
        raise BotError(spec, f"module {module_name!r} does not compile: {error.msg} "
                             f"({error.filename}, line {error.lineno})") from None
    except Exception as error:      # the designer's module failed while importing
        raise BotError(spec, f"importing module {module_name!r} raised "
                             f"{_described(error)}") from None
    policy = getattr(module, function_name, None)
    if policy is None:
        offered = sorted(n for n, v in vars(module).items()
                         if callable(v) and not n.startswith("_"))
        raise BotError(spec, f"module {module_name!r} has no function {function_name!r}"
                             f" (its functions: {', '.join(offered) or 'none'})")
    if not callable(policy):
        raise BotError(spec, f"{module_name}.{function_name} is not a function (it is of "
                             f"type {type(policy).__name__})")
    return policy


def designer_bot(cls: type[GameState], spec: str) -> Callable[[GameState, Rng], Move]:
    """A ``fn(state, rng) -> move`` for ``cls`` that asks the designer's function and checks
    its answer; sees ``observation(seat)`` only when ``cls`` hides information."""
    policy = load_policy(spec)
    hidden = callable(getattr(cls, "observation", None))

    def play(st: GameState, rng: Rng) -> Move:
        seat = st.to_move
        view = st.observation(seat) if hidden else st.copy()    # type: ignore[attr-defined]
        try:
            answer = policy(view, rng)
        except Exception as error:  # the designer's code: reported, not a crash of pnp
            raise BotError(spec, f"raised {_described(error)} (seat {seat}, ply {st.ply})") from None
        return checked_move(st, spec, answer)

    play.__name__ = f"designer_bot_{spec}"
    return play


def checked_move(st: GameState, spec: str, answer: Any) -> Move:
    """``answer`` (a move or a move text) as a legal move of ``st``, else a BotError naming it,
    the seat and some of the legal moves."""
    move: Move = None
    try:
        move = st.parse_move(answer) if isinstance(answer, str) else answer
        legal = st.is_legal(move)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        legal = False
    if legal:
        return move
    texts = [st.move_text(m) for m in st.legal_moves()]
    shown = ", ".join(texts[:LEGAL_SHOWN]) + (f" ... ({len(texts)} in all)"
                                             if len(texts) > LEGAL_SHOWN else "")
    raise BotError(spec, f"answered {answer!r}, not a legal move for seat {st.to_move} at ply "
                         f"{st.ply} (legal: {shown})")


def _names_the_module(error: ModuleNotFoundError, module_name: str) -> bool:
    """Is the missing module ``module_name`` itself (or a package above it), not something
    the designer's module imports?"""
    missing = error.name or ""
    return module_name == missing or module_name.startswith(missing + ".")


def _described(error: BaseException) -> str:
    """``ZeroDivisionError: division by zero at policy.py line 7``: the exception and the
    innermost line of the designer's code it came from."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename} line {frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}: {error}{where}"
