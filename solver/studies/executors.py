"""Where a study's chunks are solved: in this process, a local process pool or a Dask
cluster, behind one small interface (``submit``, ``close``, ``workers``)."""

from __future__ import annotations

import os

from . import BatchError
from .worker import _warm, _worker_init


class _InProcess:
    """--jobs 1: solve in this process (no pickling, no pool start-up)."""

    workers = 1

    def submit(self, fn, *args):
        from concurrent.futures import Future
        fut = Future()
        try:
            fut.set_result(fn(*args))
        except BaseException as err:  # noqa: BLE001 - handed to the caller like a pool would
            fut.set_exception(err)
        return fut

    def close(self, abort=False):
        pass


class _Pool:
    def __init__(self, jobs: int):
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        # forkserver/spawn: workers do not inherit the journal's file (nor its lock)
        method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        self.pool = ProcessPoolExecutor(jobs, mp_context=mp.get_context(method), initializer=_worker_init,
                                        initargs=(os.getpid(),))
        self.workers = jobs

    def submit(self, fn, *args):
        return self.pool.submit(fn, *args)

    def close(self, abort=False):
        if abort:
            for proc in list(getattr(self.pool, "_processes", {}).values()):
                proc.terminate()  # a worker mid-deal would otherwise finish it first
        self.pool.shutdown(wait=not abort, cancel_futures=True)


class _Dask:
    def __init__(self, scheduler):
        try:
            from distributed import Client
        except ImportError:
            raise BatchError("--scheduler needs Dask: pip install 'solitaire-solver[cluster]'") from None
        if not isinstance(scheduler, Client):
            _check_reachable(scheduler)
        try:
            self.client = scheduler if isinstance(scheduler, Client) else Client(scheduler, timeout="30s")
        except (OSError, TimeoutError, ValueError) as err:
            raise BatchError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
        self.own = not isinstance(scheduler, Client)
        threads = sum(self.client.nthreads().values())
        if not threads:
            try:
                self.client.wait_for_workers(1, timeout=60)
            except (TimeoutError, OSError):
                self.close()
                raise BatchError(f"no Dask worker joined the scheduler at {scheduler} within 60 s") from None
            threads = sum(self.client.nthreads().values())
        self.workers = max(1, threads)

    def warm(self, game: str, options: dict) -> None:
        """Load the kernels on every worker at once, as the pool's first chunks do: a
        worker that gets its first task late would otherwise load them mid-study."""
        try:
            self.client.run(_warm, game, options)
        except ImportError as err:
            raise _worker_without_package(err) from None

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def close(self, abort=False):
        if self.own:
            self.client.close()


# Dask's own periodic work, made rarer: on a machine whose every core solves, an idle
# LocalCluster took a share of a core worth having back (benchmarks/results.md). With
# the defaults each worker samples its threads' stacks every 10 ms
# for the dashboard's profiles, every server checks its event loop every 20 ms and
# its own CPU and memory every 0.5 s, and
# the scheduler looks for work to steal every 100 ms. A study needs none of them:
# its tasks are chunks of deals the scheduler hands to whichever worker is free.
# The same settings as environment variables, for `dask scheduler` and `dask worker`
# on other machines, are in README.md.


QUIET_DASK = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.scheduler.work-stealing": False,
    # Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536. Setting it turns
    # off glibc's sliding mmap threshold, so every search's arrays (a 0.5 MB table,
    # the stacks) are mapped afresh and page-faulted in, deal after deal: short deals
    # ran slower with it (benchmarks/results.md). None leaves it unset.
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}


def local_cluster(workers: int | None = None, **kwargs):
    """A Dask ``LocalCluster`` for studies: one single-threaded worker process per core
    (the kernels hold the GIL), no dashboard, and :data:`QUIET_DASK`. Pass it (or a
    ``Client`` of it) as ``scheduler=`` to :func:`run_batch`."""
    try:
        import dask
        from distributed import LocalCluster
    except ImportError:
        raise BatchError("a Dask cluster needs Dask: pip install 'solitaire-solver[cluster]'") from None
    options = {"n_workers": workers or os.cpu_count() or 1, "threads_per_worker": 1, "processes": True,
               "dashboard_address": None, **kwargs}
    with dask.config.set(QUIET_DASK):   # read as the scheduler and the workers start
        return LocalCluster(**options)


def _worker_without_package(err: ImportError) -> BatchError:
    return BatchError(f"a worker cannot run the solver ({err}); install solitaire-solver on every worker")


def _check_reachable(address: str) -> None:
    """Fail at once on a refused TCP address (Dask's client would retry for its whole timeout)."""
    import socket

    text = str(address)
    if "://" in text:
        scheme, text = text.split("://", 1)
        if scheme not in ("tcp", "tls"):
            return   # other transports: let Dask judge
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise BatchError(f"bad Dask scheduler address {address!r} (expected tcp://HOST:PORT)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as err:
        raise BatchError(f"cannot reach the Dask scheduler at {address}: {err.strerror or err}") from None
