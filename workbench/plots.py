"""`workbench plot`: time against N per backend from the bench and the results tables, and the
record boards drawn from stored solutions that the puzzle's checker accepts again."""
from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import tables
from .pipeline import BadRow, Run, stored
from .puzzles import available, get
from .puzzles.base import BadInput

RESULTS = Path("results")
# (file name, puzzle, results table, n, params): the record boards the README shows
BOARDS = [
    ("squares-54.png", "squares", "squares-heuristic", 54, {"heuristic": True}),
    ("squares-56.png", "squares", "squares-heuristic", 56, {"heuristic": True}),
    ("magic15-pandiagonal.png", "magic15", "magic15_pandiagonal", None, {"pandiagonal": True}),
    ("stones-5.png", "stones", "stones", 5, {}),
]
TIMES = "time-vs-n.png"
GROWTH = "percolation-growth.png"


def _timings(name: str, results: Path) -> dict[str, dict[int, tuple[float, bool]]]:
    """backend -> n -> (seconds, proven): the fastest proven run, else the longest unproven one."""
    rows = [r for r in tables.read_rows(results / "bench.csv") + tables.read_rows(results / f"{name}.csv")
            if r.get("puzzle") == name and r.get("n") and r.get("seconds") and r.get("status") != "error"]
    def rank(point: tuple[float, bool]) -> tuple[bool, float]:
        seconds, proven = point
        return proven, -seconds if proven else seconds

    best: dict[str, dict[int, tuple[float, bool]]] = {}
    for r in rows:
        try:
            point, n = (float(r["seconds"]), r.get("status") == "optimal"), int(r["n"])
        except ValueError:
            continue                      # a row edited by hand
        if not math.isfinite(point[0]):
            continue
        points = best.setdefault(r.get("solver", ""), {})
        if n not in points or rank(point) > rank(points[n]):
            points[n] = point
    return best


def plot_times(path: Path, results: Path = RESULTS) -> Path:
    """One panel per puzzle with an N: seconds (log scale) against N, a line per backend; filled
    markers are proven runs, hollow ones ran out of time."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    puzzles = [(p, _timings(p.name, results)) for p in available() if p.needs_n]
    puzzles = [(p, t) for p, t in puzzles if t]
    if not puzzles:
        raise BadInput(f"no timings in {results} (bench.csv or a puzzle's table)")
    rows = (len(puzzles) + 2) // 3
    fig, axes = plt.subplots(rows, 3, figsize=(15, 4.2 * rows), squeeze=False)
    try:
        for ax, (puzzle, timings) in zip(axes.flat, puzzles):
            for solver, points in sorted(timings.items()):
                ns = sorted(points)
                line, = ax.plot(ns, [max(points[n][0], 1e-3) for n in ns], lw=1, label=solver)
                for n in ns:
                    seconds, proven = points[n]
                    ax.plot(n, max(seconds, 1e-3), "o", color=line.get_color(), ms=4,
                            markerfacecolor=line.get_color() if proven else "none")
            ax.set_yscale("log")
            ax.set_title(puzzle.name)
            ax.set_xlabel("N")
            ax.set_ylabel("seconds (hollow: not proven)")
            ax.grid(True, which="major", alpha=0.3)
            ax.legend(fontsize=8)
        for ax in list(axes.flat)[len(puzzles):]:
            ax.axis("off")
        fig.tight_layout()
        fig.savefig(path, dpi=90)
    finally:
        plt.close(fig)
    return path


def best_stored(puzzle_name: str, table: str, n: int | None, params: dict[str, Any],
                results: Path = RESULTS) -> Run:
    """The best stored solution for n in results/<table>.csv that the checker accepts again."""
    puzzle = get(puzzle_name)
    rows = [r for r in tables.read_rows(results / f"{table}.csv")
            if r.get("n", "") == ("" if n is None else str(n)) and r.get("solution")]
    checked = []
    for r in rows:
        try:
            run = stored(puzzle_name, n, r, params, strict=True)
        except BadRow:
            continue
        if run.verified and run.value is not None:
            checked.append((run.value, run))
    if not checked:
        raise BadInput(f"no verified solution of {puzzle_name} n={n} in {results / table}.csv")
    sign = 1 if puzzle.sense == "min" else -1
    return min(checked, key=lambda pair: sign * pair[0])[1]


def plot_all(out: str | Path = "docs", results: Path = RESULTS) -> tuple[list[Path], list[str]]:
    """Every picture the README shows that `results` holds the data for, written to `out`; returns
    the files written and, for each picture left out, why."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    pictures: list[tuple[str, Callable[[], Path]]] = [(TIMES, lambda: plot_times(folder / TIMES, results))]

    def board(file: str, puzzle: str, table: str, n: int | None, params: dict[str, Any]) -> Callable[[], Path]:
        return lambda: Path(best_stored(puzzle, table, n, params, results).png(str(folder / file)))

    pictures += [(case[0], board(*case)) for case in BOARDS]
    pictures.append((GROWTH, lambda: plot_percolation_growth(folder / GROWTH, results)))
    written, skipped = [], []
    for file, draw in pictures:
        try:
            written.append(draw())
        except BadInput as e:
            skipped.append(f"{file}: {e}")
    return written, skipped


def plot_percolation_growth(path: Path, results: Path = RESULTS) -> Path:
    """log a(n) and a(n+1)/a(n) of A146971 from the complete counts in results/percolation.csv."""
    from .puzzles.percolation.recursion import growth_plot

    counts = {}
    for r in tables.read_rows(results / "percolation.csv"):
        if r.get("status") == "optimal" and r.get("count", "").isdigit() and r.get("n", "").isdigit():
            counts[int(r["n"])] = int(r["count"])
    terms: list[int] = []
    while len(terms) + 1 in counts:              # a(1), a(2), ... up to the first gap
        terms.append(counts[len(terms) + 1])
    if len(terms) < 25:
        raise BadInput(f"{results / 'percolation.csv'} holds too few counts to plot the growth "
                       f"(`workbench table percolation --n 1..200` computes them)")
    growth_plot(terms, str(path))
    return path
