"""Win-rate tables (README "Win-rate studies"): Wilson intervals, the unknown bounds, percentiles,
the four output formats, plots, and the report command."""

import io
import json
import math

import numpy as np
import pandas as pd
import pytest

from solver.report import render, summarize, wilson_interval
from solver.studies import rows_frame
from tests.test_cli import assert_one_line_error, run, runner  # noqa: F401 - fixture


def rows(game, options, verdicts, seconds=None, nodes=None):
    seconds = seconds or [0.001 * (i + 1) for i in range(len(verdicts))]
    nodes = nodes or [10 * (i + 1) for i in range(len(verdicts))]
    return [{"game": game, "options": options, "seed": i + 1, "verdict": v, "nodes": n, "seconds": s,
             "line_length": 40 if v == "won" else 0, "reason": "node_limit" if v == "unknown" else None,
             "limits": {"max_nodes": 1000, "time_limit": None, "memory_mb": 1024}}
            for i, (v, s, n) in enumerate(zip(verdicts, seconds, nodes))]


def test_wilson_interval_against_a_hand_computed_value():
    # 8 of 10, z = 1.96: centre (0.8 + 1.9208/10) / 1.38415 = 0.71674, half-width
    # 1.95996 / 1.38415 * sqrt(0.016 + 0.0096037) = 0.22658  ->  [0.49016, 0.94332]
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.49016, abs=2e-5) and high == pytest.approx(0.94332, abs=2e-5)


@pytest.mark.parametrize("k, n", [(0, 10), (3, 7), (50, 100), (999, 1000), (10, 10)])
def test_wilson_bounds_are_the_roots_of_the_score_equation(k, n):
    # the Wilson interval is {p : (k/n - p)^2 <= z^2 p (1 - p) / n}: solve that quadratic independently
    z2 = 1.959963984540054 ** 2
    ph = k / n
    roots = sorted(np.roots([1 + z2 / n, -(2 * ph + z2 / n), ph * ph]).real)
    low, high = wilson_interval(k, n)
    assert low == pytest.approx(max(0.0, roots[0]), abs=1e-9)
    assert high == pytest.approx(min(1.0, roots[1]), abs=1e-9)
    assert math.isnan(wilson_interval(0, 0)[0])


def test_summary_counts_rates_bounds_and_percentiles():
    verdicts = ["won"] * 6 + ["lost"] * 2 + ["unknown"] * 2
    seconds = [0.5, 0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 10.0, 0.05]
    frame = rows_frame(rows("pyramid", {"passes": 3}, verdicts, seconds=seconds)
                       + rows("twenty", {}, ["won", "lost", "lost", "lost"]))
    summary = summarize(frame).set_index("variant")
    p = summary.loc["pyramid piles=1 passes=3 stock_top=false"]
    assert (p.deals, p.won, p.lost, p.unknown) == (10, 6, 2, 2)
    assert p.win_rate == 6 / 8
    assert (p.ci95_low, p.ci95_high) == wilson_interval(6, 8)
    assert p.if_unknown_lost == 0.6 and p.if_unknown_won == 0.8
    assert p.median_s == pytest.approx(np.median(seconds)) and p.max_s == 10.0
    assert p.p90_s == pytest.approx(np.quantile(seconds, 0.9))
    t = summary.loc["twenty"]
    assert (t.deals, t.won, t.win_rate) == (4, 1, 0.25)


def test_grouping_by_another_column_and_a_bad_column():
    from solver.studies import BatchError
    frame = rows_frame(rows("pyramid", {}, ["won", "lost", "unknown", "lost"]))
    by_reason = summarize(frame, by=["verdict"]).set_index("verdict")
    assert by_reason.loc["lost", "deals"] == 2
    with pytest.raises(BatchError, match="cannot group by 'colour'"):
        summarize(frame, by=["colour"])


def test_the_four_formats_carry_the_same_numbers():
    summary = summarize(rows_frame(rows("pyramid", {}, ["won", "lost", "lost", "unknown"])))
    back = pd.read_csv(io.StringIO(render(summary, "csv")))
    assert back.loc[0, "won"] == 1 and back.loc[0, "win_rate"] == pytest.approx(1 / 3)
    records = json.loads(render(summary, "json"))
    assert records[0]["deals"] == 4 and records[0]["ci95_high"] == pytest.approx(wilson_interval(1, 3)[1])
    md = render(summary, "markdown").splitlines()
    assert md[0].startswith("| variant | deals | won |") and md[1].startswith("|---|")
    assert "| 33.33% |" in md[2] and len(md) == 3
    text = render(summary, "table").splitlines()
    assert text[0].split()[:3] == ["variant", "deals", "won"] and "33.33%" in text[1]


def test_plots_are_png_files(tmp_path):
    from solver.plots import plot_solve_times, plot_win_rates
    frame = rows_frame(rows("pyramid", {}, ["won", "lost", "unknown"] * 5)
                       + rows("pyramid", {"passes": 3}, ["won", "won", "lost"] * 5))
    plot_win_rates(summarize(frame), tmp_path / "w.png")
    plot_solve_times(frame, tmp_path / "t.png")
    for name in ("w.png", "t.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


def test_plots_say_what_was_measured_in_which_units():
    from solver.plots import short_label, solve_time_figure, win_rate_figure
    frame = rows_frame(rows("klondike", {"draw": 3, "passes": 3}, ["won", "lost", "unknown"] * 5)
                       + rows("pyramid", {"stock_top": True}, ["won", "won", "lost"] * 5))
    frame["time_limit"] = 10.0
    fig = solve_time_figure(frame)
    ax = fig.axes[0]
    assert "seconds" in ax.get_xlabel() and "deals" in ax.get_ylabel() and ax.get_title()
    assert ax.get_xscale() == ax.get_yscale() == "log"
    # the time limit is marked, and the legend names each variant without its options that are off
    assert [line.get_xdata()[0] for line in ax.get_lines()] == [10.0]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["klondike draw=3 passes=3 (n=15, 5 unknown)", "pyramid piles=1 passes=1 stock_top (n=15)"]
    fig = win_rate_figure(summarize(frame))
    ax = fig.axes[0]
    assert "%" in ax.get_xlabel() and ax.get_xlim() == (0, 100)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["klondike draw=3 passes=3",
                                                            "pyramid piles=1 passes=1 stock_top"]
    assert fig.get_size_inches()[0] * fig.dpi == 900
    import matplotlib.pyplot as plt
    plt.close("all")
    assert short_label("klondike draw=1 passes=1 foundation_to_tableau=false") == "klondike draw=1 passes=1"


def test_report_command_formats_and_plots(runner, tmp_path):  # noqa: F811
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows("pyramid", {}, ["won", "lost", "lost"])))
    result = run(runner, "report", path, "--format", "json", "--plot", tmp_path / "p")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["won"] == 1
    assert (tmp_path / "p-winrate.png").exists() and (tmp_path / "p-times.png").exists()
    result = run(runner, "report", path, "--format", "markdown", "--by", "game")
    assert result.stdout.startswith("| game | deals |")


def test_report_on_a_missing_or_foreign_file_is_a_one_line_error(runner, tmp_path):  # noqa: F811
    assert "no such file" in assert_one_line_error(run(runner, "report", tmp_path / "none.jsonl"))
    bad = tmp_path / "x.csv"
    bad.write_text("a,b\n1,2\n")
    assert "not a study table (no column 'game')" in assert_one_line_error(run(runner, "report", bad))
