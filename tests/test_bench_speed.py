"""bench's guard against a search that gets slower a position (issue 63)."""
from workbench.bench import speed_warning
from workbench.records import Record, Status


def _row(seconds: float, machine: str = "box", n: int = 26, threads: int = 1, positions: int | None = 40966307,
         solver: str = "search", formulation: str = "exact"):
    return ("native exact search, positions/s, pooled 0", machine,
            Record("squares", Status.OPTIMAL, n=n, threads=threads, positions=positions, solve_seconds=seconds,
                   solver=solver, formulation=formulation))


def _stored(*rows):
    """As read back from the CSV: each through its bench row's text."""
    return [Record.from_bench_row({k: str(v) for k, v in r[2].bench_row(r[0], r[1]).items()}) for r in rows]


def test_a_row_10_percent_slower_a_position_than_its_stored_rows_warns():
    stored = _stored(_row(8.0), _row(8.4), _row(7.8))
    warning = speed_warning(_row(9.0), stored)                  # 8.0 s is the median: 11% slower
    assert warning is not None and "11% slower" in warning and "3 stored rows on box" in warning
    assert speed_warning(_row(8.8), stored) is None             # 9% slower: within the noise allowed


def test_only_the_same_case_on_the_same_machine_with_the_same_positions_counts():
    stored = _stored(_row(4.0, machine="other"), _row(4.0, n=28), _row(4.0, threads=2), _row(4.0, solver="sat:cd195"),
                     _row(4.0, formulation="cubes"), _row(1.0, positions=40966307 // 3), _row(8.0))
    assert speed_warning(_row(8.8), stored) is None
    assert speed_warning(_row(8.8), _stored(_row(4.0, machine="other"))) is None     # nothing to compare
    assert speed_warning(_row(8.8, positions=None), stored) is None              # no positions


def test_one_rung_of_a_ladder_runs_alone():
    """`bench --n 11` on a ladder from N = 1 runs N = 11 only (hours of a certificate, say), not the
    ladder from 1; a ladder starting at N runs N only too, a case at N as it is; past the ladder: nothing."""
    from dataclasses import replace

    from workbench.bench import _at
    from workbench.puzzles.base import BenchCase

    ladder = BenchCase("enigma82", 1, "sat:cd195", 600.0, ladder=True, n_stop=12, label="certified")
    single = BenchCase("enigma82", 8, "auto", 120.0)
    assert [(c.n, c.n_stop) for c in _at([ladder, single], [11])] == [(11, 11)]
    assert _at([ladder, single], [1]) == [replace(ladder, n_stop=1)]
    assert _at([ladder, single], [8]) == [replace(ladder, n=8, n_stop=8), single]
    assert _at([ladder], [13]) == [] and _at([ladder, single], None) == [ladder, single]


def test_bench_names_the_stored_rows_it_cannot_read(tmp_path):
    """A row whose fields sit in other columns (pasted from a file of another order) is refused and
    named in the one warning line `bench` prints before its cases run, not dropped unseen; `report`
    and `bench --summary` (pandas) refuse the file in one line rather than read the row as blanks."""
    import csv
    import subprocess
    import sys

    import pytest

    from workbench import frames
    from workbench.bench import read_bench, unreadable_warning
    from workbench.errors import BadInput
    from workbench.records import BENCH_COLUMNS

    path = tmp_path / "bench.csv"
    good = _row(8.0)[2].bench_row("native exact search, positions/s, pooled 0", "box")
    shifted = dict(zip(BENCH_COLUMNS, [good[c] for c in BENCH_COLUMNS[:13]] + ["1.5", "workbench native",
                                                                                "49", "yes"] + [""] * 7))
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=BENCH_COLUMNS)
        writer.writeheader()
        writer.writerow(good)
    assert unreadable_warning(path) is None
    with path.open("a", newline="") as f:
        csv.DictWriter(f, fieldnames=BENCH_COLUMNS).writerow(shifted)
    assert len(read_bench(path)) == 1
    assert unreadable_warning(path) == (f"warning: 1 row of {path} cannot be read, left out (the first: "
                                        f"{path}:3: published is 'workbench native', not an integer)")
    with pytest.raises(BadInput, match=f"^{path}:3: published is 'workbench native', not an integer"):
        frames.bench_results(path)
    for command in (["report", str(path)], ["bench", "--summary", "-o", str(path)]):
        p = subprocess.run([sys.executable, "-m", "workbench", *command], capture_output=True, text=True)
        assert p.returncode == 2 and p.stdout == "", command
        assert p.stderr.strip().splitlines() == [f"workbench: error: {path}:3: published is 'workbench native', "
                                                 f"not an integer (a row in another column order?): refused"], command
