import random
import shutil
from pathlib import Path

import pytest
import yaml

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
TINY = TESTS / "packs" / "tiny"
CARDTEXT = TESTS / "packs" / "cardtext"   # literal card text and a CSV deck (tests/test_card_text.py)
SCENARIO_DIR = TESTS / "scenarios"


@pytest.fixture(scope="session")
def shipped_build(tmp_path_factory):
    """shipped_build(game) -> the output folder of `pnp build GAME` (every language, A4, cards,
    boards and parts): each shipped pack is built once per test run, whoever asks first."""
    from click.testing import CliRunner

    from pnp.cli import main

    out = tmp_path_factory.mktemp("shipped")
    built: dict[str, Path] = {}

    def get(game: str) -> Path:
        if game not in built:
            result = CliRunner().invoke(main, ["build", game, "--out", str(out)])
            assert result.exit_code == 0, result.output
            built[game] = out / game
        return built[game]
    return get


@pytest.fixture
def tiny_pack(tmp_path) -> Path:
    """A writable copy of the tiny test pack, for tests that break it."""
    target = tmp_path / "tiny"
    shutil.copytree(TINY, target)
    return target


# ------------------------------------------------------------------ engine test helpers
def scenario_files(game: str) -> list[Path]:
    """tests/scenarios/<game>/*.yaml, sorted, without the perft table."""
    return sorted(p for p in (SCENARIO_DIR / game).glob("*.yaml") if p.name != "perft.yaml")


def perft_positions(game: str) -> list[dict]:
    """The positions of tests/scenarios/<game>/perft.yaml."""
    from pnp.engines.replay import PERFT, load_checked
    return load_checked(SCENARIO_DIR / game / "perft.yaml", PERFT)["positions"]


def check_scenario(path: Path) -> None:
    """Replay a scenario record: every expectation holds and the final state is consistent."""
    from pnp.engines.replay import check_expectations, load_record, replay
    result = replay(load_record(path))
    assert check_expectations(result) == []
    assert not result.state.check_invariants()


def push_checking_undo(st, m) -> None:
    """Push ``m`` after checking that push + pop of it leaves ``st.to_dict()`` as it was."""
    before = st.to_dict()
    st.push(m)
    st.pop()
    assert st.to_dict() == before
    st.push(m)


def check_unwind_and_replay(st, fresh) -> None:
    """Popping every move brings ``st`` back to ``fresh`` (a new game on the same seed), and
    pushing them again brings it back to where it was."""
    end = st.to_dict()
    moves = list(st.move_stack)
    while st.move_stack:
        st.pop()
    assert st.to_dict() == fresh.to_dict()            # back to the start, rng included
    for m in moves:
        st.push(m)
    assert st.to_dict() == end                         # and replays identically


def yaml_round_trip(st):
    """A copy of ``st`` through to_dict -> YAML -> from_dict, checked to serialise the same."""
    d = st.to_dict()
    cp = type(st).from_dict(yaml.safe_load(yaml.safe_dump(d)))
    assert cp.to_dict() == d
    return cp


def advance_twins(twins, i: int) -> None:
    """Play the same 1 + i % 7 random moves (picked by Rng(i)) on each of two twin games, or
    fewer if the game ends: a position some moves in."""
    from pnp.engines.core import Rng
    r = Rng(i)
    for _ in range(1 + i % 7):
        if twins[0].outcome() is not None:
            break
        for st in twins:
            ms = st.legal_moves()
            st.push(ms[Rng(r.state).randbelow(len(ms))])
        r.next64()


def assert_playout_is_the_push_loop(fast, slow, seed: int) -> None:
    """``fast.random_playout`` (an engine's loop without undo records) against the core's loop
    (legal_moves() every ply, Rng.randbelow, push) on its twin ``slow``: as many moves, the very
    same position, RNG, ply, fired rules, counters and outcome, and no undo history afterwards."""
    from pnp.engines.core import GameState, Rng
    n_fast = fast.random_playout(Rng(seed))
    n_slow = GameState.random_playout(slow, Rng(seed))
    assert n_fast == n_slow > 0
    assert fast.to_dict() == slow.to_dict(), seed
    assert fast.stats() == slow.stats()
    assert fast.outcome() == slow.outcome() is not None
    with pytest.raises(IndexError):
        fast.pop()
    assert fast.legal_moves() == []


def zr_twins(seed: int):
    """Two Zombie Run games on ``seed``: the first played to the end by ``playout`` with
    ``random.Random(seed)``, the second fresh, with its own ``random.Random(seed)``."""
    from pnp.engines.zombie_run import ZombieRun
    a = ZombieRun(players=3 + seed % 5, seed=seed)
    b = ZombieRun(players=3 + seed % 5, seed=seed)
    ra, rb = random.Random(seed), random.Random(seed)
    a.playout(ra)
    return a, b, rb


@pytest.fixture
def pack_dir(tmp_path) -> Path:
    """A fresh copy of tests/packs/cardtext."""
    return Path(shutil.copytree(CARDTEXT, tmp_path / "cardtext"))


def copy_exported(exported: Path, tmp_path: Path) -> Path:
    """A test's own copy of a module's exported Cimiterio (`exported`: its cimiterio/ and po/),
    in tmp_path; the pack's folder."""
    for name in ("cimiterio", "po"):
        shutil.copytree(exported / name, tmp_path / name)
    return tmp_path / "cimiterio"


def replace_once(path: Path, old: str, new: str) -> None:
    """Edit a test's copy of a pack file; the test setup fails if `old` is not there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def cimiterio_with_spanish(tmp_path: Path, spanish: str | None = None) -> Path:
    """A copy of cimiterio declaring Spanish, a language pnp's sheet words lack: its text/es.yaml
    is `spanish`, or German's (complete) when None."""
    pack = tmp_path / "cimiterio"
    shutil.copytree(REPO / "data" / "cimiterio", pack)
    replace_once(pack / "pack.yaml", "languages: [it, en, uk, ar, de]", "languages: [it, en, uk, ar, de, es]")
    if spanish is None:
        shutil.copy(pack / "text" / "de.yaml", pack / "text" / "es.yaml")
    else:
        (pack / "text" / "es.yaml").write_text(spanish, encoding="utf-8")
    return pack
