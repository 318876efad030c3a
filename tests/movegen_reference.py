"""Slow reference move generators for tests/test_movegen.py: the scans the engines used before
issue 13's fast generators (kept here, test-only), written against a state's rules so that a
fast generator is checked move by move against an independent listing."""
from __future__ import annotations

from pnp.engines.cimiterio.actions import NOISE_MODES, PERSONAL_CHOICES
from pnp.engines.zombie_run.moves import DISCARD, PASS, PLAY, SPECIAL
from pnp.engines.zombie_run.rules import PH_OVER, PH_ZOMBIE
from pnp.engines.zombies_vs_vampires import moves as zvv


def zombie_run(st) -> list[int]:
    """Every card type in hand (first-seen order of set()) x every living seat, by the rules of
    rules.py (``_move_for``), then the Z6 move when no normal play exists."""
    ph = st.phase
    if ph == PH_OVER:
        return []
    hand = st.hands[st.turn]
    if ph == PH_ZOMBIE:
        if not hand:
            return [PASS << 16]
        t = hand[0]
        return ([PLAY << 16 | t << 8 | q for q in range(st.players)
                 if st.alive[q] and st._can_place(t, q)] or [DISCARD << 16 | t << 8])
    plays, specials = [], []
    for t in set(hand):
        for q in range(st.players):
            if not st.alive[q]:
                continue
            m = st._move_for(t, q)
            if m >= SPECIAL << 16:
                specials.append(m)
            elif m >= 0:
                plays.append(m)
    if not plays:
        specials.append(st._z6_move())
    return plays + specials


def cimiterio(st) -> list:
    """The action cards from the board's ring tables, uncached (C5-C7), or the pending choice."""
    if st.result is not None:
        return []
    p = st.pending
    if p is not None:
        if p[0] == "order":
            return [("first", c) for c in p[1]]
        return [("personal", n) for n in PERSONAL_CHOICES]
    B = st.B
    g1, g2 = st.guards
    out: list = [("move", g1, t, -1, -1) for t in B.reach[g1]]
    out += [("move", -1, -1, g2, t) for t in B.reach[g2]]
    out += [("move", g1, t1, g2, t2) for t1 in B.reach[g1] for t2 in B.reach[g2]]
    out += [("noise", m) for m in NOISE_MODES]
    out.append(("pass",))
    return out


def _zvv_destinations(st, p: int, s: int, k: int) -> list[int]:
    """Squares the piece on s reaches in 1..k steps, one step at a time (``_stepper``: the
    written-path rule), ascending; the exact variant's simple paths of exactly k steps."""
    if st.exact:
        return sorted(st._exact_paths(p, s, k))
    succ = st._stepper(p, st.occ ^ (1 << s))
    seen = {s}
    frontier = [s]
    for _ in range(k):
        frontier = [u for cur in frontier for u in succ(cur) if u not in seen and not seen.add(u)]
    seen.discard(s)
    return sorted(seen)


def zombies_vs_vampires(st) -> list[int]:
    """Moves piece by piece (stepwise BFS), every wall candidate tested one by one, the +/-
    choices, the pass and the V15 re-roll, in the generator's order."""
    if st.phase == zvv.PH_OVER:
        return []
    if st.phase == zvv.PH_CHOOSE:
        return [zvv.ROLL << 24, zvv.ROLL << 24 | 1]
    k, build, pm, reroll = st._menu()
    p = st.turn
    out: list[int] = []
    if k:
        for s in st.movable(p):
            out += [zvv.MOVE << 24 | s << 12 | t for t in _zvv_destinations(st, p, s, k)]
    if build:
        out += st._build_moves_ref(st.wsize)
    if pm:
        out += [zvv.REMOVE << 24 | ci << 12 for ci in st.walls]
        out.append(zvv.PMBUILD << 24)
    if not out:
        out.append(zvv.PASS << 24)
    if reroll:
        out.append(zvv.REROLL << 24)
    return out


REFERENCE = {"zombie-run": zombie_run, "cimiterio": cimiterio,
             "zombies-vs-vampires": zombies_vs_vampires}
