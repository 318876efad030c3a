"""`pnp simulate|playtest --scheduler ADDRESS`: the games run on a Dask distributed cluster.

The simulator already takes any ``concurrent.futures.Executor`` and gathers the results of its
chunks in job order, each game seeded from the master seed and its index
(``pnp.engines.simulate.simulate``), so a cluster's executor gives the same report, byte for
byte, as a local run. Dask is an optional extra (``pip install 'pnp[cluster]'``): it is imported
only here and only when a scheduler is named, so ``import pnp.cli`` never loads it.
docs/cluster.md says how to start a scheduler and workers.
"""
from __future__ import annotations

import gc
from concurrent.futures import CancelledError, Executor
from contextlib import contextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Iterator

from pnp.errors import PnpError

CONNECT_TIMEOUT = 10.0          # seconds to reach the scheduler, and then to see a first worker
INSTALL_HINT = "pip install 'pnp[cluster]'"


class ClusterError(PnpError):
    """The cluster cannot run the games (exit status 2). ``code`` says why, for callers and
    tests: ``cluster.missing-extra``, ``cluster.unreachable``, ``cluster.no-workers``,
    ``cluster.worker-pnp`` (a worker without this pnp version), ``cluster.worker-failed``."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _distributed():
    """The ``distributed`` module, or a ClusterError naming the extra to install."""
    try:
        import distributed
    except ImportError as error:
        raise ClusterError("cluster.missing-extra",
                           f"--scheduler needs Dask distributed ({error}): {INSTALL_HINT}") from None
    return distributed


def connect(address: str, timeout: float = CONNECT_TIMEOUT):
    """A ``distributed.Client`` of the scheduler at ``address`` with at least one worker, each
    with this pnp version, or a ClusterError naming the address, within about twice ``timeout``
    seconds."""
    distributed = _distributed()
    failure = None
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, ValueError, TypeError, TimeoutError) as error:
        failure = str(error) or type(error).__name__
    if failure is not None:
        # Why: the half-built Client, kept alive by the exception's frames, would otherwise be
        # collected at interpreter exit and print a "timed out" traceback from its __del__.
        gc.collect()
        raise ClusterError("cluster.unreachable",
                           f"cannot reach the Dask scheduler at {address}: {failure}")
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        client.close()
        raise ClusterError("cluster.no-workers",
                           f"the Dask scheduler at {address} has no worker after {timeout:g} s: "
                           "start some with `dask worker " + address + "`") from None
    try:
        check_workers_have_pnp(client, address)
    except ClusterError:
        client.close()
        raise
    return client


def check_workers_have_pnp(client, address: str) -> None:
    """Every worker must have this pnp: one without it cannot even read the task it is sent
    and the run would wait for ever (measured); another version may play other rules."""
    try:
        wanted = version("pnp")
    except PackageNotFoundError:        # pnp run from a checkout, not installed: nothing to compare
        return
    workers = client.get_versions(packages=["pnp"])["workers"]
    wrong = {worker: info["packages"].get("pnp") for worker, info in sorted(workers.items())
             if info["packages"].get("pnp") != wanted}
    if wrong:
        found = "; ".join(f"{worker}: {have or 'not installed'}" for worker, have in wrong.items())
        raise ClusterError("cluster.worker-pnp",
                           f"workers of the Dask scheduler at {address} do not have pnp {wanted} "
                           f"({found}): install the same pnp on every worker")


@contextmanager
def executor_for(address: str | None, workers: int) -> Iterator[tuple[Executor | None, int]]:
    """``(executor, workers)`` for one run. Without a scheduler: ``(None, workers)``, and the
    simulator makes its own process pool as ``--workers`` asks. With one: the cluster's executor
    and its thread count (the simulator sizes its chunks by it). A worker killed while playing
    (Dask's KilledWorker) or a run cancelled by the scheduler ends as a ClusterError."""
    if address is None:
        yield None, workers
        return
    distributed = _distributed()
    client = connect(address)
    try:
        threads = sum(client.nthreads().values()) or 1
        with client.get_executor() as executor:
            yield executor, threads
    except (CancelledError, distributed.KilledWorker) as error:
        raise ClusterError("cluster.worker-failed",
                           f"a worker of the Dask scheduler at {address} could not play the games: "
                           f"{type(error).__name__}: {error}") from None
    finally:
        client.close()
