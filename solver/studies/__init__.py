"""Win-rate studies: many seeds of one variant -> one row per deal, resumable.

``ranges`` (which seeds), ``journal`` (the rows on disk), ``worker`` (solving a chunk
of seeds), ``executors`` (this process, a process pool, or Dask), ``runner`` (the
driver), ``table`` (the rows as a DataFrame and CSV, what reports read).
"""


class BatchError(ValueError):
    """Bad seeds, a bad output path, or a journal that does not fit the study."""


from .executors import QUIET_DASK, local_cluster  # noqa: E402
from .journal import read_journal  # noqa: E402
from .ranges import parse_seeds  # noqa: E402
from .runner import BatchSummary, no_peek_player, run_batch, stop_on_sigterm  # noqa: E402
from .table import load_study, rows_frame  # noqa: E402

__all__ = ["BatchError", "BatchSummary", "QUIET_DASK", "load_study", "local_cluster", "no_peek_player", "parse_seeds",
           "read_journal", "rows_frame", "run_batch", "stop_on_sigterm"]
