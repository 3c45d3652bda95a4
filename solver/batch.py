"""Win-rate studies: many seeds of one variant -> one row per deal, resumable.

The study lives in a *journal*: a JSON Lines file of FORMATS.md result objects
(with the added fields ``line_length``, ``limits`` and, for another tool's seed
numbers, ``seed_type``; ``--no-lines`` leaves out ``moves`` and ``deal`` to keep
a study of millions of deals small), one line per finished deal, appended in
the order deals finish. Why a journal:

* a row is written (one ``write`` per group of rows) as soon as its group of
  deals comes back, so killing the run, even with ``kill -9``, loses at most the
  deals still being solved (written data outlives the process); ``fsync`` at
  most once a second bounds what a crash of the machine itself can lose;
* resuming is reading the journal: finished seeds are skipped, a torn last line
  (a write cut by a crash of the machine) is dropped and cut off the file, so no
  deal is lost or solved twice;
* only the main process writes; workers return text, so a worker cannot tear
  or interleave a line.

When every seed is done, the rows (sorted by seed) are also written as CSV next
to the journal (``study.jsonl`` -> ``study.csv``), which pandas reads.

Rows are deterministic apart from ``seconds``: with a node limit every field
but ``seconds`` is a function of (game, options, seed, limits); with a time
limit, a deal near the limit may come out ``unknown`` on a slower run.

Deals are solved in groups ("chunks") sized so that one chunk takes about
:data:`CHUNK_SECONDS`: pyramid deals take ~1 ms, so a chunk holds up to
:data:`MAX_CHUNK` of them and the cost of shipping it is spread over many deals;
a Klondike deal of seconds goes alone. The same driver feeds a local process
pool or a Dask cluster (``scheduler=``); both call :func:`solve_chunk`.
"""

from __future__ import annotations

import json
import math
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .deals import MASK64, DealError, deal_to_json
from .options import OptionError, resolve, variant_name

DEFAULT_TIME_LIMIT = 10.0
DEFAULT_MEMORY_MB = 1024
CHUNK_SECONDS = 0.2      # target solve time per chunk
MAX_CHUNK = 256
FIRST_CHUNK = 2          # before any deal has come back, the speed is unknown
IN_FLIGHT_PER_WORKER = 2  # chunks queued per worker, so none waits for the main process
FSYNC_SECONDS = 1.0      # rows reach the disk at least this often (~6 ms per fsync here)

CSV_COLUMNS = ["game", "variant", "options", "seed", "seed_type", "verdict", "nodes", "seconds", "line_length", "reason",
               "max_nodes", "time_limit", "memory_mb"]


class BatchError(ValueError):
    """Bad seeds, a bad output path, or a journal that does not fit the study."""


# --------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------
def parse_seeds(text: str) -> list[tuple[int, int]]:
    """``"1-100,200,300-310"`` -> merged inclusive ranges ``[(1, 100), (200, 200), (300, 310)]``.

    >>> parse_seeds("5-9,1-6,20")
    [(1, 9), (20, 20)]
    >>> parse_seeds("10-1")
    Traceback (most recent call last):
    ...
    solver.batch.BatchError: seeds '10-1': the range runs backwards (10 > 1)
    """
    ranges = []
    if not isinstance(text, str) or not text.strip():
        raise BatchError("seeds: give a range such as 1-1000")
    for part in text.split(","):
        part = part.strip()
        lo_text, dash, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if dash else lo
        except ValueError:
            raise BatchError(f"seeds {part!r}: expected N or A-B with whole numbers (e.g. 1-1000)") from None
        if lo < 0 or hi > MASK64:
            raise BatchError(f"seeds {part!r}: seeds run from 0 to 2**64-1")
        if lo > hi:
            raise BatchError(f"seeds {part!r}: the range runs backwards ({lo} > {hi})")
        ranges.append((lo, hi))
    ranges.sort()
    merged = [ranges[0]]
    for lo, hi in ranges[1:]:
        if lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


def _as_ranges(seeds) -> list[tuple[int, int]]:
    if isinstance(seeds, str):
        return parse_seeds(seeds)
    if isinstance(seeds, range) and seeds.step == 1:
        return parse_seeds(f"{seeds.start}-{seeds.stop - 1}") if len(seeds) else []
    return parse_seeds(",".join(str(int(s)) for s in seeds)) if seeds else []


def _count(ranges) -> int:
    return sum(hi - lo + 1 for lo, hi in ranges)


# --------------------------------------------------------------------------
# What one worker does
# --------------------------------------------------------------------------
_WARM: set = set()


def _warm(game: str, options: dict) -> None:
    """Load (or compile) the game's kernels before the first timed deal of this process,
    so that compile time never eats a deal's time limit."""
    key = (game, json.dumps(options, sort_keys=True))
    if key in _WARM:
        return
    from .deals import deal_from_seed
    from .solve import solve

    solve(deal_from_seed(game, 1, options), max_nodes=500, time_limit=None)
    _WARM.add(key)


def make_row(result, limits: dict, lines: bool, seed: int | None = None, seed_type: str = "ours") -> dict:
    """The FORMATS.md result object, plus ``line_length`` and ``limits`` (and
    ``seed_type`` with the seed number when the deal is another tool's); without
    ``lines``, no ``moves`` and no ``deal``."""
    # the fields of Result.to_json() in its order, built here so the deal is rendered only when kept
    deal = result.deal
    seed = deal.seed if seed is None else seed
    row = {"game": deal.game, "options": dict(deal.options), "seed": seed}
    if seed_type != "ours":
        row["seed_type"] = seed_type
    row["verdict"] = result.verdict
    if lines:
        row["moves"] = [m.to_json() for m in result.moves]
    row.update(nodes=result.nodes, seconds=round(result.seconds, 6))
    if result.reason:
        row["reason"] = result.reason
    if lines:
        row["deal"] = deal_to_json(deal)
    row["line_length"] = len(result.moves)
    row["limits"] = dict(limits)
    return row


def solve_chunk(game: str, options: dict, limits: dict, seeds: list[int], lines: bool,
                seed_type: str = "ours") -> tuple[str, list]:
    """Solve ``seeds``; return the journal text of their rows and (verdict, seconds) per deal."""
    from .seeds import deal_from_tool_seed
    from .solve import solve

    _warm(game, options)
    text, summary = [], []
    for seed in seeds:
        result = solve(deal_from_tool_seed(game, seed, seed_type, options), **limits)
        text.append(json.dumps(make_row(result, limits, lines, seed, seed_type), separators=(",", ":")))
        summary.append((result.verdict, result.seconds))
    return "\n".join(text) + "\n", summary


def _worker_init(main_pid: int) -> None:
    # Ctrl-C reaches the whole process group; the main process handles it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(main_pid,), daemon=True).start()


def _exit_with(main_pid: int) -> None:
    """End this worker once the main process is gone (``kill -9`` leaves no one to stop it)."""
    while True:
        time.sleep(0.5)
        try:
            os.kill(main_pid, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # pragma: no cover - the pid was reused by another user's process
            os._exit(1)


# --------------------------------------------------------------------------
# The journal
# --------------------------------------------------------------------------
@dataclass
class Journal:
    path: Path
    rows: list            # parsed rows, in file order
    good_bytes: int       # length of the file up to the last whole line
    torn: bool            # a torn last line was found (and will be cut off)


ROW_START = b'{"game"'


def _looks_torn(raw: bytes) -> bool:
    """The remains of a row cut by a crash: a prefix of a row, or the zero bytes a file
    system can leave after a power cut. Anything else is not ours to cut off."""
    frag = raw.strip(b"\0 \t\r")
    return not frag or frag.startswith(ROW_START) or ROW_START.startswith(frag)


def read_journal(path) -> Journal:
    """Read a journal; a torn last line (see :func:`_looks_torn`) is reported, not read."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Journal(path, [], 0, False)
    except OSError as err:
        raise BatchError(f"{path}: cannot read: {err.strerror}") from None
    rows, pos, torn = [], 0, False
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        if number == len(lines):     # after the last newline
            if raw and _looks_torn(raw):
                torn = True          # the write of this line was cut
                break
            if not raw:
                break
        try:
            row = json.loads(raw)
            if not isinstance(row, dict) or not {"game", "seed", "verdict"} <= set(row):
                raise ValueError("not a result row")
        except ValueError:
            is_last = number == len(lines) or number == len(lines) - 1 and not lines[-1].strip(b"\0")
            if is_last and _looks_torn(raw):
                torn = True          # the last line is a cut row (and perhaps zero bytes after it)
                break
            raise BatchError(f"{path} line {number}: not a batch result row (a JSON object with game, "
                             f"seed, verdict)") from None
        rows.append(row)
        pos += len(raw) + 1
    return Journal(path, rows, pos, torn)


def normal_limits(limits: dict) -> dict:
    """Limits in one spelling (``1024`` and ``1024.0`` MB are the same study)."""
    def number(value, kind):
        return None if value is None else kind(value)

    return {"max_nodes": number(limits.get("max_nodes"), int),
            "time_limit": number(limits.get("time_limit"), float),
            "memory_mb": number(limits.get("memory_mb", DEFAULT_MEMORY_MB), float)}


def _study_label(game, options, limits, seed_type="ours") -> str:
    lim = ", ".join(f"{k}={v}" for k, v in normal_limits(limits).items())
    return f"{variant_label(game, options, seed_type)} ({lim})"


def variant_label(game, options, seed_type="ours") -> str:
    """The variant's name; deals numbered by another tool are another study."""
    name = variant_name(game, options)
    return name if seed_type == "ours" else f"{name}, {seed_type} seeds"


def check_journal(journal: Journal, game: str, options: dict, limits: dict, seed_type: str = "ours") -> set:
    """The finished seeds; refuse a journal of another game, options, limits or seed type."""
    done = set()
    want = _study_label(game, options, limits, seed_type)
    for number, row in enumerate(journal.rows, 1):
        try:
            got_options = resolve(row["game"], row.get("options"))
            got = _study_label(row["game"], got_options, row.get("limits", {}), row.get("seed_type", "ours"))
        except (OptionError, TypeError, ValueError, AttributeError):
            got = f"{row.get('game')} {row.get('options')} {row.get('limits')}"
        if got != want:
            raise BatchError(f"{journal.path} line {number}: the journal holds {got}, not {want}; "
                             f"use another --out or the same options, limits and seed type")
        done.add(row["seed"])
    return done


def check_out_path(out) -> Path:
    out = Path(out)
    if out.suffix.lower() == ".csv":
        raise BatchError(f"{out}: --out names the journal (JSON Lines, e.g. study.jsonl); "
                         f"the CSV table is written next to it")
    if out.is_dir():
        raise BatchError(f"{out}: is a directory; --out names the journal file (e.g. {out}/study.jsonl)")
    if not out.parent.is_dir():
        raise BatchError(f"{out}: no such directory {str(out.parent)!r}")
    if out.exists() and not os.access(out, os.W_OK) or not os.access(out.parent, os.W_OK):
        raise BatchError(f"{out}: not writable")
    return out


def csv_path(out) -> Path:
    return Path(out).with_suffix(".csv")


class _Lock:
    """An exclusive lock on the journal, so that two runs never append to one study."""

    def __init__(self, fh, path):
        self.fh = fh
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no lock
            return
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise BatchError(f"{path}: another batch run is writing this journal") from None


# --------------------------------------------------------------------------
# Executors: a local process pool or a Dask cluster, behind one small interface
# --------------------------------------------------------------------------
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


# Dask's own periodic work, made rarer. On a machine whose every core solves, an
# idle LocalCluster of 2 workers took 0.18 of a core with the defaults and 0.05 with
# these (benchmarks/results.md): each worker samples its threads' stacks every 10 ms
# for the dashboard's profiles (0.04 of a core together), every server checks its
# event loop every 20 ms (0.04) and its own CPU and memory every 0.5 s (0.03), and
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
    # the stacks) are mapped afresh and page-faulted in, deal after deal: pyramid
    # deals ran 6-30 % slower with it (benchmarks/results.md). None leaves it unset.
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


# --------------------------------------------------------------------------
# The driver
# --------------------------------------------------------------------------
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


def cores() -> int:
    """The cores this process may run on (all of them unless an affinity mask says less)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _todo(ranges, done):
    for lo, hi in ranges:
        seed = lo
        while seed <= hi:
            if seed not in done:
                yield seed
            seed += 1


def run_batch(game: str, seeds, options: dict | None = None, *, out, max_nodes: int | None = None,
              time_limit: float | None = DEFAULT_TIME_LIMIT, memory_mb: float = DEFAULT_MEMORY_MB,
              jobs: int | None = None, scheduler=None, lines: bool = True, progress: bool = True,
              chunk: int | None = None, seed_type: str = "ours") -> BatchSummary:
    """Solve every seed of ``seeds`` (``"1-1000"``, a range or a list) not yet in the journal ``out``.

    ``jobs`` processes (default: all cores) or the Dask cluster at ``scheduler`` (an
    address or a ``distributed.Client``). ``chunk`` fixes the deals per task
    (default: sized to :data:`CHUNK_SECONDS`). Returns counts; the rows are in the
    journal and, once complete, in its CSV (:func:`load_study` reads either).
    """
    from .seeds import check_seed_type

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
    if out.exists():
        check_journal(read_journal(out), game, options, limits, seed_type)   # refuse before touching the file

    fh = open(out, "ab")
    try:
        _Lock(fh, out)
        journal = read_journal(out)   # again, under the lock: what no other run can change now
        done = check_journal(journal, game, options, limits, seed_type)
        wanted = _count(ranges)
        already = sum(1 for s in done if any(lo <= s <= hi for lo, hi in ranges)) if done else 0
        remaining = wanted - already
        if journal.torn or fh.tell() != journal.good_bytes:
            fh.truncate(journal.good_bytes)   # drop the torn line before appending after it
            fh.seek(journal.good_bytes)
        counts = {"won": 0, "lost": 0, "unknown": 0}
        for row in journal.rows:
            counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
        new, rate = 0, None
        if remaining:
            new, rate = _drive(game, options, limits, lines, _todo(ranges, done), remaining, wanted, fh, counts,
                               jobs, scheduler, progress, chunk, already, seed_type)
        complete = new == remaining
    finally:
        fh.close()
    table = None
    if complete:
        table = csv_path(out)
        write_csv(load_study(out), table)
    return BatchSummary(out, table, len(journal.rows) + new, new, counts["won"], counts["lost"],
                        counts["unknown"], complete, rate)


def _drive(game, options, limits, lines, todo, remaining, wanted, fh, counts, jobs, scheduler, progress,
           fixed_chunk, already, seed_type="ours") -> tuple[int, float | None]:
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
                fut = executor.submit(solve_chunk, game, options, limits, batch, lines, seed_type)
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


# --------------------------------------------------------------------------
# Reading a study back
# --------------------------------------------------------------------------
def rows_frame(rows: list):
    import pandas as pd

    records = []
    for row in rows:
        options = resolve(row["game"], row.get("options"))
        limits = row.get("limits") or {}
        records.append({
            "game": row["game"], "variant": variant_label(row["game"], options, row.get("seed_type", "ours")),
            "options": json.dumps(options, sort_keys=True), "seed": row["seed"],
            "seed_type": row.get("seed_type", "ours"), "verdict": row["verdict"],
            "nodes": row.get("nodes"), "seconds": row.get("seconds"),
            "line_length": row.get("line_length", len(row.get("moves") or [])), "reason": row.get("reason"),
            "max_nodes": limits.get("max_nodes"), "time_limit": limits.get("time_limit"),
            "memory_mb": limits.get("memory_mb"),
        })
    frame = _typed(pd.DataFrame.from_records(records, columns=CSV_COLUMNS))
    frame = frame.drop_duplicates(subset=["variant", "seed"], keep="first")   # variant names the seed type
    return frame.sort_values(["variant", "seed"], kind="stable").reset_index(drop=True)


COLUMN_TYPES = {"game": "string", "variant": "string", "options": "string", "seed": "uint64", "seed_type": "string",
                "verdict": "string", "nodes": "int64", "seconds": "float64", "line_length": "int64",
                "reason": "string", "max_nodes": "Int64", "time_limit": "float64", "memory_mb": "float64"}


def _typed(frame):
    """The same column types whether the rows came from a journal or a CSV."""
    return frame.astype({c: t for c, t in COLUMN_TYPES.items() if c in frame.columns})


def load_study(path):
    """One DataFrame (columns :data:`CSV_COLUMNS`) from a journal (``.jsonl``) or its CSV."""
    import pandas as pd

    path = Path(path)
    if not path.exists():
        raise BatchError(f"{path}: no such file")
    if path.suffix.lower() == ".csv":
        try:
            frame = pd.read_csv(path, dtype={"reason": "object", "options": "object"})
        except (ValueError, pd.errors.ParserError) as err:
            raise BatchError(f"{path}: not a study table: {err}") from None
        missing = [c for c in ("game", "variant", "seed", "verdict", "nodes", "seconds") if c not in frame]
        if missing:
            raise BatchError(f"{path}: not a study table (no column {missing[0]!r})")
        try:
            return _typed(frame)
        except (ValueError, TypeError) as err:
            raise BatchError(f"{path}: not a study table: {err}") from None
    journal = read_journal(path)
    try:
        return rows_frame(journal.rows)
    except (OptionError, DealError, KeyError) as err:
        raise BatchError(f"{path}: bad row: {err}") from None


def write_csv(frame, path) -> None:
    tmp = Path(str(path) + ".tmp")
    frame.to_csv(tmp, index=False)
    os.replace(tmp, path)   # never a half-written table


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def stop_on_sigterm() -> None:
    """``kill PID`` (SIGTERM) stops a run like Ctrl-C: the rows already written stay."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_interrupt)
