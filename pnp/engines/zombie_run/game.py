"""Zombie! Run for Your Lives! -- the registered game (rule points Z1..Z14).

Interpretations and variants: docs/rules/zombie-run.md. The class is assembled from the
package's modules: :mod:`.rules` (what may go where, what happens when a card lands),
:mod:`.turns` (deal, draws, turn flow, ``_apply``), :mod:`.legality` (legal moves, the
one-move check, the random sampler), :mod:`.playout` (complete random games), :mod:`.notation`
and :mod:`.records` (the position as data), :mod:`.validation` (a record's position checked); here: options, what simulations report and what a
seat may see.
"""
from __future__ import annotations

from typing import ClassVar

from pnp.engines.core import register
from pnp.engines.zombie_run.bots import determinize, greedy_bot, random_bot
from pnp.engines.zombie_run.deck import GAME
from pnp.engines.zombie_run.notation import Notation
from pnp.engines.zombie_run.playout import Playout
from pnp.engines.zombie_run.turns import ZT
from pnp.engines.zombie_run.validation import PositionChecks


@register(GAME)
class ZombieRun(Playout, Notation, PositionChecks):
    """Zombie! Run for Your Lives! (3-7 players)."""

    agent_encoding = "pnp.adapters.encodings:ZombieRunEncoding"   # pnp.adapters (docs/agents.md)
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7
    default_options: ClassVar[dict] = {
        "hand": 4,                 # Z1
        "redraw": 5,               # Z6
        "win_items": 5,            # Z7
        "lose_zombies": 5,         # Z8
        "roach_distinct": False,   # Z5/Z8: symbol-less zombies count as different cards
        "first": 0,                # Z2: seat of the first player
        "first_draw": True,        # seat fairness: False, the first player's first turn draws none (Z3)
        "last_extra": 0,           # seat fairness: more cards dealt to the last seat in turn order (Z1)
        "max_turns": 2000,         # never-ending guard: turn cap
        "repetition": 3,           # never-ending guard: same position this many times
    }
    option_minimums: ClassVar[dict[str, int]] = {
        "hand": 1, "redraw": 1, "win_items": 1, "lose_zombies": 1, "first": 0, "last_extra": 0,
        "max_turns": 1, "repetition": 2}
    variants: ClassVar[dict[str, dict]] = {
        "roach-distinct": {"roach_distinct": True},
        "quick": {"max_turns": 300},
        "even-seats": {"first_draw": False, "last_extra": 1},   # evens 3 players (docs: seat fairness)
    }
    rule_points: ClassVar[tuple] = ("Z1", "Z2", "Z3", "Z4", "Z6", "Z7", "Z8", "Z9", "Z10",
                                    "Z11", "Z13", "Z14")   # Z5, Z12: constraints (scenarios)
    stat_labels: ClassVar[dict[str, str]] = {
        "zombies_onto_seat": "zombie cards played onto each seat by others (Z3/Z9)",
        "eliminated_seat": "seat turned zombie (Z8)",
        "eliminations": "players turned zombie (Z8)",
        "reshuffles": "deck reshuffles (Z13)",
        "special_uses": "special-rule uses (Z11)",
        "hand_discards": "hands shown and replaced (Z6)",
        "cancellations": "item/zombie pairs cancelled (Z4)",
    }
    # hands are hidden (Z1): simulations play only bots that see observation(seat)
    observation_bots: ClassVar[dict] = {"random": random_bot, "greedy": greedy_bot}

    def heuristic(self, seat: int) -> float:
        """Public evaluation (tables only, never hands) for the generic greedy bot."""
        out = self._outcome
        if out is not None:
            return 1000.0 if seat in out.winners else -1000.0
        if not self.alive[seat]:
            return -500.0

        def val(q):
            return 3.0 * self.PC[self.tables[q] & self.IM] - 2.0 * self._zcount(q)

        others = [val(q) for q in range(self.players) if q != seat and self.alive[q]]
        return val(seat) - (max(others) if others else 0.0)

    # ---------------------------------------------------------------- simulation figures
    def stats(self) -> dict:
        rf = self.rules_fired
        c = self.counters
        n = self.players
        return {
            "zombies_onto_seat": [c.get(ZT[q], 0) for q in range(n)],
            "eliminated_seat": [0 if a else 1 for a in self.alive],
            "eliminations": n - self.living,
            "reshuffles": rf.get("Z13", 0),
            "special_uses": rf.get("Z11", 0),
            "hand_discards": rf.get("Z6", 0),
            "cancellations": rf.get("Z4", 0),
        }

    # ---------------------------------------------------------------- hidden information
    def observation(self, seat: int) -> dict:
        """What ``seat`` may see: its own hand, every table, hand sizes, deck size, the discard
        pile (face up) and whose turn it is. Bots get only this."""
        d = self.data
        return {
            "game": GAME,
            "seat": seat,
            "to_move": self.turn,
            "phase": ("living", "zombie", "over")[self.phase],
            "hand": sorted(d.names[t] for t in self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "alive": list(self.alive),
            "tables": [self._table_names(q) for q in range(self.players)],
            "deck": len(self.deck),
            "discard": sorted(d.names[t] for t in self.discard),
            "special_used": self.special_used,
            "legal": ([self.move_text(m) for m in self.legal_moves()]
                      if seat == self.turn else []),
        }

    def determinize(self, seat: int, rng) -> "ZombieRun":
        """A position ``seat`` cannot tell from this one (its hidden cards dealt again from
        ``rng``), for the ismcts search bot; see :func:`.bots.determinize`."""
        return determinize(self, seat, rng)

    def search_playout(self, rng, cap: int) -> None:
        """The search bots' random playout: ``random_playout``, the benchmark's definition and
        compiled when built (pnp.engines.native), to the end (random games are short, about 36
        plies, and always end), so ``cap`` is not needed."""
        self.random_playout(rng)
