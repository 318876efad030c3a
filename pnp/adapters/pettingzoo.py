"""PettingZoo AEC environments over the rules engines (docs/agents.md).

``env(game, players=None, seed=None, variants=())`` gives the wrapped environment (order
enforcing, action bounds checked), ``raw_env`` the bare one. Agents are ``player_0`` ..
``player_{n-1}`` (engine seats 0..n-1); ``agent_selection`` is always the seat the engine says is
to move, which may act several times in a row (Cimiterio's five actions, Zombie Run's special
rule). Actions are ``Discrete(N)`` over the game's fixed move enumeration
(:mod:`pnp.adapters.encodings`); each observation is ``{"observation": Box, "action_mask":
int8 Box of length N}``, the mask all zeros for an agent not to move. Rewards come only at the
end, from the engine's Outcome: +1 for each winner, -1 for everyone else (so when nobody wins,
e.g. Cimiterio's zombies break the gate, the whole table loses together); a game stopped by one
of the engine's never-ending guards (``unfinished_rules``) is a truncation with 0 for all.
"""
from __future__ import annotations

import random
from typing import Any

from pnp.adapters import EXTRA_HINT

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:
    raise ImportError(f"pnp.adapters.pettingzoo needs PettingZoo and Gymnasium: {EXTRA_HINT}") from error

from pnp.adapters.encodings import Encoding, encoding_for
from pnp.engines.core import GameState, Outcome, get_game

__all__ = ["env", "raw_env", "seat_rewards"]

SEED_BITS = 63   # the engine seeds drawn for unseeded resets


def seat_rewards(cls: type[GameState], outcome: Outcome, players: int) -> list[float]:
    """Each seat's final reward: +1 winners, -1 the rest; 0 for all when the game was stopped by
    a never-ending guard rather than finished."""
    if outcome.rule in cls.unfinished_rules:
        return [0.0] * players
    return [1.0 if seat in outcome.winners else -1.0 for seat in range(players)]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class raw_env(AECEnv):   # lower case: PettingZoo's name for the unwrapped environment
    """One game of ``game`` per episode; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "pnp_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, seed: int | None = None,
                 variants: Any = (), options: dict | None = None, render_mode: str | None = None):
        super().__init__()
        self.game_class = cls = get_game(game)
        self.n_players = cls.players_by_default() if players is None else players
        self.variants = variants
        self.game_options = options
        # a first position checks players and variants now, and fixes the encoding's sizes
        probe = cls.new(players=self.n_players, seed=0, variants=variants, options=options)
        self.encoding: Encoding = encoding_for(probe)
        self.metadata = {**self.metadata, "name": f"pnp_{cls.name.replace('-', '_')}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' (the engine's describe())")
        self.render_mode = render_mode
        self.possible_agents = [agent_name(i) for i in range(self.n_players)]
        n = self.encoding.n_actions
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=0, high=self.encoding.high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        }) for a in self.possible_agents}
        self._first_seed = seed
        self._seeds = random.Random(seed)
        self.game_state: GameState = probe
        self.agents: list[str] = []

    # -- spaces (the same objects every call, so seeding them sticks)
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. ``seed`` is the engine's seed (the same deal as the pnp tools give for that
        seed); without one, the constructor's seed on the first reset, then seeds drawn from a
        sequence that the last given seed fixes. ``options`` is accepted and unused (the game's
        options are the constructor's)."""
        if seed is None and self._first_seed is not None:
            seed = self._first_seed
        self._first_seed = None
        if seed is None:
            seed = self._seeds.getrandbits(SEED_BITS)
        else:
            seed = int(seed)   # a NumPy integer too
            self._seeds = random.Random(seed)
        self.game_state = self.game_class.new(players=self.n_players, seed=seed,
                                              variants=self.variants, options=self.game_options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.game_state.to_move)
        self._finish_if_over()   # a position could in principle be over before any move

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        state = self.game_state
        if agent == self.agent_selection and state.outcome() is None:
            mask = self.legal_mask()
        else:
            mask = np.zeros(self.encoding.n_actions, dtype=np.int8)
        return {"observation": self.encoding.observe(state, seat), "action_mask": mask}

    def legal_mask(self) -> np.ndarray:
        """The seat to move's action mask."""
        return self.encoding.mask(self.game_state)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.move_of(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game_state.push(move)
        self.agent_selection = agent_name(self.game_state.to_move)
        self._finish_if_over()
        self._accumulate_rewards()

    def _finish_if_over(self) -> None:
        outcome = self.game_state.outcome()
        if outcome is None:
            return
        unfinished = outcome.rule in self.game_class.unfinished_rules
        for seat, reward in enumerate(seat_rewards(self.game_class, outcome, self.n_players)):
            agent = agent_name(seat)
            self.rewards[agent] = reward
            self.terminations[agent] = not unfinished
            self.truncations[agent] = unfinished
            self.infos[agent] = {"outcome": outcome.to_dict()}

    # -- actions <-> moves
    def move_of(self, action: Any) -> Any:
        """The engine move of ``action`` for the seat to move; ValueError naming the action when
        it is not a legal one now (the mask says which are)."""
        try:
            i = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"action {action!r} is not an action number 0..{self.encoding.n_actions - 1}") from None
        mask = self.legal_mask()
        if not (0 <= i < len(mask)) or not mask[i]:
            legal = ", ".join(map(str, np.flatnonzero(mask)[:20]))
            raise ValueError(f"action {i} is not legal for {self.agent_selection} now "
                             f"({self.game_state.describe()}); legal actions: {legal}"
                             + (" ..." if mask.sum() > 20 else ""))
        return self.encoding.move_for(self.game_state, self.encoding.keys[i])

    def action_of(self, move: Any) -> int:
        """The action number of a legal ``move`` of the position."""
        return self.encoding.index[self.encoding.action_key(self.game_state, move)]

    def action_text(self, action: int) -> str:
        """The move text of a legal ``action`` (as the pnp tools write it)."""
        return self.game_state.move_text(self.move_of(action))

    # -- display
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode; make the env with render_mode='ansi'")
            return None
        return self.game_state.describe()

    def close(self) -> None:
        pass


def env(game: str, players: int | None = None, seed: int | None = None, variants: Any = (),
        options: dict | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment of ``game`` (an engine name or a pack) with PettingZoo's usual checks:
    actions inside ``Discrete(N)``, ``reset()`` before anything else."""
    bare = raw_env(game, players=players, seed=seed, variants=variants, options=options,
                   render_mode=render_mode)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(bare))
