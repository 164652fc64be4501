"""`workbench plot`: time against N per backend from the bench and the results tables, and the
record boards drawn from stored solutions that the puzzle's checker accepts again."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import tables
from .bench import read_bench
from .pipeline import BadRow, Run, plan, stored
from .puzzles import available, get
from .puzzles.base import BadInput, Picture, Puzzle
from .records import Record, Status
from .tables import RESULTS

TIMES = "time-vs-n.png"


def _timings(name: str, results: Path) -> dict[str, dict[int, tuple[float, bool]]]:
    """backend -> n -> (seconds, proven): the fastest proven run, else the longest unproven one."""
    runs = [r for _, _, r in read_bench(results / "bench.csv")] + \
        [r for r in tables.read_records(results / f"{name}.csv") if isinstance(r, Record)]

    def rank(point: tuple[float, bool]) -> tuple[bool, float]:
        seconds, proven = point
        return proven, -seconds if proven else seconds

    best: dict[str, dict[int, tuple[float, bool]]] = {}
    for r in runs:
        if r.puzzle != name or r.n is None or r.seconds is None or r.status == Status.ERROR:
            continue
        point = (float(r.seconds), r.status.proves and r.status != Status.INFEASIBLE)
        points = best.setdefault(r.solver, {})
        if r.n not in points or rank(point) > rank(points[r.n]):
            points[r.n] = point
    return best


@contextmanager
def _figure(path: Path, rows: int, cols: int, figsize: tuple[float, float]) -> Iterator[Any]:
    """A grid of axes (rows x cols, always 2-D) drawn off screen, saved to `path` when the block
    ends well, and closed whatever happens."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(rows, cols, figsize=figsize, squeeze=False)
    try:
        yield axes
        fig.tight_layout()
        fig.savefig(path, dpi=90)
    finally:
        plt.close(fig)


def plot_times(path: Path, results: Path = RESULTS) -> Path:
    """One panel per puzzle with an N: seconds (log scale) against N, a line per backend; filled
    markers are proven runs, hollow ones ran out of time."""
    puzzles = [(p, _timings(p.name, results)) for p in available() if p.needs_n]
    puzzles = [(p, t) for p, t in puzzles if t]
    if not puzzles:
        raise BadInput(f"no timings in {results} (bench.csv or a puzzle's table)")
    rows = (len(puzzles) + 2) // 3
    with _figure(path, rows, 3, (15, 4.2 * rows)) as axes:
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
    return path


def best_stored(puzzle_name: str, table: str, n: int | None, params: dict[str, Any],
                results: Path = RESULTS, formulation: str | None = None) -> Run:
    """The best stored solution for n in results/<table>.csv that the checker accepts again."""
    puzzle = get(puzzle_name)
    request = plan(puzzle, n, formulation=formulation, params=params)
    rows = [r for r in tables.read_records(results / f"{table}.csv")
            if isinstance(r, Record) and r.n == n and r.solution is not None]
    checked = []
    for r in rows:
        try:
            run = stored(request, r, strict=True)
        except BadRow:
            continue
        if run.verified and run.value is not None:
            checked.append((run.value, run))
    if not checked:
        raise BadInput(f"no verified solution of {puzzle_name} n={n} in {results / table}.csv")
    sign = 1 if puzzle.sense == "min" else -1
    return min(checked, key=lambda pair: sign * pair[0])[1]


def plot_all(out: str | Path = "docs", results: Path = RESULTS) -> tuple[list[Path], list[str]]:
    """Every picture the README shows that `results` holds the data for, written to `out` (the
    times, then each puzzle's pictures); returns the files written and, for each picture left
    out, why."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    pictures: list[tuple[str, Callable[[], Path]]] = [(TIMES, lambda: plot_times(folder / TIMES, results))]

    def draw(puzzle: Puzzle[Any], picture: Picture) -> Callable[[], Path]:
        path = folder / picture.file

        def made() -> Path:
            if picture.draw is not None:
                picture.draw(results, path)
            else:
                best_stored(puzzle.name, picture.table, picture.n, picture.params, results,
                            picture.formulation).png(str(path))
            return path
        return made

    pictures += [(picture.file, draw(puzzle, picture)) for puzzle in available() for picture in puzzle.pictures()]
    written, skipped = [], []
    for file, make in pictures:
        try:
            written.append(make())
        except BadInput as e:
            skipped.append(f"{file}: {e}")
    return written, skipped


def plot_comparison(paths: list[str], out: str | Path) -> list[Path]:
    """A model comparison's cactus plot (cactus.png: models proven against time, a line per backend)
    and, where incumbents were recorded, objective over time (objective-over-time.png, a panel per
    model)."""
    from .report import load

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    runs = load(paths)
    written = [cactus(runs, folder / "cactus.png")]
    if "incumbents" in runs and runs["incumbents"].fillna("[]").astype(str).str.strip().ne("[]").any():
        written.append(objective_over_time(runs, folder / "objective-over-time.png"))
    return written


def cactus(runs: Any, path: Path) -> Path:
    """Per backend the sorted times of its proven runs against their count; the runs it did not
    prove stop short of the time limit's dashed line."""
    limit = runs["time_limit"].astype(float).max()
    with _figure(path, 1, 1, (7, 4.5)) as axes:
        ax = axes[0][0]
        for backend, mine in runs.groupby("backend", sort=True):
            times = sorted(mine.loc[mine["proven"], "seconds"].astype(float))
            ax.step([0, *range(1, len(times) + 1)], [0.0, *times], where="post", marker="o", ms=3,
                    label=f"{backend} ({len(times)} of {len(mine)})")
        if limit == limit:
            ax.axhline(limit, ls="--", color="grey", lw=1, label=f"time limit {limit:g} s")
        ax.set_xlabel("runs proven")
        ax.set_ylabel("seconds")
        ax.set_title("cactus plot: runs proven within a time")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    return path


def objective_over_time(runs: Any, path: Path) -> Path:
    """Each model's incumbents (`incumbents`: [seconds, value] pairs) as steps, a line per backend."""
    import json

    models = list(dict.fromkeys(runs["model"]))
    with _figure(path, len(models), 1, (7, 3 * len(models))) as axes:
        for ax, model in zip(axes.flat, models):
            for row in runs[runs["model"] == model].itertuples():
                try:
                    points = [(float(t), float(v)) for t, v in json.loads(str(row.incumbents))]
                except (ValueError, TypeError):
                    continue          # no incumbents, or a cell edited by hand
                if points:
                    ax.step(*zip(*points), where="post", marker=".", label=str(row.backend))
            ax.set_title(str(model), fontsize=9)
            ax.set_xlabel("seconds")
            ax.set_ylabel("objective")
            ax.grid(True, alpha=0.3)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=8)
    return path
