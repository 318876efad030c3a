"""Write tests/perft/<game>.yaml: perft counts and move-order digests of fixed positions.

    .venv/bin/python tests/perft/record.py

Run once with the generator the counts must keep (the numbers in the files were recorded with
the move generators before the fast ones of issue 13). Each position is a start position
(players, seed, variants) plus a line of play written as move texts, reached by seeded uniform
random play over ``legal_moves()``; the texts make the position independent of move order.
``counts[d - 1]`` is the number of leaves d plies deep (chance steps are part of ``push``: the
state's own RNG decides them, so the tree is fixed); ``order`` is a SHA-256 over every
``legal_moves()`` list met in that tree (the moves' reprs, in order), so a change of order
shows; ``texts`` is the root's list as move texts.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from pnp.engines.core import Rng, get_game  # noqa: E402

NODE_BUDGET = 3_000       # depth d is recorded when depth d - 1 has at most this many nodes

_OLD = "finish-round,home-zone"
_CIM = "map=classic,adjacent,bell-ignores"
POSITIONS = {
    "zombie-run": [(3, 1, "", 0), (5, 2, "", 0), (4, 3, "", 12), (6, 4, "", 40), (7, 5, "", 50),
                   (3, 6, "", 25)],
    # recorded under the map and readings of the time, since issue 15 the alternatives named here
    "cimiterio": [(1, 1, _CIM, 0), (2, 2, _CIM, 0), (3, 3, _CIM, 7), (4, 4, _CIM, 20), (2, 5, _CIM, 30)],
    # recorded under the defaults of the time, since issue 15 the variants finish-round, home-zone
    "zombies-vs-vampires": [(2, 1, _OLD, 0), (3, 2, _OLD, 0), (4, 3, _OLD, 30), (2, 4, _OLD, 200),
                            (3, 5, _OLD, 500), (2, 6, "exact," + _OLD, 60),
                            (4, 7, "twostar-choice," + _OLD, 150), (2, 8, "board11," + _OLD, 300),
                            (3, 9, "home-locked,finish-round", 800)],
}


def reach(game: str, players: int, seed: int, variants: str, plies: int):
    """The position ``plies`` uniform random plies (Rng(seed)) after the start, and the line."""
    st = get_game(game).new(players=players, seed=seed, variants=variants or None)
    rng = Rng(seed)
    line = []
    while len(line) < plies and st.outcome() is None:
        ms = st.legal_moves()
        m = ms[rng.randbelow(len(ms))]
        line.append(st.move_text(m))
        st.push(m)
    return st, line


def start(game: str, case: dict):
    st = get_game(game).new(players=case["players"], seed=case["seed"],
                            variants=case.get("variants") or None)
    for text in case["line"]:
        st.push_text(text)
    return st


def perft(st, depth: int, digest) -> int:
    """Leaves ``depth`` plies below ``st``; every legal-move list met goes into ``digest``."""
    if depth == 0 or st.outcome() is not None:
        return 1 if depth == 0 else 0
    ms = st.legal_moves()
    digest.update((repr(ms) + "\n").encode())
    if depth == 1:
        return len(ms)
    n = 0
    for m in list(ms):
        st.push(m)
        n += perft(st, depth - 1, digest)
        st.pop()
    return n


def measure(st, max_depth: int | None = None) -> tuple[list[int], str]:
    counts: list[int] = []
    digest = hashlib.sha256()
    for d in range(1, (max_depth or 3) + 1):
        if max_depth is None and counts and not 0 < counts[-1] <= NODE_BUDGET:
            break
        h = hashlib.sha256()
        counts.append(perft(st, d, h))
        digest = h
    return counts, digest.hexdigest()


def main() -> None:
    for game, specs in POSITIONS.items():
        cases = []
        for players, seed, variants, plies in specs:
            st, line = reach(game, players, seed, variants, plies)
            counts, order = measure(st)
            name = f"{players}p seed {seed}{' ' + variants if variants else ''} ply {len(line)}"
            case = {"name": name, "players": players, "seed": seed}
            if variants:
                case["variants"] = variants
            case |= {"line": line, "counts": counts, "order": order,
                     "texts": [st.move_text(m) for m in st.legal_moves()]}
            cases.append(case)
            print(game, name, counts)
        text = yaml.safe_dump({"game": game, "positions": cases}, sort_keys=False, width=100,
                              allow_unicode=True)
        (HERE / f"{game}.yaml").write_text(
            "# Written by tests/perft/record.py with the move generators before issue 13's fast\n"
            "# ones; tests/test_movegen.py checks the current generators against it.\n" + text,
            encoding="utf-8")


if __name__ == "__main__":
    main()
