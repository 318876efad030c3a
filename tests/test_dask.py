"""`pnp simulate|playtest --scheduler ADDRESS`: the same report on a Dask cluster as locally.

Everything that talks to a cluster runs in a child process with a timeout, so a broken cluster
fails a test instead of hanging the run. The cluster is a `distributed.LocalCluster` of two
process workers (processes=True) with one thread each, hosted by a child process."""
from __future__ import annotations

import json
import selectors
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("distributed")

REPO = Path(__file__).resolve().parent.parent
PNP = [sys.executable, "-m", "pnp.cli"]
SIMULATE = ["simulate", "zombie-run", "--games", "40", "--seed", "7", "--json"]
PLAYTEST = ["playtest", "zombie-run", "--games", "8", "--players", "3", "--players", "4",
            "--seed", "11", "--max-turns", "60", "--json"]
CHILD_TIMEOUT = 180        # seconds; a run takes a few here
STARTUP_TIMEOUT = 120

# Hosts the cluster: prints the scheduler's address, then keeps it up until stdin closes.
CLUSTER_HOST = textwrap.dedent("""
    import sys
    from distributed import LocalCluster

    if __name__ == "__main__":
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster:
            print(cluster.scheduler_address, flush=True)
            sys.stdin.read()
""")


def read_line(child: subprocess.Popen, timeout: float) -> str:
    """The child's first stdout line, or a failure after ``timeout`` seconds."""
    assert child.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            child.kill()
            pytest.fail(f"the cluster did not start within {timeout} s")
    return child.stdout.readline().strip()


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """The address of a running two-worker LocalCluster (process workers)."""
    script = tmp_path_factory.mktemp("cluster") / "host.py"
    script.write_text(CLUSTER_HOST)
    child = subprocess.Popen([sys.executable, str(script)], cwd=REPO, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        address = read_line(child, STARTUP_TIMEOUT)
        assert address.startswith("tcp://"), address
        yield address
    finally:
        assert child.stdin is not None
        child.stdin.close()
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def pnp(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*PNP, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=CHILD_TIMEOUT, env=env)


def python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], cwd=REPO,
                          capture_output=True, text=True, timeout=CHILD_TIMEOUT)


def tasks_run(address: str) -> int:
    """How many tasks the cluster's workers have run so far: proof that a run used them."""
    child = python("""
        import sys
        from distributed import Client
        with Client(sys.argv[1], timeout=10, set_as_default=False) as client:
            counts = client.run(lambda dask_worker: dask_worker.state.executed_count)
        print(sum(counts.values()))
    """, address)
    assert child.returncode == 0, child.stderr
    return int(child.stdout)


def test_simulate_on_the_cluster_prints_the_local_json_byte_for_byte(scheduler):
    local = pnp(*SIMULATE)
    before = tasks_run(scheduler)
    remote = pnp(*SIMULATE, "--scheduler", scheduler)
    assert local.returncode == 0, local.stderr
    assert remote.returncode == 0, remote.stderr
    assert tasks_run(scheduler) - before == 8      # 40 games in chunks of 5 (2 worker threads)
    assert remote.stdout == local.stdout
    report = json.loads(remote.stdout)
    assert report["games"] == 40 and report["seed"] == 7


def test_the_run_function_with_the_clusters_executor_gives_the_local_report(scheduler):
    """In-process (in the child): simulate(..., executor=Client.get_executor()) against a local
    run and a two-process local pool, chunked small so that the 40 games make 20 tasks."""
    child = python("""
        import sys
        from distributed import Client
        from pnp.engines.simulate import simulate

        def report(**how):
            run = simulate("zombie-run", games=40, seed=7, **how)
            return run.to_json(), [game["seed"] for game in run.results]   # and in index order

        local = report()
        with Client(sys.argv[1], timeout=10, set_as_default=False) as client:
            with client.get_executor() as executor:
                on_cluster = report(executor=executor, chunk=2)
                workers_seen = len(client.nthreads())
        pool = report(workers=2, chunk=3)
        print(workers_seen, on_cluster == local, pool == local)
    """, scheduler)
    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == ["2", "True", "True"]


def test_playtest_on_the_cluster_gives_the_local_json_and_pdf(scheduler, tmp_path):
    out = tmp_path / "report"
    local = pnp(*PLAYTEST, "--out", str(out))
    assert local.returncode == 0, local.stderr
    local_pdf = (out / "playtest-zombie-run.pdf").read_bytes()
    before = tasks_run(scheduler)
    remote = pnp(*PLAYTEST, "--out", str(out), "--scheduler", scheduler)
    assert remote.returncode == 0, remote.stderr
    assert tasks_run(scheduler) - before == 16     # 2 player counts x 8 games, one per chunk
    assert remote.stdout == local.stdout
    assert (out / "playtest-zombie-run.pdf").read_bytes() == local_pdf
    runs = json.loads(remote.stdout[remote.stdout.index("{"):])["runs"]
    assert [(r["players"], r["games"]) for r in runs] == [(3, 8), (4, 8)]


@pytest.mark.parametrize("command", ["simulate", "playtest"])
def test_an_unreachable_scheduler_is_one_message_naming_it_exit_2(command, tmp_path):
    address = "tcp://127.0.0.1:1"         # port 1: nothing listens there
    out = tmp_path / "report"
    args = SIMULATE if command == "simulate" else [*PLAYTEST, "--out", str(out)]
    result = pnp(*args, "--scheduler", address)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"cannot reach the Dask scheduler at {address}: ")
    assert lines[0].endswith("after 10 s")          # the connect timeout bounds the wait
    assert not out.exists()                         # no half-written report


def test_a_malformed_scheduler_address_is_one_message_exit_2():
    result = pnp(*SIMULATE, "--scheduler", "no-port-here")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "cannot reach the Dask scheduler at no-port-here: missing port number in address "
        "'no-port-here'"]


def test_a_scheduler_without_workers_is_reported_as_such():
    child = python("""
        from distributed import LocalCluster
        from pnp.engines.cluster import ClusterError, connect

        if __name__ == "__main__":
            with LocalCluster(n_workers=0, processes=False, protocol="tcp://",
                              dashboard_address=":0") as cluster:
                print(cluster.scheduler_address)
                try:
                    connect(cluster.scheduler_address, timeout=1)
                except ClusterError as error:
                    print(error.code, error.exit_code)
                    print(error.format_message())
    """)
    assert child.returncode == 0, child.stderr
    address, code, message = child.stdout.splitlines()
    assert code == "cluster.no-workers 2"
    assert message == (f"the Dask scheduler at {address} has no worker after 1 s: start some "
                       f"with `dask worker {address}`")


def test_a_worker_with_another_pnp_is_refused_before_any_game(tmp_path):
    """A worker whose pnp is another version (a fake pnp 0.0.1 distribution first on its
    path): without the check, a worker that cannot read the tasks makes the run wait for ever."""
    other = tmp_path / "other" / "pnp-0.0.1.dist-info"
    other.mkdir(parents=True)
    (other / "METADATA").write_text("Metadata-Version: 2.1\nName: pnp\nVersion: 0.0.1\n")
    preload = tmp_path / "older_pnp.py"
    preload.write_text(f"import sys\nsys.path.insert(0, {str(other.parent)!r})\n")
    child = python("""
        import sys
        from importlib.metadata import version
        from distributed import LocalCluster
        from pnp.engines.cluster import ClusterError, connect

        if __name__ == "__main__":
            with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                              dashboard_address=":0", preload=[sys.argv[1]]) as cluster:
                print(version("pnp"))
                try:
                    connect(cluster.scheduler_address, timeout=10)
                except ClusterError as error:
                    print(error.code)
                    print(error.format_message())
    """, str(preload))
    assert child.returncode == 0, child.stderr
    ours, code, message = child.stdout.splitlines()
    assert code == "cluster.worker-pnp"
    assert message.startswith("workers of the Dask scheduler at tcp://")
    assert f"do not have pnp {ours} (tcp://" in message
    assert message.endswith(": 0.0.1): install the same pnp on every worker")


def test_without_the_cluster_extra_the_message_names_the_install():
    """`distributed` made unimportable (as when the extra is not installed)."""
    child = python("""
        import sys
        sys.modules["distributed"] = None          # import distributed -> ImportError
        from pnp.cli import main
        main(sys.argv[1:], prog_name="pnp")
    """, *SIMULATE, "--scheduler", "tcp://127.0.0.1:1")
    assert child.returncode == 2
    assert child.stdout == ""
    assert "Traceback" not in child.stderr
    lines = child.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("--scheduler needs Dask distributed (")
    assert lines[0].endswith(": pip install 'pnp[cluster]'")


def test_dask_is_imported_only_when_a_scheduler_is_named():
    child = python("""
        import sys
        import pnp.cli
        loaded = [m for m in sys.modules if m.split(".")[0] in ("dask", "distributed")]
        from click.testing import CliRunner
        result = CliRunner().invoke(pnp.cli.main, ["simulate", "zombie-run", "--games", "4"])
        assert result.exit_code == 0, result.output
        loaded += [m for m in sys.modules if m.split(".")[0] in ("dask", "distributed")]
        print(sorted(set(loaded)))
    """)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "[]"
