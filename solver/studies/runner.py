"""Running a study: every seed of a range not yet in the journal, on all cores or a Dask
cluster, the rows written as their chunks come back.

Deals are solved in groups ("chunks") sized so that one chunk takes about
:data:`CHUNK_SECONDS`: a chunk of deals of a millisecond holds up to
:data:`MAX_CHUNK` of them and the cost of shipping it is spread over many deals;
a Klondike deal of seconds goes alone. The same driver feeds a local process
pool or a Dask cluster (``scheduler=``); both call :func:`.worker.solve_chunk`.
When every seed is done, the rows (sorted by seed) are also written as CSV next
to the journal (``study.jsonl`` -> ``study.csv``), which pandas reads.
"""

from __future__ import annotations

import math
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..options import OptionError, resolve, variant_name
from ..engine.memory import DEFAULT_MEMORY_MB
from . import BatchError
from .executors import (_Dask, _InProcess, _Pool, _check_reachable, _worker_without_package)
from .journal import (_Lock, check_journal, check_out_path, csv_path, merge_packed, normal_limits, packed_path,
                      read_journal, write_packed)
from .ranges import (_as_ranges, _count, _todo)
from .table import (load_study, write_csv)
from .worker import (solve_chunk)

DEFAULT_TIME_LIMIT = 10.0
CHUNK_SECONDS = 0.2      # target solve time per chunk
MAX_CHUNK = 256
FIRST_CHUNK = 2          # before any deal has come back, the speed is unknown
IN_FLIGHT_PER_WORKER = 2  # chunks queued per worker, so none waits for the main process
FSYNC_SECONDS = 1.0      # rows reach the disk at least this often (an fsync costs milliseconds)


@dataclass
class BatchSummary:
    journal: Path
    table: Path | None     # the CSV, written when every seed is done
    deals: int             # rows in the journal
    new: int               # deals solved by this run
    won: int
    lost: int
    unknown: int
    complete: bool
    rate: float | None = None   # deals/s from the first group back to the last (start-up left out)
    unpacked: int = 0           # rows read from the packed journal into the journal
    packed: Path | None = None  # the packed journal written (pack=True)


def cores() -> int:
    """The cores this process may run on (all of them unless an affinity mask says less)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_batch(game: str, seeds, options: dict | None = None, *, out, max_nodes: int | None = None,
              time_limit: float | None = DEFAULT_TIME_LIMIT, memory_mb: float = DEFAULT_MEMORY_MB,
              jobs: int | None = None, scheduler=None, lines: bool = True, progress: bool = True,
              chunk: int | None = None, seed_type: str = "ours", player: dict | None = None,
              pack: bool = False) -> BatchSummary:
    """Solve every seed of ``seeds`` (``"1-1000"``, a range or a list) not yet in the journal ``out``.

    ``jobs`` processes (default: all cores) or the Dask cluster at ``scheduler`` (an
    address or a ``distributed.Client``). ``chunk`` fixes the deals per task
    (default: sized to :data:`CHUNK_SECONDS`). ``player`` (:func:`no_peek_player`) also plays
    each deal without peeking, in the same row. Returns counts; the rows are in the
    journal and, once complete, in its CSV (:func:`load_study` reads either). A packed
    journal beside ``out`` (``out`` + ``.gz``) is read into it first; ``pack`` writes it
    when the run ends (:mod:`.journal`).
    """
    from ..seeds import check_seed_type

    try:
        options = resolve(game, options)
        check_seed_type(game, seed_type)
    except OptionError as err:
        raise BatchError(str(err)) from None
    ranges = _as_ranges(seeds)
    if not ranges:
        raise BatchError("seeds: no seeds given")
    if jobs is not None and jobs < 1:
        raise BatchError(f"jobs must be at least 1, got {jobs}")
    if isinstance(scheduler, str):
        _check_reachable(scheduler)   # before the journal is touched
    limits = normal_limits({"max_nodes": max_nodes, "time_limit": time_limit, "memory_mb": memory_mb})
    out = check_out_path(out)
    # refuse before touching anything
    if out.exists():
        check_journal(read_journal(out), game, options, limits, seed_type, player)
    if packed_path(out).exists():
        check_journal(read_journal(packed_path(out)), game, options, limits, seed_type, player)

    fh = open(out, "ab")
    try:
        _Lock(fh, out)
        journal = read_journal(out)   # again, under the lock: what no other run can change now
        done = check_journal(journal, game, options, limits, seed_type, player)
        if journal.torn or fh.tell() != journal.good_bytes:
            fh.truncate(journal.good_bytes)   # drop the torn line before appending after it
            fh.seek(journal.good_bytes)
        unpacked = merge_packed(out, fh, journal, done)
        wanted = _count(ranges)
        already = sum(1 for s in done if any(lo <= s <= hi for lo, hi in ranges)) if done else 0
        remaining = wanted - already
        counts = {"won": 0, "lost": 0, "unknown": 0}
        for row in journal.rows:
            counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
        new, rate = 0, None
        if remaining:
            new, rate = _drive(game, options, limits, lines, _todo(ranges, done), remaining, wanted, fh, counts,
                               jobs, scheduler, progress, chunk, already, seed_type, player)
        complete = new == remaining
    finally:
        fh.close()
        if pack and out.exists():
            write_packed(out)   # also after Ctrl-C: what was finished is carried on
    table = None
    if complete:
        table = csv_path(out)
        write_csv(load_study(out), table)
    return BatchSummary(out, table, len(journal.rows) + new, new, counts["won"], counts["lost"],
                        counts["unknown"], complete, rate, unpacked, packed_path(out) if pack else None)


def _drive(game, options, limits, lines, todo, remaining, wanted, fh, counts, jobs, scheduler, progress,
           fixed_chunk, already, seed_type="ours", player=None) -> tuple[int, float | None]:
    """Keep every worker busy with chunks; write each chunk's rows as it comes back.
    Returns the deals solved and their rate after the first chunk came back."""
    jobs = jobs or cores()
    if scheduler is not None:
        executor = _Dask(scheduler)
        try:
            executor.warm(game, options)
        except BaseException:
            executor.close(abort=True)
            raise
    elif jobs == 1:
        executor = _InProcess()
    else:
        executor = _Pool(jobs)
    bar = None
    finished = queue.SimpleQueue()
    pending = set()   # held here: a Dask future nobody holds is cancelled
    in_flight = 0
    new = 0
    seconds_sum, seconds_n = 0.0, 0
    exhausted = False
    synced = time.monotonic()
    first_back, first_size = None, 0
    abort = True
    try:
        while True:
            while not exhausted and in_flight < executor.workers * IN_FLIGHT_PER_WORKER:
                if fixed_chunk:
                    size = fixed_chunk
                elif seconds_n:
                    size = int(CHUNK_SECONDS / max(seconds_sum / seconds_n, 1e-5))
                    size = max(1, min(MAX_CHUNK, size, math.ceil(remaining / (2 * executor.workers))))
                else:
                    size = FIRST_CHUNK
                batch = [s for _, s in zip(range(size), todo)]
                if not batch:
                    exhausted = True
                    break
                fut = executor.submit(solve_chunk, game, options, limits, batch, lines, seed_type, player)
                pending.add(fut)
                fut.add_done_callback(finished.put)
                in_flight += 1
            if not in_flight:
                break
            while True:
                try:
                    fut = finished.get(timeout=0.5)
                    break
                except queue.Empty:
                    continue
            in_flight -= 1
            pending.discard(fut)
            try:
                text, summary = fut.result()
            except ImportError as err:   # a cluster worker without this package
                raise _worker_without_package(err) from None
            fh.write(text.encode())
            fh.flush()   # in the kernel now: a killed process loses nothing written
            if time.monotonic() - synced > FSYNC_SECONDS:
                os.fsync(fh.fileno())   # on disk: a crash of the machine loses at most this long
                synced = time.monotonic()
            if first_back is None:
                first_back, first_size = time.perf_counter(), len(summary)
            new += len(summary)
            for verdict, secs in summary:
                counts[verdict] += 1
                seconds_sum += secs
                seconds_n += 1
            if progress and bar is None:
                # started at the first result, so that worker start-up does not skew deals/s
                from tqdm import tqdm
                bar = tqdm(total=wanted, initial=already, unit="deal", smoothing=0.05, mininterval=0.5,
                           desc=variant_name(game, options))
            if bar is not None:
                decided = counts["won"] + counts["lost"]
                rate = f"{100 * counts['won'] / decided:.1f}%" if decided else "-"
                bar.set_postfix_str(f"won {rate} of {decided} decided, {counts['unknown']} unknown",
                                    refresh=False)
                bar.update(len(summary))
        abort = False
        elapsed = time.perf_counter() - first_back if first_back is not None else 0.0
        rate = (new - first_size) / elapsed if elapsed > 0 and new > first_size else None
    finally:
        os.fsync(fh.fileno())
        executor.close(abort=abort)
        if bar is not None:
            bar.close()
    return new, rate


def no_peek_player(hidden: str = "tableau", settings=None) -> dict:
    """The ``player`` of :func:`run_batch` for a no-peek player at level ``hidden`` with
    ``settings`` (:class:`solver.play.Settings`; the defaults when None)."""
    from ..game import HIDDEN_LEVELS
    from ..play import Settings

    if hidden not in HIDDEN_LEVELS:
        raise BatchError(f"unknown hidden level {hidden!r} (levels: {', '.join(HIDDEN_LEVELS)})")
    return {"name": "no-peek", "hidden": hidden, **(settings or Settings()).to_json()}


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def stop_on_sigterm() -> None:
    """``kill PID`` (SIGTERM) stops a run like Ctrl-C: the rows already written stay."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_interrupt)
