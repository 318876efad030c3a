"""Legal moves: the list (``legal_moves``), the direct check of one move (``_legal_direct``, what
``push`` asks) and the rule a refused move breaks (``_illegal_reason``, ``_check_path``).

A written path names one route: each leg ``A>B`` is a straight orthogonal line, walked square by
square with every occupied square on it jumped (``_unit_steps``); a leg that is not straight is
refused (V5), never re-read as some route that happens to reach B.

``_menu`` says what the rolled die allows this turn; the list and the direct check both read it,
and both ask the same movement and wall rules (movement.py, walls.py), so ``_legal_direct(m)``
equals ``m in legal_moves()`` (tests check it move by move).
"""
from __future__ import annotations

from itertools import pairwise

from pnp.engines.zombies_vs_vampires.movement import Movement
from pnp.engines.zombies_vs_vampires.moves import (
    BUILD,
    F_BUILD,
    F_CHOICE,
    F_MOVE,
    F_PM,
    MOVE,
    PASS,
    PH_ACT,
    PH_BUILD,
    PH_CHOOSE,
    PH_OVER,
    PMBUILD,
    REMOVE,
    REROLL,
    ROLL,
)

Menu = tuple[int, bool, bool, bool]


class Legality(Movement):
    """What may be played now."""

    def _move_steps(self) -> int:
        """V4: how many steps a move may take now (0: the die allows no move)."""
        if self.phase != PH_ACT:
            return 0
        f = self.face
        if f == F_MOVE:
            return self.steps
        return 2 if f == F_CHOICE else 0         # 2* = choice: move 2, remove or build

    def _menu(self) -> Menu:
        """What the die allows now: (steps of a move, 0 = no move; build a wall of the rolled
        size; the +/- choices: remove a wall or choose to build; a V15 re-roll)."""
        ph = self.phase
        if ph == PH_BUILD:                       # after choosing to build under +/-
            return 0, True, False, False
        if ph != PH_ACT:
            return 0, False, False, False
        f = self.face
        reroll = self.v15_reroll and self.home[self.turn] > 0 and not self.rerolled   # V15
        return (self._move_steps(),                                           # V4
                f == F_BUILD,                                                 # V7
                f in (F_PM, F_CHOICE),                                        # V8
                reroll)

    def legal_moves(self) -> list[int]:
        ms = self._cache
        if ms is None:
            ms = self._cache = self._gen()
        return ms

    def _gen(self) -> list[int]:
        ph = self.phase
        if ph == PH_OVER:
            return []
        if ph == PH_CHOOSE:
            return [ROLL << 24, ROLL << 24 | 1]
        if ph == PH_ACT and self.face == F_MOVE and not self.v15_reroll:
            # the common turn, what _menu says of it: move up to the die's steps, nothing else
            out = self._move_moves(self.turn, self.steps)                     # V4
            r = self._gen_reach
            self._gen_info = None if self.exact or r is None else (out, r[0], r[1])
            if not out:
                out.append(PASS << 24)                                        # V14
            return out
        k, build, pm, reroll = self._menu()
        if k:
            out = self._move_moves(self.turn, k)
            # the reach the list was decoded from answers push's check of a move from it
            r = self._gen_reach
            self._gen_info = None if self.exact or r is None else (out, r[0], r[1])
        else:
            out = []
        if build:
            if out:
                out += self._build_moves(self.wsize)
            else:
                out = self._build_moves(self.wsize)     # a fresh list already
        if pm:
            out += [REMOVE << 24 | ci << 12 for ci in self.walls]              # V8
            out.append(PMBUILD << 24)
        if not out:
            out.append(PASS << 24)                                            # V14
        if reroll:
            out.append(REROLL << 24)                                          # V15
        return out

    def _legal_direct(self, move: int) -> bool:
        """Is ``move`` legal here? Checked directly (one piece's BFS, one wall spot...) without
        generating every legal move; equal to ``move in legal_moves()`` (tested)."""
        if move < 0:
            return False
        kind = move >> 24
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        if kind == MOVE:
            k = self._move_steps()
            return bool(k) and self._move_ok(move, a, b, k)
        _, build, pm, reroll = self._menu()
        if kind == BUILD:
            return build and b == 0 and self._build_ok(a, self.wsize)
        if kind == REMOVE:
            return pm and b == 0 and a in self.walls
        if kind == PMBUILD:
            return pm and move == PMBUILD << 24
        if kind == REROLL:
            return reroll and move == REROLL << 24
        if kind in (PASS, ROLL):
            return move in self._gen()
        return False

    def _move_ok(self, move: int, a: int, b: int, k: int) -> bool:
        """The piece on a may end on b (up to / exactly k steps)."""
        p = self.turn
        if a not in self._sources(p)[0]:
            return False
        if self.exact:
            return b in self._exact_paths(p, a, k)
        memo = self._reach_memo
        if (memo is not None and memo[0] == self.occ and memo[3] == p and memo[4] == k
                and memo[1] == self.EB and memo[2] == self.NB and self.face == F_MOVE):
            srcs = memo[5]
            if a in srcs:
                LS = self.geo.LS
                return b < LS and bool(memo[6] >> (srcs.index(a) * LS + b) & 1)
        # walking reach first (a subset of the full reach, and cheaper); the jump statistic of
        # the move falls out of it and is kept for _apply
        if not self._needs_jump(p, a, b, k):
            self._jump_memo = (move, self.occ, self.EB, self.NB, p, self.face, self.steps, False)
            return True
        if self._reach(p, a, k) >> b & 1:
            self._jump_memo = (move, self.occ, self.EB, self.NB, p, self.face, self.steps, True)
            return True
        return False

    def _build_ok(self, ci: int, size: int) -> bool:
        cands = self.geo.cands
        return (ci < len(cands) and cands[ci][3] == size and self.supply[size] > 0
                and self._can_build(ci))

    # ---------------------------------------------------------------- why not
    def _illegal_reason(self, move):
        if self._outcome is not None:
            return ("end", "the game is over")
        if not isinstance(move, int):
            return ("move", "not a move of this game")
        cache = self._cache
        if cache is not None:
            info = self._gen_info
            if info is not None and info[0] is cache and move >> 24 == MOVE:
                # a MOVE of the list just generated: the bit of its lane in the reach the
                # list was decoded from (the same answer as ``move in cache``)
                srcs = info[1]
                a = move >> 12 & 0xFFF
                b = move & 0xFFF
                LS = self.geo.LS
                if a in srcs and b < LS and info[2] >> (srcs.index(a) * LS + b) & 1:
                    return None
            elif move in cache:
                # the move is one of the list's objects, found by identity before any
                # comparison (cheaper than building a set of the list for one look)
                return None
        elif self._legal_direct(move):
            return None
        kind = move >> 24
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        g = self.geo
        p = self.turn
        k, build, pm, _ = self._menu()
        if kind == MOVE:
            if not k:
                return self._why_no_move()
            if a not in self.pos[p]:
                return ("V4", "move one of your own pieces")
            if (self.target_mask[p] >> a) & 1 and not self.home_zone_mode:
                return ("V11", "a piece home in the far zone stays there: leave it there")
            if (self.home_zone_mode and (self.target_mask[p] >> a) & 1
                    and not (self.target_mask[p] >> b) & 1):
                return ("V11", "a piece in its far zone never leaves it")
            return self._diagnose_path(move)
        if kind == BUILD:
            if not build:
                return ("V3", f"the die shows {self.face_text!r}: no building now")
            if a >= len(g.cands):
                return ("V9", "not a wall spot")
            o, r, c, L, gm, im = g.cands[a]
            if L != self.wsize:
                return ("V7", f"the size die shows {self.wsize}")
            if self.supply[L] <= 0:
                return ("V10", f"no wall of size {L} left in the supply")
            if gm & (self.NB if o == 0 else self.EB):
                return ("V9", "walls never overlap")
            return ("V9", "walls never cross")
        if kind == REMOVE:
            if not pm:
                return ("V8", "walls are removed only on the +/- face")
            return ("V8", "no such wall on the board")
        if kind == PASS:
            if build:                            # V14 excuses only a size with no spot left
                return ("V7", f"you must build: a wall of size {self.wsize} fits")
            if pm:
                return ("V8", "choose: remove a wall or build one")
            return ("V4", "a legal move exists: you must move")
        if kind == PMBUILD:
            return ("V8", "choosing to build is for the +/- face")
        if kind == REROLL:
            return ("V15", "no re-roll available")
        return ("V3", "not a legal move here")

    def _diagnose_path(self, move):
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        W = self.geo.W
        if b - a in (1, -1, W, -W, 2, -2, 2 * W, -2 * W):
            bad = self._check_path([a, b])
            if bad:
                return bad
        k = self._move_steps()
        if self._path(self.turn, a, b, 4 * self.geo.N * self.geo.N) if not self.exact else None:
            return ("V4", f"more than {k} steps away")
        return ("V5", "that square cannot be reached (walls and pieces in the way)")

    def _why_no_move(self) -> tuple[str, str]:
        """The rule a move breaks when the die allows none: the forced choice of the face (or
        the end: a finished game, V12 ends it at once, allows no move)."""
        if self.phase == PH_OVER:
            return ("end", "the game is over")
        if self.phase == PH_BUILD or (self.phase == PH_ACT and self.face == F_BUILD):
            return ("V7", f"the die shows build: you must build a wall of size {self.wsize}")
        if self.phase == PH_ACT and self.face == F_PM:
            return ("V8", "the die shows +/-: remove a wall or build one")
        return ("V3", f"the die shows {getattr(self, 'face_text', '?')!r}: no movement this turn")

    def _unit_steps(self, sqs: list[int], occ: int, limit: int) -> list[int] | tuple[str, str]:
        """The squares a written path visits one step at a time, or (rule, reason) when a leg
        is not a straight orthogonal line (V5). A leg A>B runs along its row or column: the
        next square is walked to when empty, jumped over when ``occ`` holds a piece there (V6;
        the leg's last square is always walked to, so landing on a piece is refused by the
        step check). The route is the text's, so a wall on the line refuses the move (V5, V6).
        Stops after ``limit`` steps (a route longer than the die allows is refused anyway)."""
        g = self.geo
        W = g.W
        out = [sqs[0]]
        for s, t in pairwise(sqs):
            (rs, cs), (rt, ct) = divmod(s, W), divmod(t, W)
            if s == t:
                return ("V5", f"{g.sq_name(s)}>{g.sq_name(t)} is no step")
            if rs != rt and cs != ct:
                return ("V5", f"{g.sq_name(s)}>{g.sq_name(t)} is not a straight orthogonal line: "
                              f"steps are orthogonal; write the route, e.g. {g.sq_name(s)}>"
                              f"{g.sq_name(rs * W + ct)}>{g.sq_name(t)} or {g.sq_name(s)}>"
                              f"{g.sq_name(rt * W + cs)}>{g.sq_name(t)}")
            d = (1 if ct > cs else -1) if rs == rt else (W if rt > rs else -W)
            cur = s
            while cur != t:
                nxt = cur + d
                if nxt != t and (occ >> nxt) & 1:          # a piece on the line: jump it
                    nxt += d
                out.append(nxt)
                cur = nxt
            if len(out) > limit:
                break
        return out

    def _check_path(self, sqs: list[int]):
        """Validate a written path step by step (legs: ``_unit_steps``); returns (rule, reason)
        or None."""
        p = self.turn
        k = self._move_steps()
        if not k:
            return self._why_no_move()
        if sqs[0] not in self.pos[p]:
            return ("V4", "move one of your own pieces")
        occ0 = self.occ ^ (1 << sqs[0])
        route = self._unit_steps(sqs, occ0, k + 1)
        if isinstance(route, tuple):
            return route
        if len(route) - 1 > k:
            return ("V4", f"more steps than the die allows ({k})")
        sqs = route
        if self.exact and len(sqs) - 1 < k and not (
                (self.target_mask[p] >> sqs[-1]) & 1 and not (self.target_mask[p] >> sqs[-2]) & 1):
            return ("V4", f"exactly {k} steps (variant exact)")
        succ = self._stepper(p, occ0, zone_rule=False)
        g = self.geo
        W = g.W
        for i in range(len(sqs) - 1):
            s, t = sqs[i], sqs[i + 1]
            tg = self.target_mask[p]
            if self.home_zone_mode and (tg >> s) & 1 and not (tg >> t) & 1:
                return ("V11", "a piece in its far zone never leaves it")
            if t in succ(s):
                if self.exact and t in sqs[:i + 1]:
                    return ("V4", "an exact path may not revisit a square")
                continue
            diff = t - s
            d = {1: 0, -1: 1, W: 2, -W: 3, 2: 0, -2: 1, 2 * W: 2, -2 * W: 3}.get(diff)
            if d is None:
                return ("V5", f"{g.sq_name(s)}>{g.sq_name(t)} is not an orthogonal step or jump")
            if abs(diff) in (1, W):
                if self._blocked(s, d):
                    return ("V5", f"a wall between {g.sq_name(s)} and {g.sq_name(t)}")
                return ("V6", f"{g.sq_name(t)} is occupied")
            mid = s + diff // 2
            if not (occ0 >> mid) & 1:
                return ("V6", f"a jump needs a piece on {g.sq_name(mid)}")
            if self._blocked(s, d) or self._blocked(mid, d):
                return ("V6", "never jump over a wall")
            if (occ0 >> t) & 1:
                return ("V6", f"a jump goes over one piece to the empty square beyond: "
                              f"{g.sq_name(t)} is occupied too")
            return ("V6", f"{g.sq_name(mid)} may not be jumped over (a piece safe at home)")
        return None
