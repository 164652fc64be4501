"""15-puzzle to a magic square (IBM Ponder This, November 2023): fewest moves from a sorted board.

A solution is {"start": board, "moves": [tile, ...], "end": board, "pandiagonal": bool}, boards in
reading order with 0 for the hole; "moves" names the tile swapped with the hole at each step, as in
the challenge. The checker replays the moves itself. The `squares` formulation (for counting the
magic squares, 7040 / 880 / 384) gives {"square": board} solutions instead.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from ...drawing import figure
from ...models.core import Built
from ..base import BadInput, BenchCase, Formulation, Params, Picture, Puzzle, ShowcaseCase, option
from .check import check as check_solution
from .model import SIDE, SORTED, build_plan, build_squares, format_board, parse_board

BENCH_START = "8 2 6 11 12 15 13 1 7 0 9 4 3 5 10 14"    # 20 random moves from a magic square


def board_text(text: str) -> str:
    """The --start value, checked when it is read (one clear line, exit 2)."""
    try:
        parse_board(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"magic15: --start: {e}") from None
    return text


MODELS = ("plan", "squares")      # the formulations the model options apply to


@dataclass(frozen=True)
class Magic15Params(Params):
    start: str | None = option(None, "start board, 16 numbers in reading order, 0 = hole (default: both "
                                     "sorted boards, 1..15,0 and the one with 14 and 15 swapped)", board_text)
    pandiagonal: bool = option(False, "targets: pandiagonal magic squares only (broken diagonals too)")
    horizon: int | None = option(None, "plan formulation: at most this many moves", int, applies=MODELS)
    symmetry: bool = option(False, "squares formulation: one square per rotation/reflection class",
                            applies=MODELS)

    def validate(self) -> None:
        if self.horizon is not None and not 0 <= self.horizon <= 200:
            raise BadInput(f"magic15: --horizon must be between 0 and 200, got {self.horizon}")

    @property
    def start_board(self) -> tuple[int, ...] | None:
        return parse_board(self.start) if self.start else None


def _grid(board) -> list[str]:
    return [" ".join(f"{v:2d}" if v else " ." for v in board[r * SIDE:(r + 1) * SIDE]) for r in range(SIDE)]


def _hole_path(start: list[int], moves: list[int]) -> list[int]:
    """The cells the hole visits: each move slides the named tile into the hole."""
    board, path = list(start), [list(start).index(0)]
    for tile in moves:
        cell = board.index(tile)
        board[path[-1]], board[cell] = tile, 0
        path.append(cell)
    return path


class Magic15Puzzle(Puzzle[Magic15Params]):
    name = "magic15"
    title = "15-puzzle to a magic square: fewest moves from a sorted board (Ponder This 2023/11)"
    sense = "min"
    needs_n = False
    default_solver = "search"
    formulations = (
        Formulation("plan", "bounded-horizon planning model, one board per step (needs --horizon)"),
        Formulation("squares", "the magic squares themselves, for counting them (count command)", counts=True),
        Formulation("ida", "IDA* backwards from every magic square, pattern-database bound: proves the optimum",
                    search="workbench.puzzles.magic15.search:solve",
                    warm_up="workbench.puzzles.magic15.search:warm_up"),
    )
    checker = staticmethod(check_solution)
    Params = Magic15Params

    def generate(self, n: int | None, formulation: str, params: Magic15Params) -> Built:
        if formulation == "squares":
            return build_squares(params.pandiagonal, params.symmetry)
        if formulation not in ("plan", "default"):
            raise BadInput(f"magic15: unknown formulation {formulation!r} (known: plan, squares)")
        if params.horizon is None:
            raise BadInput("magic15: the planning model needs --horizon H (the most moves allowed)")
        return build_plan(params.start_board, params.horizon, params.pandiagonal)


    def render(self, n: int | None, solution: Any, params: Magic15Params) -> str:
        """The challenge's format: start board, move list, final board (drawn side by side)."""
        if "square" in solution:
            return "\n".join(_grid(solution["square"]))
        start, end, moves = solution["start"], solution["end"], solution["moves"]
        rows = [f"{a}    {'->' if i == 1 else '  '}    {b}" for i, (a, b) in enumerate(zip(_grid(start), _grid(end)))]
        return "\n".join([f"Start: {format_board(start)}",
                          f"Sequence ({len(moves)} moves): [{', '.join(map(str, moves))}]",
                          f"End: {format_board(end)}", *rows])

    def png(self, n: int | None, solution: Any, path: str, params: Magic15Params) -> None:
        from matplotlib.patches import Rectangle

        if isinstance(solution, list):      # the examples of a counting run
            boards = [("magic square", s["square"]) for s in solution]
        elif "square" in solution:
            boards = [("magic square", solution["square"])]
        else:
            boards = [("start", solution["start"]), (f"after {len(solution['moves'])} moves", solution["end"])]
        with figure(path, (3.2 * len(boards), 3.4), panels=len(boards), dpi=110) as axes:
            for ax, (title, board) in zip(axes, boards):
                for cell, v in enumerate(board):
                    r, c = divmod(cell, SIDE)
                    ax.add_patch(Rectangle((c, r), 1, 1, facecolor="#f3e3c3" if v else "#555555",
                                           edgecolor="#333333"))
                    if v:
                        ax.text(c + 0.5, r + 0.5, str(v), ha="center", va="center", fontsize=15)
                ax.set_xlim(0, SIDE)
                ax.set_ylim(SIDE, 0)
                ax.set_title(title)
            if "moves" in solution:      # the hole's path, drawn over the start board
                cells = _hole_path(solution["start"], solution["moves"])
                axes[0].plot([c % SIDE + 0.5 for c in cells], [c // SIDE + 0.5 for c in cells],
                             color="#c0392b", lw=2.5, alpha=0.6)

    def published_series(self, params: Magic15Params, formulation: str = "") -> str:
        """Published figures: the optimum from the sorted boards, and the counts of magic squares
        (OEIS A006052); other starts and pandiagonal targets are variants without one."""
        pandiagonal = "_pandiagonal" if params.pandiagonal else ""
        if formulation == "squares":
            return f"magic15_squares{pandiagonal}" + ("_classes" if params.symmetry else "")
        if params.start and params.start_board != SORTED:
            return "magic15_start"
        return self.name + pandiagonal

    def showcase_cases(self) -> list[ShowcaseCase]:
        return [ShowcaseCase(self.name, None), ShowcaseCase(self.name, None, params={"pandiagonal": True})]

    def pictures(self) -> list[Picture]:
        return [Picture("magic15-pandiagonal.png", "magic15_pandiagonal", None, {"pandiagonal": True})]

    def bench_cases(self) -> list[BenchCase]:
        """The optimum from the sorted boards (plain and pandiagonal) by IDA*; the planning model at
        horizon 35, and at horizon 18 on a start 20 random moves from a magic square (where the
        search proves 18); counting the magic squares."""
        short = {"start": BENCH_START, "horizon": 18}
        cases = [BenchCase(self.name, None, "search", 300.0, label="IDA* optimum from the sorted boards"),
                 BenchCase(self.name, None, "search", 300.0, params={"pandiagonal": True},
                           label="IDA* optimum over pandiagonal targets"),
                 BenchCase(self.name, None, "search", 300.0, params={"start": BENCH_START},
                           label="IDA* on the scrambled start")]
        for solver in ("cpsat", "minizinc:gecode"):
            cases.append(BenchCase(self.name, None, solver, 600.0, formulation="plan", params={"horizon": 35},
                                   label="planning model, horizon 35"))
            cases.append(BenchCase(self.name, None, solver, 300.0, formulation="plan", params=short,
                                   label="planning model on the scrambled start, horizon 18"))
            for params in ({"symmetry": False}, {"symmetry": True}, {"symmetry": False, "pandiagonal": True}):
                series = self.published_series(self.params(params), "squares")
                cases.append(BenchCase(self.name, None, solver, 300.0, formulation="squares", params=params,
                                       count=True, label=f"count {series}"))
        return cases


PUZZLE = Magic15Puzzle()
