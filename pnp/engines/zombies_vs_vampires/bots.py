"""The racer bot (``greedy_bot``, ``--bot racer``): races its pieces home and builds walls in
the leader's way."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from pnp.engines.zombies_vs_vampires.moves import BUILD, MOVE, PMBUILD, REMOVE, ROLL

if TYPE_CHECKING:
    from pnp.engines.zombies_vs_vampires.game import ZombiesVsVampires

SAMPLED_SPOTS = 24          # wall spots the bot weighs on a build
BLOCKS_OWN_ZONE = 100.0     # a move that would wall off a square of its own far zone (V11)


def greedy_bot(st: ZombiesVsVampires, rng: random.Random) -> int:
    """Races (largest drop in the BFS walking distance of the moved piece, home first) and builds
    walls to hinder the leader (largest rise of the leader's race cost minus its own)."""
    ms = st.legal_moves()
    if len(ms) == 1:
        return ms[0]
    p = st.turn
    kinds = {m >> 24 for m in ms}
    if ROLL in kinds:
        return ROLL << 24          # the action die: builds and big moves
    if MOVE in kinds:
        best, bs = _best_move(st, ms, p, rng)
        if bs is not None and bs > 0 or PMBUILD not in kinds:
            return best
    others = [q for q in range(st.players) if q != p]
    if not others:
        return ms[0]
    costs = {q: st.race_cost(q) for q in range(st.players)}
    leader = min(others, key=lambda q: costs[q])
    builds = [m for m in ms if m >> 24 == BUILD]
    removes = [m for m in ms if m >> 24 == REMOVE]
    if builds:
        cand = builds if len(builds) <= SAMPLED_SPOTS else rng.sample(builds, SAMPLED_SPOTS)
        return _best_wall(st, cand, p, leader, costs) or cand[0]
    if removes:
        best, gain_best = None, 0
        for m in removes:
            gain = _wall_effect(st, m >> 12 & 0xFFF, p, leader, costs)
            if gain > gain_best:
                best, gain_best = m, gain
        if best is not None:
            return best
    if PMBUILD << 24 in ms:
        return PMBUILD << 24
    return ms[int(rng.random() * len(ms))]


def _best_move(st: ZombiesVsVampires, ms: list[int], p: int, rng: random.Random):
    """(move, score) of the piece move that gains the most distance to the far zone."""
    g = st.geo
    walls_only = st.distance_map(p)
    real = st.piece_distance_map(p)                  # around walls AND pieces (jumps too)
    far = 4 * g.N * g.N
    dist = {sq: d + 3 for sq, d in walls_only.items()}   # blocked for now: walls-only + 3
    dist.update(real)
    occ = st.occ
    tg = st.target_mask[p]
    cur = {}
    for a in set(m >> 12 & 0xFFF for m in ms if m >> 24 == MOVE):
        if (tg >> a) & 1:
            cur[a] = 0
            continue
        near = [real[t] + 1 for t in st._stepper(p, occ ^ (1 << a))(a) if t in real]
        cur[a] = min(near) if near else dist.get(a, far)
    z = g.opposite[st.corners[p]]
    cr, cc = divmod(g.zone_corner[z], g.W)                      # the zone's outer corner
    depth = {}
    ring = {}                                       # steps from the zone's outer corner
    for q in g.zone_squares[z]:
        r, c = divmod(q, g.W)
        ring[q] = abs(r - cr) + abs(c - cc)
        depth[q] = 0.5 + 0.3 * (4 - ring[q])
    # V11 "leave it there" (default home=locked): a piece home never moves again, so a zone
    # filled from the front walls its own back squares off (nothing can reach them any more).
    # The racer fills ring by ring from the outer corner: it ends a move in the zone only on
    # the innermost ring not yet full of its own pieces.
    deepest = -1 if st.home_zone_mode else min(
        (ring[q] for q in g.zone_squares[z] if not (st.occ_by[p] >> q) & 1), default=-1)
    best, bs = None, None
    for m in ms:
        if m >> 24 != MOVE:
            continue
        a = m >> 12 & 0xFFF
        b = m & 0xFFF
        sc = cur[a] - dist.get(b, far) + rng.random() * 0.01
        sc += depth.get(b, 0.0) - depth.get(a, 0.0)   # fill the far zone from the back
        if deepest >= 0 and ring.get(b, deepest) != deepest:
            sc -= BLOCKS_OWN_ZONE
        if bs is None or sc > bs:
            best, bs = m, sc
    return best, bs


def _wall_effect(st: ZombiesVsVampires, ci: int, p: int, leader: int, costs: dict) -> int:
    """How much toggling wall ci (building it, or removing it) lengthens the leader's race more
    than p's own, in race-cost steps (measured with the wall toggled, then it is put back)."""
    st._toggle_wall(ci)
    sc = (st.race_cost(leader) - costs[leader]) - (st.race_cost(p) - costs[p])
    st._toggle_wall(ci)
    return sc


def _best_wall(st, cand, p, leader, costs):
    best, bs = None, None
    for m in cand:
        sc = _wall_effect(st, m >> 12 & 0xFFF, p, leader, costs) + st_rng_tiebreak(m)
        if bs is None or sc > bs:
            best, bs = m, sc
    return best


def st_rng_tiebreak(m: int) -> float:
    return (m * 2654435761 % 1000) * 1e-6
