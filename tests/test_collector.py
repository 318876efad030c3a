"""pnp.collector: a build runs with fewer young collector passes; the thresholds come back after
it, however it ends and however many builds overlap (the server builds in threads)."""
import gc
import threading

import pytest

from pnp import build as pipeline
from pnp import collector
from pnp.errors import PnpError


@pytest.fixture
def default_thresholds():
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_a_build_runs_eased_and_puts_the_thresholds_back(default_thresholds, monkeypatch, tmp_path):
    seen = []

    def fake_build(games, options, progress):
        seen.append(gc.get_threshold())
        raise PnpError("stop here")

    monkeypatch.setattr(pipeline, "_build", fake_build)
    with pytest.raises(PnpError, match="stop here"):
        pipeline.build(["anything"], pipeline.BuildOptions(out=tmp_path))
    assert seen == [(collector.BUILD_YOUNG_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)          # back, though the build raised


def test_overlapping_builds_restore_once_the_last_ends(default_thresholds):
    first_in, second_done = threading.Event(), threading.Event()
    during = []

    def first():
        with collector.eased():
            first_in.set()
            second_done.wait(10)
            during.append(gc.get_threshold())      # the second build ended: still eased for this one

    thread = threading.Thread(target=first)
    thread.start()
    first_in.wait(10)
    with collector.eased():
        assert gc.get_threshold()[0] == collector.BUILD_YOUNG_THRESHOLD
    second_done.set()
    thread.join(10)
    assert during == [(collector.BUILD_YOUNG_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_already_set_is_kept(default_thresholds):
    gc.set_threshold(50_000, 20, 5)
    with collector.eased():
        assert gc.get_threshold() == (50_000, 20, 5)
    assert gc.get_threshold() == (50_000, 20, 5)


def test_paused_restores_the_collector_however_the_imports_end():
    assert gc.isenabled()
    with pytest.raises(ImportError):
        with collector.paused():
            assert not gc.isenabled()
            raise ImportError("a module failed")
    assert gc.isenabled()
