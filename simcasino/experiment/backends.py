"""Where chunks are played: in this process, on local worker processes, or on a Dask cluster.

Every backend is a `concurrent.futures.Executor`, so the runner has one loop for all of them.
The results do not depend on the backend: a chunk is a pure function of (plan, chunk index).

- inline: this process, chunk after chunk (numba threads inside a chunk); for one worker,
  `simcasino.compare`, and tests.
- local processes (the default): ``workers`` processes, one numba thread each, forked from a
  fork server that imported the engine once (spawned where there is none), never forked from
  this process: forking a process whose numba thread pool is running is unsafe.
- Dask (opt-in, ``pip install simcasino[dask]``): an existing scheduler (``tcp://host:8786``,
  its workers need simcasino installed) or a local cluster of N processes started here.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any


class InlineExecutor(Executor):
    """Runs each task at once in this process; its futures are already done."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:  # handed to the caller through the future, as executors do
            future.set_exception(err)
        return future


def default_workers() -> int:
    """All cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@contextmanager
def open_executor(
    workers: int | None = None, scheduler: str | None = None, dask_local: int | None = None
) -> Iterator[tuple[Executor, int]]:
    """The executor for these options and how many chunks it runs at once."""
    if scheduler is not None and dask_local is not None:
        raise ValueError("give --scheduler or --dask-local, not both")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1; got {workers}")
    if scheduler is not None or dask_local is not None:
        with _dask(scheduler, dask_local) as opened:
            yield opened
        return
    count = workers or default_workers()
    if count == 1:
        yield InlineExecutor(), 1
        return
    pool = ProcessPoolExecutor(
        count, mp_context=_worker_context(), initializer=watch_parent, initargs=(os.getpid(),)
    )
    try:
        yield pool, count
    except KeyboardInterrupt:
        _stop_workers(pool)
        raise
    finally:  # on Ctrl-C or an early stop, queued chunks are dropped, not played to the end
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Ctrl-C: stop the workers at once. Why not wait for the chunks they are playing: the
    runner stores a chunk as it comes back and has stopped listening, so they would be thrown
    away after a silent wait (measured: 12 s with the search's chunks); every chunk stored is
    kept, and the resumed run plays the rest."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def watch_parent(parent: int, every: float = 1.0) -> None:
    """A worker's watch on the process that started the run: once it is gone (``kill -9``, a
    closed terminal) the worker exits, and with the workers gone the fork server and the
    resource tracker end too, instead of staying alive as orphans. (The workers' parent is
    the fork server, so the kernel's parent-death signal would not reach them.)"""

    def watch() -> None:
        while True:
            time.sleep(every)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # the pid was taken by another user's process: ours is gone
                os._exit(1)

    signal.signal(
        signal.SIGINT, signal.SIG_IGN
    )  # Ctrl-C is the parent's to handle: it keeps what is stored
    threading.Thread(target=watch, name="simcasino-watch-parent", daemon=True).start()


def _worker_context() -> multiprocessing.context.BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["simcasino.experiment.chunk"])  # workers start with it imported
    return context


@contextmanager
def _dask(scheduler: str | None, local: int | None) -> Iterator[tuple[Executor, int]]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError(
            "the Dask backend needs dask.distributed: pip install 'simcasino[dask]'"
        ) from None
    if local is not None and local < 1:
        raise ValueError(f"--dask-local needs at least 1 worker; got {local}")
    cluster = (
        LocalCluster(n_workers=local, threads_per_worker=1, dashboard_address=None)
        if local
        else None
    )
    try:
        client = Client(cluster if cluster else scheduler, timeout="20s")
    except OSError as err:
        raise ValueError(f"cannot reach the Dask scheduler {scheduler}: {err}") from None
    try:
        threads = sum(client.nthreads().values())
        yield client.get_executor(), max(1, threads)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
