import shutil
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
TINY = TESTS / "packs" / "tiny"


@pytest.fixture
def tiny_pack(tmp_path) -> Path:
    """A writable copy of the tiny test pack, for tests that break it."""
    target = tmp_path / "tiny"
    shutil.copytree(TINY, target)
    return target
