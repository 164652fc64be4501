"""Independent checker for the 15-puzzle-to-magic-square challenge.

It replays the move list on the start board by the puzzle's own rule (the named tile must sit next
to the hole, and swaps with it), then adds up every row, column and diagonal of the final board.
It uses nothing from the generator or the search.
"""
from __future__ import annotations

import re
from typing import Any

from ..base import Verdict

SIDE = 4


def _board(raw: Any, what: str) -> list[int]:
    board = [int(v) for v in raw]
    if sorted(board) != list(range(SIDE * SIDE)):
        raise ValueError(f"{what} is not a 4x4 board of 0..15")
    return board


def replay(start: list[int], moves: list[int]) -> list[int]:
    """The board after the moves; ValueError at the first tile that is not next to the hole."""
    board = list(start)
    for step, tile in enumerate(moves, 1):
        if not 1 <= tile <= 15:
            raise ValueError(f"move {step}: {tile} is not a tile")
        hole, at = board.index(0), board.index(tile)
        if abs(hole // SIDE - at // SIDE) + abs(hole % SIDE - at % SIDE) != 1:
            raise ValueError(f"move {step}: tile {tile} is not next to the hole")
        board[hole], board[at] = tile, 0
    return board


def bad_sums(board: list[int], pandiagonal: bool = False) -> list[str]:
    """The lines of the board that do not sum to 30 (empty for a magic square)."""
    grid = [board[r * SIDE:(r + 1) * SIDE] for r in range(SIDE)]
    sums = {f"row {r + 1}": sum(grid[r]) for r in range(SIDE)}
    sums.update({f"column {c + 1}": sum(grid[r][c] for r in range(SIDE)) for c in range(SIDE)})
    sums["diagonal"] = sum(grid[i][i] for i in range(SIDE))
    sums["anti-diagonal"] = sum(grid[i][SIDE - 1 - i] for i in range(SIDE))
    if pandiagonal:
        for k in range(1, SIDE):
            sums[f"broken diagonal {k}"] = sum(grid[i][(i + k) % SIDE] for i in range(SIDE))
            sums[f"broken anti-diagonal {k}"] = sum(grid[i][(SIDE - 1 - i + k) % SIDE] for i in range(SIDE))
    return [f"{name} sums to {s}" for name, s in sums.items() if s != 30]


def check(n: int | None, solution: Any, params: Any = None) -> Verdict:
    """A magic square ({"square": board}), or moves replayed from the start board the user asked for
    (params.start), else from one of the two sorted boards, to a (pandiagonal) magic square; the
    objective is the number of moves."""
    pandiagonal = bool(getattr(params, "pandiagonal", False))
    start_text = getattr(params, "start", None)
    if not isinstance(solution, dict):
        return Verdict(False, "malformed solution: not an object")
    if "square" in solution:
        try:
            square = _board(solution["square"], "square")
        except (TypeError, ValueError) as e:
            return Verdict(False, f"malformed solution: {e}")
        wrong = bad_sums(square, pandiagonal)
        return Verdict(not wrong, "; ".join(wrong) or "a magic square")
    try:
        start = _board(re.findall(r"-?\d+", start_text), "the start board") if start_text else None
        first = _board(solution["start"], "start")
        moves = [int(t) for t in solution["moves"]]
        claimed = _board(solution["end"], "end") if "end" in solution else None
        end = replay(first, moves)
    except (KeyError, TypeError, ValueError) as e:
        return Verdict(False, f"malformed or illegal solution: {e}")
    sorted_boards = (list(range(1, 16)) + [0], list(range(1, 14)) + [15, 14, 0])
    if start is not None and first != start:
        return Verdict(False, "the solution does not begin at the requested start board", len(moves))
    if start is None and first not in sorted_boards:
        return Verdict(False, "the solution does not begin at a sorted board", len(moves))
    if claimed is not None and claimed != end:
        return Verdict(False, "replaying the moves does not give the stated final board", len(moves))
    wrong = bad_sums(end, pandiagonal)
    if wrong:
        return Verdict(False, "not a magic square: " + ", ".join(wrong), len(moves))
    kind = "pandiagonal magic square" if pandiagonal else "magic square"
    return Verdict(True, f"{len(moves)} legal moves reach a {kind}", len(moves))
