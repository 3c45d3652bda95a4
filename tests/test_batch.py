"""Batch studies (README "Win-rate studies"): rows against solve(), resume after kill -9, torn lines,
refusal to mix studies, the same rows from a Dask LocalCluster, and one-line errors."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from solver.deals import deal_from_seed, deal_to_json
from solver.options import variant_name
from solver.solve import solve
from solver.studies import BatchError, load_study, local_cluster, parse_seeds, read_journal, run_batch
from solver.studies.journal import write_packed
from tests.helpers import kill_9_once_written
from tests.test_cli import assert_one_line_error, run, runner  # noqa: F401 - fixture

NODES = 100_000   # a node limit, not a time limit, so that every field but seconds is deterministic
DETERMINISTIC = ["seed", "verdict", "nodes", "line_length", "reason"]


def table(path):
    frame = load_study(path)
    return frame[DETERMINISTIC].sort_values("seed").reset_index(drop=True)


def study(tmp_path, name, seeds="1-30", options=None, **kw):
    out = tmp_path / f"{name}.jsonl"
    kw.setdefault("jobs", 1)
    kw.setdefault("max_nodes", NODES)
    run_batch("pyramid", seeds, options or {}, out=out, progress=False, **kw)
    return out


# ---------------------------------------------------------------------------
# rows
# ---------------------------------------------------------------------------
def test_rows_agree_with_solving_each_deal_and_the_csv_is_read_by_pandas(tmp_path):
    out = study(tmp_path, "s", "1-25", {"passes": 3})
    frame = pd.read_csv(out.with_suffix(".csv"))
    assert list(frame["seed"]) == list(range(1, 26))
    for row in frame.itertuples():
        r = solve(deal_from_seed("pyramid", row.seed, {"passes": 3}), max_nodes=NODES, time_limit=10)
        assert (row.verdict, row.nodes, row.line_length) == (r.verdict, r.nodes, len(r.moves))
    assert set(frame["variant"]) == {"pyramid piles=1 passes=3 stock_top=false"}
    # the journal lines are FORMATS.md result objects: a won row carries a line that wins
    from solver.moves import Move
    from solver.replay import replay
    from tests.helpers import rules
    won = [json.loads(x) for x in out.read_text().splitlines() if '"won"' in x]
    assert won
    for row in won[:5]:
        deal = deal_from_seed(row["game"], row["seed"], row["options"])
        pos, bad = replay(deal, [Move.from_json(m) for m in row["moves"]])
        assert bad is None and rules("pyramid").is_won(pos)


def test_twenty_study_has_one_row_per_seed(tmp_path):
    out = tmp_path / "t.jsonl"
    run_batch("twenty", "1-6", out=out, jobs=1, max_nodes=NODES, progress=False, lines=False)
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == list(range(1, 7))
    assert all("moves" not in r and r["line_length"] >= 0 for r in rows)


# ---------------------------------------------------------------------------
# resume
# ---------------------------------------------------------------------------
def test_kill_9_mid_run_then_resume_gives_the_uninterrupted_table(tmp_path):
    seeds = "1-300"
    reference = study(tmp_path, "reference", seeds)
    out = tmp_path / "killed.jsonl"
    cmd = [sys.executable, "-c", "from solver.cli import main; main()", "batch", "pyramid", "--seeds", seeds,
           "--max-nodes", str(NODES), "--jobs", "2", "--chunk", "3", "--quiet", "--out", str(out)]
    written = kill_9_once_written(cmd, out, 30, Path(__file__).resolve().parents[1])
    assert 30 <= written < 300
    # resume with the same command (in this process, one job)
    summary = run_batch("pyramid", seeds, {}, out=out, jobs=1, max_nodes=NODES, progress=False)
    assert summary.complete and summary.deals == 300 and summary.new == 300 - written
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == list(range(1, 301))   # none lost, none twice
    pd.testing.assert_frame_equal(table(out), table(reference))
    pd.testing.assert_frame_equal(table(out.with_suffix(".csv")), table(reference))


def test_a_torn_last_line_is_dropped_and_the_deal_solved_again(tmp_path):
    out = study(tmp_path, "s", "1-10")
    first = table(out)
    whole = out.read_bytes()
    lines = whole.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])   # cut mid-line, as a crash would
    journal = read_journal(out)
    assert journal.torn and len(journal.rows) == 9
    summary = run_batch("pyramid", "1-12", {}, out=out, jobs=1, max_nodes=NODES, progress=False)
    assert summary.new == 3 and summary.deals == 12
    rows = [json.loads(x) for x in out.read_text().splitlines()]          # every line parses
    assert sorted(r["seed"] for r in rows) == list(range(1, 13))
    pd.testing.assert_frame_equal(table(out).head(10), first)


def test_a_bad_line_inside_the_journal_is_an_error_naming_it(tmp_path):
    out = study(tmp_path, "s", "1-4")
    lines = out.read_text().splitlines()
    lines[1] = "not json"
    out.write_text("\n".join(lines) + "\n")
    with pytest.raises(BatchError, match=r"s.jsonl line 2: not a batch result row"):
        run_batch("pyramid", "1-4", {}, out=out, jobs=1, max_nodes=NODES, progress=False)


def test_a_rerun_of_a_finished_study_solves_nothing(tmp_path):
    out = study(tmp_path, "s", "1-8")
    before = out.read_bytes()
    summary = run_batch("pyramid", "1-8", {}, out=out, jobs=1, max_nodes=NODES, progress=False)
    assert summary.new == 0 and summary.complete and out.read_bytes() == before


# ---------------------------------------------------------------------------
# the packed journal: a study carried between machines and sessions
# ---------------------------------------------------------------------------
def test_a_packed_journal_is_sorted_and_gzipped_and_the_same_whoever_finished_first(tmp_path):
    import gzip

    one = study(tmp_path, "one", "1-20", pack=True)
    two = tmp_path / "two.jsonl"
    run_batch("pyramid", "11-20", {}, out=two, jobs=1, max_nodes=NODES, progress=False)
    run_batch("pyramid", "1-20", {}, out=two, jobs=1, max_nodes=NODES, progress=False, pack=True)
    assert [json.loads(x)["seed"] for x in two.read_text().splitlines()][:3] == [11, 12, 13]
    packed = [gzip.decompress(Path(str(p) + ".gz").read_bytes()).splitlines() for p in (one, two)]
    assert [json.loads(x)["seed"] for x in packed[1]] == list(range(1, 21))
    strip = [[{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in lines] for lines in packed]
    assert strip[0] == strip[1]
    assert Path(str(one) + ".gz").stat().st_size < one.stat().st_size / 3
    # the same rows give the same bytes, whatever the file is called and whenever it is written
    copy = tmp_path / "elsewhere" / "copy.jsonl"
    copy.parent.mkdir()
    copy.write_bytes(one.read_bytes())
    time.sleep(1.1)
    assert write_packed(copy).read_bytes() == Path(str(one) + ".gz").read_bytes()


def test_a_fresh_clone_with_only_the_packed_journal_goes_on_from_it(tmp_path):
    reference = study(tmp_path, "reference", "1-40")
    out = study(tmp_path, "s", "1-25", pack=True)
    out.unlink()
    out.with_suffix(".csv").unlink()                     # as a clone has it: the packed copy only
    summary = run_batch("pyramid", "1-40", {}, out=out, jobs=1, max_nodes=NODES, progress=False, pack=True)
    assert (summary.unpacked, summary.new, summary.deals) == (25, 15, 40)
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == list(range(1, 41))     # none lost, none twice
    pd.testing.assert_frame_equal(table(out), table(reference))
    pd.testing.assert_frame_equal(table(Path(str(out) + ".gz")), table(reference))   # load_study reads it


def test_a_journal_lacking_seeds_of_its_packed_copy_gets_them_without_solving_them(tmp_path):
    out = study(tmp_path, "s", "1-30", pack=True)
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:10]))                   # another machine's journal: a part of the study
    summary = run_batch("pyramid", "1-30", {}, out=out, jobs=1, max_nodes=NODES, progress=False)
    assert (summary.unpacked, summary.new, summary.deals) == (20, 0, 30)
    assert sorted(json.loads(x)["seed"] for x in out.read_text().splitlines()) == list(range(1, 31))


def test_a_packed_journal_of_another_study_or_cut_short_is_refused(tmp_path):
    out = study(tmp_path, "s", "1-6", pack=True)
    packed = Path(str(out) + ".gz")
    (tmp_path / "other.jsonl.gz").write_bytes(packed.read_bytes())
    with pytest.raises(BatchError, match="passes=3"):
        run_batch("pyramid", "1-6", {"passes": 3}, out=tmp_path / "other.jsonl", jobs=1, max_nodes=NODES,
                  progress=False)
    (tmp_path / "cut.jsonl.gz").write_bytes(packed.read_bytes()[:-20])
    with pytest.raises(BatchError, match="cut.jsonl.gz: not a packed journal"):
        run_batch("pyramid", "1-6", {}, out=tmp_path / "cut.jsonl", jobs=1, max_nodes=NODES, progress=False)
    with pytest.raises(BatchError, match="--out names the journal"):
        run_batch("pyramid", "1-6", {}, out=packed, jobs=1, max_nodes=NODES, progress=False)


@pytest.mark.parametrize("change, what", [
    ({"options": {"passes": 3}}, "passes=3"),
    ({"max_nodes": 5000}, "max_nodes=5000"),
    ({"time_limit": 5.0}, "time_limit=5.0"),
])
def test_a_journal_of_other_options_or_limits_is_refused(tmp_path, change, what):
    out = study(tmp_path, "s", "1-5")
    before = out.read_bytes()
    kw = {"options": {}, "max_nodes": NODES, **change}
    with pytest.raises(BatchError, match=f"line 1: the journal holds pyramid .* not pyramid .*{what}"):
        run_batch("pyramid", "1-10", kw.pop("options"), out=out, jobs=1, progress=False, **kw)
    assert out.read_bytes() == before


def test_a_journal_in_use_by_another_run_is_refused(tmp_path):
    import fcntl
    out = tmp_path / "s.jsonl"
    with open(out, "ab") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        with pytest.raises(BatchError, match="another batch run is writing this journal"):
            run_batch("pyramid", "1-3", out=out, jobs=1, progress=False)


# ---------------------------------------------------------------------------
# Dask
# ---------------------------------------------------------------------------
def test_a_dask_local_cluster_gives_the_rows_of_the_local_pool(tmp_path):
    distributed = pytest.importorskip("distributed")
    pool = study(tmp_path, "pool", "1-60", jobs=2)
    trim_before = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    with local_cluster(2) as cluster, distributed.Client(cluster) as client:
        # the quiet settings reached the worker processes
        assert client.run(lambda: __import__("dask").config.get("distributed.worker.profile.enabled")) \
            == dict.fromkeys(client.nthreads(), False)
        # and glibc keeps its sliding mmap threshold in them (no MALLOC_TRIM_THRESHOLD_)
        # (Dask's nannies also write their settings into this process's environment)
        assert client.run(lambda: __import__("os").environ.get("MALLOC_TRIM_THRESHOLD_")) \
            == dict.fromkeys(client.nthreads(), trim_before)
        # a study of one deal: one task, yet every worker has loaded the kernels, as pool
        # workers do before their first deal
        run_batch("pyramid", "1", {}, out=tmp_path / "one.jsonl", scheduler=client, max_nodes=NODES,
                  progress=False)
        warm = client.run(lambda: sorted(__import__("solver.studies.worker", fromlist=["_WARM"])._WARM))
        summary = run_batch("pyramid", "1-60", {}, out=tmp_path / "dask.jsonl", scheduler=client,
                            max_nodes=NODES, progress=False)
    assert len(warm) == 2 and all([game for game, _ in loaded] == ["pyramid"] for loaded in warm.values())
    assert summary.complete and summary.new == 60
    pd.testing.assert_frame_equal(table(tmp_path / "dask.csv"), table(pool))


def test_an_unreachable_scheduler_is_a_one_line_error(runner, tmp_path):  # noqa: F811
    pytest.importorskip("distributed")
    result = run(runner, "batch", "pyramid", "--seeds", "1-3", "--out", tmp_path / "s.jsonl", "--quiet",
                 "--scheduler", "tcp://127.0.0.1:1")
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in assert_one_line_error(result)


# ---------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------
def test_batch_command_writes_the_study_and_prints_its_table(runner, tmp_path):  # noqa: F811
    out = tmp_path / "s.jsonl"
    result = run(runner, "batch", "pyramid", "--seeds", "1-12", "--passes", "unlimited", "--jobs", "1",
                 "--max-nodes", NODES, "--quiet", "--out", out)
    assert result.exit_code == 0, result.stderr
    assert "pyramid piles=1 passes=unlimited stock_top=false" in result.stdout
    assert len(load_study(out.with_suffix(".csv"))) == 12


@pytest.mark.parametrize("args, message", [
    (["--seeds", "10-1"], "seeds '10-1': the range runs backwards (10 > 1)"),
    (["--seeds", "a-b"], "seeds 'a-b': expected N or A-B"),
    (["--seeds", "1-18446744073709551616"], "seeds run from 0 to 2**64-1"),
    (["--seeds", "1-3", "--draw", "3"], "pyramid: option --draw does not apply"),
])
def test_bad_seeds_and_options_are_one_line_errors(runner, tmp_path, args, message):  # noqa: F811
    result = run(runner, "batch", "pyramid", *args, "--out", tmp_path / "s.jsonl", "--quiet")
    assert message in assert_one_line_error(result)


def test_bad_output_paths_are_one_line_errors(runner, tmp_path):  # noqa: F811
    (tmp_path / "afile").write_text("")
    for out, message in [(tmp_path, "is a directory"), (tmp_path / "afile" / "s.jsonl", "is not a directory"),
                         (tmp_path / "s.csv", "--out names the journal"),
                         (tmp_path / "s.jsonl.gz", "not its packed copy")]:
        result = run(runner, "batch", "pyramid", "--seeds", "1-3", "--out", out, "--quiet")
        assert message in assert_one_line_error(result)


def test_a_bad_out_is_said_before_the_solver_is_loaded(runner, tmp_path, monkeypatch):  # noqa: F811
    import solver.studies.worker as worker

    monkeypatch.setattr(worker, "_warm", lambda *a: pytest.fail("the solver was loaded before --out was checked"))
    result = run(runner, "batch", "pyramid", "--seeds", "1-3", "--out", tmp_path / "s.jsonl.gz", "--quiet")
    assert "not its packed copy" in assert_one_line_error(result)


def test_a_study_in_a_new_folder_makes_the_folder(runner, tmp_path):  # noqa: F811
    out = tmp_path / "studies" / "new" / "p.jsonl"
    result = run(runner, "batch", "pyramid", "--seeds", "1-3", "--max-nodes", NODES, "--out", out, "--quiet")
    assert result.exit_code == 0, result.stderr
    assert len(out.read_text().splitlines()) == 3 and out.with_suffix(".csv").exists()


def test_resuming_with_other_options_on_the_command_line_is_refused(runner, tmp_path):  # noqa: F811
    out = study(tmp_path, "s", "1-3")
    result = run(runner, "batch", "pyramid", "--seeds", "1-5", "--piles", "3", "--max-nodes", NODES,
                 "--out", out, "--quiet")
    assert "the journal holds pyramid piles=1" in assert_one_line_error(result)


def test_parse_seeds_merges_ranges():
    assert parse_seeds("1-3,2-5, 9,7-8") == [(1, 5), (7, 9)]
    assert parse_seeds("0") == [(0, 0)]


def test_a_row_is_the_formats_result_object():
    from solver.studies.worker import make_row
    limits = {"max_nodes": NODES, "time_limit": None, "memory_mb": 1024.0}
    for seed in (1, 2, 6):
        result = solve(deal_from_seed("pyramid", seed, {"passes": 3}), max_nodes=NODES)
        expected = result.to_json()
        row = make_row(result, limits, lines=True)
        assert {k: v for k, v in row.items() if k not in ("line_length", "limits")} == expected
        assert list(row)[:4] == ["game", "options", "seed", "verdict"]
        assert row["line_length"] == len(result.moves) and row["limits"] == limits
        short = make_row(result, limits, lines=False)
        assert "moves" not in short and "deal" not in short


def test_a_study_of_another_tools_seeds_names_them(tmp_path):
    """Solvitaire's deal 3 is not our deal 3: the rows say whose number it is, the
    variant says so too, and a journal of our seeds refuses to take them."""
    from solver.seeds import deal_from_tool_seed
    opts = {"draw": 3, "passes": None, "foundation_to_tableau": True}
    out = tmp_path / "solvitaire.jsonl"
    run_batch("klondike", "1-3", opts, out=out, max_nodes=NODES, time_limit=None, jobs=1, progress=False,
              seed_type="solvitaire")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed_type"] for r in rows] == ["solvitaire"] * 3
    for r in rows:
        deal = deal_from_tool_seed("klondike", r["seed"], "solvitaire", opts)
        assert r["deal"] == deal_to_json(deal)
    frame = load_study(out)
    assert set(frame["variant"]) == {variant_name("klondike", opts) + ", solvitaire seeds"}
    with pytest.raises(BatchError, match="seed type"):
        run_batch("klondike", "4", opts, out=out, max_nodes=NODES, time_limit=None, jobs=1, progress=False)
    with pytest.raises(BatchError, match="does not number pyramid deals"):
        run_batch("pyramid", "1", {}, out=tmp_path / "p.jsonl", jobs=1, progress=False, seed_type="solvitaire")


def test_a_file_that_is_not_a_journal_is_never_cut(tmp_path):
    out = tmp_path / "notes.txt"
    out.write_text("my notes, no newline at the end")
    with pytest.raises(BatchError, match="notes.txt line 1: not a batch result row"):
        run_batch("pyramid", "1-3", out=out, jobs=1, progress=False)
    assert out.read_text() == "my notes, no newline at the end"


def test_zero_bytes_after_a_power_cut_count_as_a_torn_line(tmp_path):
    out = study(tmp_path, "s", "1-4")
    with open(out, "ab") as fh:
        fh.write(b'{"game":"pyr\0\0\0\0')
    journal = read_journal(out)
    assert journal.torn and len(journal.rows) == 4 and journal.good_bytes < out.stat().st_size


def test_readme_exports_the_quiet_dask_settings_for_remote_workers():
    """README's `export DASK_...` line sets, in a new process, every value of QUIET_DASK."""
    pytest.importorskip("distributed")
    import shlex

    from solver.studies import QUIET_DASK
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    block = readme.split("export DASK_", 1)[1].split("\n```", 1)[0]
    words = shlex.split(("DASK_" + block).replace("\\\n", " "))
    env = {**os.environ, **dict(w.split("=", 1) for w in words)}
    env.pop("MALLOC_TRIM_THRESHOLD_", None)
    code = ("import dask, distributed, json, sys; print(json.dumps("
            "{k: dask.config.get(k) for k in json.loads(sys.argv[1])}))")
    out = subprocess.run([sys.executable, "-c", code, json.dumps(list(QUIET_DASK))], env=env,
                         capture_output=True, text=True, check=True).stdout
    # compared as text: the environment gives "1s" and False as Dask parses them
    assert {k: str(v) for k, v in json.loads(out).items()} == {k: str(v) for k, v in QUIET_DASK.items()}
