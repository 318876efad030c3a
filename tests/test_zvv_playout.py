"""Zombies vs Vampires' ``random_playout`` (the benchmarks' throughput definition, played
without undo records) plays exactly the moves of the core's loop (``legal_moves()`` every ply,
``Rng.randbelow``, ``push``) and ends in the very same state, under the default rules and the
variants, from the start and from positions some moves in."""
from __future__ import annotations

import pytest
from conftest import advance_twins, assert_playout_is_the_push_loop

from pnp.engines.core import GameState, Rng, derive_seed
from pnp.engines.zombies_vs_vampires import ZombiesVsVampires
from pnp.engines.zombies_vs_vampires.moves import MOVE

VARIANTS = (None, "home-zone", "finish-round", "lone-handicap", "board11", "exact",
            "twostar-choice", "twostar-reroll", "v15-choose", "v15-reroll")


class Recording(ZombiesVsVampires):
    """The engine with every move it applies recorded: a piece moved where it moves (the
    playout's common ply moves it without ``_apply``), every other move by ``_apply``."""

    def _setup(self) -> None:
        self.applied: list[int] = []
        super()._setup()

    def _apply(self, move: int) -> None:
        if move >> 24 != MOVE:
            self.applied.append(move)
        super()._apply(move)

    def _move_piece(self, p: int, a: int, b: int) -> None:
        self.applied.append(MOVE << 24 | a << 12 | b)
        super()._move_piece(p, a, b)


def pair(seed, players, variants, max_turns):
    return [Recording.new(players=players, seed=seed, variants=variants,
                          options={"max_turns": max_turns}) for _ in range(2)]


@pytest.mark.parametrize("variants", VARIANTS)
def test_random_playout_is_the_push_loop(variants):
    """Same moves, same position, RNG, ply, fired rules, counters and outcome; the undo
    history is empty afterwards."""
    for i in range(12):
        seed = derive_seed(1313, i)
        turns = 150 + 40 * (i % 4)
        fast, slow = pair(seed, 2 + i % 3, variants, turns // 6 if variants == "exact" else turns)
        if i % 3 == 0:                                  # from a position some moves in
            advance_twins((fast, slow), i)
        assert_playout_is_the_push_loop(fast, slow, seed)
        assert fast.applied == slow.applied, (variants, seed)
        assert fast.check_invariants() == []


@pytest.mark.parametrize("players", (2, 3, 4))
def test_whole_benchmark_games_are_the_push_loop(players):
    """Whole games as the benchmark plays them (to the engine's default 3000-turn cap)."""
    seed = derive_seed(12345, players)
    fast = Recording.new(players=players, seed=seed)
    slow = Recording.new(players=players, seed=seed)
    assert fast.random_playout(Rng(seed)) == GameState.random_playout(slow, Rng(seed))
    assert fast.applied == slow.applied
    assert fast.to_dict() == slow.to_dict()
    assert fast.stats() == slow.stats()
