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


def test_only_the_same_case_on_the_same_machine_counts():
    stored = _stored(_row(4.0, machine="other"), _row(4.0, n=28), _row(4.0, threads=2), _row(4.0, solver="sat:cd195"),
                     _row(4.0, formulation="cubes"), _row(8.0))
    assert speed_warning(_row(8.8), stored) is None
    assert speed_warning(_row(8.8), _stored(_row(4.0, machine="other"))) is None     # nothing to compare
    assert speed_warning(_row(8.8, positions=None), stored) is None              # no positions
