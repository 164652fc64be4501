"""Minimal percolating sets, OEIS A146971: how many n-cell sets fill the n x n board when an empty
cell with two filled orthogonal neighbours keeps becoming filled. The counting puzzle.

A solution is {"n": n, "cells": [[row, column], ...]}; a counting run's solution is a list of
example sets. With --permutation (one cell per row and column) the counts are the large Schroeder
numbers (OEIS A006318), a separate published series.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...drawing import figure
from ...models.core import Built
from ..base import BadInput, BenchCase, Formulation, Params, Picture, Puzzle, ShowcaseCase, option
from .check import check as check_set
from .check import fill
from .model import build
from .recursion import N_MAX as RECURSION_N_MAX

COUNTING = "workbench.puzzles.percolation.counting"     # the three methods' searches
TRANSFER_N_MAX = 12   # transfer.N_MAX, not imported here: that module loads numba (tested)


@dataclass(frozen=True)
class PercolationParams(Params):
    permutation: bool = option(False, "one cell per row and column (large Schroeder numbers)")


def growth_picture(results: Path, path: Path) -> None:
    """log a(n) and a(n+1)/a(n) of A146971 from the complete counts in results/percolation.csv."""
    from ...tables import Record, read_records
    from .recursion import growth_plot

    counts = {r.n: r.count for r in read_records(results / "percolation.csv")
              if isinstance(r, Record) and r.proved and r.n is not None and r.count is not None}
    terms: list[int] = []
    while len(terms) + 1 in counts:              # a(1), a(2), ... up to the first gap
        terms.append(counts[len(terms) + 1])
    if len(terms) < 25:
        raise BadInput(f"{results / 'percolation.csv'} holds too few counts to plot the growth "
                       f"(`workbench table percolation --n 1..200` computes them)")
    growth_plot(terms, str(path))


class PercolationPuzzle(Puzzle[PercolationParams]):
    name = "percolation"
    title = "Minimal percolating sets: n cells that fill the n x n board (OEIS A146971)"
    sense = None                   # nothing is optimised: the question is a count
    n_min = 1
    n_max = RECURSION_N_MAX        # the recursion's limit; the transfer matrix stops at 12
    default_solver = "search"
    formulations = (Formulation("layers", "infection-time layers: t = 0 on the chosen cells, "
                                          "else 1 + the second earliest neighbour"),
                    Formulation("recursion", f"count by the recursion over rectangles (n <= {RECURSION_N_MAX}; "
                                             "the default)", search=f"{COUNTING}:solve"),
                    Formulation("residues", f"the same count by the recursion modulo primes below 2^26, joined by the "
                                            f"Chinese remainder theorem (n <= {RECURSION_N_MAX}; faster past n = 100)",
                                search=f"{COUNTING}:solve_by_residues",
                                warm_up="workbench.puzzles.percolation.residues:warm_up"),
                    Formulation("transfer", f"count by the row-by-row transfer matrix (n <= {TRANSFER_N_MAX}; "
                                            "also --permutation)", search=f"{COUNTING}:solve_by_transfer",
                                warm_up="workbench.puzzles.percolation.transfer:warm_up", tasks=True))
    checker = staticmethod(check_set)
    Params = PercolationParams

    def validate(self, n: int | None, params: PercolationParams | None = None) -> None:
        super().validate(n, params)
        if n is not None and params is not None and params.permutation and n > TRANSFER_N_MAX:
            raise BadInput(f"{self.name} --permutation: n must be between 1 and {TRANSFER_N_MAX}, got {n}")

    def validate_run(self, n: int | None, params: PercolationParams, formulation: str) -> None:
        super().validate_run(n, params, formulation)
        if params.permutation and formulation in ("recursion", "residues"):
            raise BadInput(f"{self.name}: --permutation is counted by the transfer matrix only")
        if formulation == "transfer" and n is not None and n > TRANSFER_N_MAX:
            raise BadInput(f"{self.name} transfer: n must be between 1 and {TRANSFER_N_MAX}, got {n}")

    def generate(self, n: int | None, formulation: str, params: PercolationParams) -> Built:
        assert n is not None
        return build(n, params.permutation)


    def render(self, n: int | None, solution: Any, params: PercolationParams) -> str:
        """'#' the chosen cells, '.' the cells the filling process reaches, ' ' the rest."""
        assert n is not None
        cells = {(r, c) for r, c in solution["cells"]}
        board = fill(n, sorted(cells))
        return "\n".join("".join("#" if (r, c) in cells else "." if board[r][c] else " "
                                 for c in range(n)) for r in range(n))

    def png(self, n: int | None, solution: Any, path: str, params: PercolationParams) -> None:
        """The chosen cells on the board, one panel per set (a counting run draws its examples)."""
        assert n is not None
        from matplotlib.patches import Rectangle

        sets = solution if isinstance(solution, list) else [solution]
        sets = sets or [{"n": n, "cells": []}]
        with figure(path, (2.4 * len(sets), 2.6), panels=len(sets)) as axes:
            for ax, s in zip(axes, sets):
                ax.add_patch(Rectangle((0, 0), n, n, facecolor="#f3efe0", edgecolor="black"))
                for r, c in s["cells"]:
                    ax.add_patch(Rectangle((c, r), 1, 1, facecolor="#1f4e9c"))
                for i in range(n + 1):
                    ax.plot([0, n], [i, i], color="#999999", lw=0.5)
                    ax.plot([i, i], [0, n], color="#999999", lw=0.5)
                ax.set_xlim(-0.2, n + 0.2)
                ax.set_ylim(n + 0.2, -0.2)
            kind = "permutation " if params.permutation else ""
            what = f"{kind}set" + ("s" if len(sets) > 1 else "")
            axes[0].figure.suptitle(f"percolation n={n}: {what} of {n} cells that fill the board")

    def default_method(self, n: int | None, params: PercolationParams) -> str:
        """The recursion, save for the permutation variant, which has only the transfer matrix."""
        return "transfer" if params.permutation else "recursion"

    def published_series(self, params: PercolationParams, formulation: str = "") -> str:
        return "percolation-permutation" if params.permutation else "percolation"

    def variant(self, params: PercolationParams, formulation: str = "") -> str:
        """Transfer-matrix counts of A146971 get rows of their own (the recursion is the default)."""
        key = self.published_series(params, formulation)
        return key + "-transfer" if formulation == "transfer" and not params.permutation else key

    def showcase_cases(self) -> list[ShowcaseCase]:
        """The recursion (a(11..20) are the workbench's own), the transfer matrix's second,
        independent count (to a(7), under a second; a(8) takes seconds and a(9) minutes: bench
        cases), and the permutation variant."""
        return [ShowcaseCase(self.name, "1..20"), ShowcaseCase(self.name, "1..7", formulation="transfer"),
                ShowcaseCase(self.name, "1..10", params={"permutation": True})]

    def pictures(self) -> list[Picture]:
        return [Picture("percolation-growth.png", draw=growth_picture)]

    def bench_cases(self) -> list[BenchCase]:
        """The recursion (goals on 2 cores: a(10) < 1 s, a(100) < 60 s, the table a(1..200) < 15 min
        in all, each row extending the last; by residues a(200) and a(500) in one run each, for
        their primes' fixed cost); the transfer matrix climbs n (a(8) < 1 min, a(9) < 10
        min); the CP models climb until enumeration no longer finishes."""
        cases = [BenchCase(self.name, 10, "search", 60.0, count=True, label="recursion a(10)"),
                 BenchCase(self.name, 100, "search", 600.0, count=True, label="recursion a(100)"),
                 BenchCase(self.name, 1, "search", 900.0, count=True, ladder=True, n_stop=200,
                           label="recursion table a(1..200)"),
                 BenchCase(self.name, 200, "search", 900.0, count=True, formulation="residues",
                           label="residues a(200)"),
                 BenchCase(self.name, 500, "search", 40000.0, count=True, formulation="residues",
                           label="residues a(500)"),
                 BenchCase(self.name, 1, "search", 600.0, count=True, ladder=True, n_stop=11,
                           formulation="transfer", label="native transfer-matrix count ladder, 10 min"),
                 BenchCase(self.name, 1, "search", 600.0, count=True, ladder=True, n_stop=12,
                           params={"permutation": True}, label="native permutation count ladder, 10 min"),
                 BenchCase(self.name, 9, "search", 600.0, count=True, formulation="transfer",
                           label="scale-out: transfer-matrix count a(9)")]
        for solver in ("cpsat", "minizinc:gecode"):
            cases.append(BenchCase(self.name, 1, solver, 1800.0, count=True, ladder=True, n_stop=8,
                                   label=f"{solver} count ladder, 30 min"))
            cases.append(BenchCase(self.name, 1, solver, 300.0, count=True, ladder=True, n_stop=8,
                                   params={"permutation": True}, label=f"{solver} permutation count ladder, 300 s"))
        return cases
