"""Independent checker: runs the filling process cell by cell, exactly as the puzzle states it.

An empty cell with at least two filled orthogonal neighbours becomes filled, repeatedly, until
nothing changes. A set is accepted when it has n distinct cells of the n x n board (one per row
and column for the permutation variant) and the process fills the whole board.
"""
from __future__ import annotations

from typing import Any

from ..base import Verdict


def fill(n: int, cells: list[tuple[int, int]]) -> list[list[bool]]:
    """The board after the filling process has stopped."""
    board = [[False] * n for _ in range(n)]
    for r, c in cells:
        board[r][c] = True
    changed = True
    while changed:
        changed = False
        for r in range(n):
            for c in range(n):
                if board[r][c]:
                    continue
                filled = sum(board[rr][cc] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                             if 0 <= rr < n and 0 <= cc < n)
                if filled >= 2:
                    board[r][c] = True
                    changed = True
    return board


def percolates(n: int, cells: list[tuple[int, int]]) -> bool:
    return all(all(row) for row in fill(n, cells))


def check(n: int | None, solution: Any, params: Any = None) -> Verdict:
    """n cells (one per row and column with params.permutation) that fill the board."""
    permutation = bool(getattr(params, "permutation", False))
    if n is None:
        return Verdict(False, "percolation needs n")
    if not isinstance(solution, dict) or not isinstance(solution.get("cells"), list):
        return Verdict(False, "malformed solution: expected {'n': n, 'cells': [[row, column], ...]}")
    try:
        cells = [(int(r), int(c)) for r, c in solution["cells"]]
    except (TypeError, ValueError):
        return Verdict(False, "malformed solution: cells must be [row, column] pairs of integers")
    if len(set(cells)) != len(cells):
        return Verdict(False, "a cell is listed twice")
    if len(cells) != n:
        return Verdict(False, f"{len(cells)} cells given, the puzzle asks for exactly n = {n}")
    outside = [rc for rc in cells if not (0 <= rc[0] < n and 0 <= rc[1] < n)]
    if outside:
        return Verdict(False, f"cell {list(outside[0])} is outside the {n}x{n} board")
    if permutation and (len({r for r, _ in cells}) != n or len({c for _, c in cells}) != n):
        return Verdict(False, "not one cell per row and column")
    board = fill(n, cells)
    empty = sum(not v for row in board for v in row)
    if empty:
        return Verdict(False, f"the filling process stops with {empty} empty cell(s)")
    return Verdict(True, f"{n} cells fill the {n}x{n} board")
