"""Independent checker for stepping-stones boards: replays the placement by the rules.

A board is a list of [row, col, value] triples. The rules (OEIS A337663): up to n stones numbered 1
are put on an infinite square grid; then 2, 3, ..., M are placed in turn, each on an empty cell whose
8 neighbours (king moves) hold numbers summing to exactly that number at the moment it is placed.
This module knows nothing of how boards are searched; it only replays them.
"""
from __future__ import annotations

from itertools import islice
from typing import Any

from ..base import Verdict

NEIGHBOURS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def parse_board(solution: Any) -> dict[tuple[int, int], int]:
    """[[row, col, value], ...] -> {(row, col): value}."""
    if not isinstance(solution, list):
        raise ValueError("a board is a list of [row, col, value] triples")
    cells: dict[tuple[int, int], int] = {}
    for t in solution:
        if not (isinstance(t, (list, tuple)) and len(t) == 3
                and all(isinstance(x, int) and not isinstance(x, bool) for x in t)):
            raise ValueError(f"not a [row, col, value] triple of integers: {t!r}")
        r, c, v = t
        if v < 1:
            raise ValueError(f"value {v} at ({r}, {c}) is not a positive number")
        if (r, c) in cells:
            raise ValueError(f"cell ({r}, {c}) is used twice")
        cells[(r, c)] = v
    return cells


def draw(solution: Any) -> str:
    """Like the seed: one line per row, numbers right-aligned, '.' for an empty cell, cropped."""
    cells = parse_board(solution)
    if not cells:
        return ""
    r0, r1 = min(r for r, _ in cells), max(r for r, _ in cells)
    c0, c1 = min(c for _, c in cells), max(c for _, c in cells)
    width = len(str(max(cells.values()))) + 1
    return "\n".join("".join(str(cells.get((r, c), ".")).rjust(width) for c in range(c0, c1 + 1))
                     for r in range(r0, r1 + 1)) + f"\nlargest number {max(cells.values())}"


def check(n: int | None, solution: Any, params: Any = None) -> Verdict:
    """Replay the board; the objective is the largest number placed."""
    if n is None:
        return Verdict(False, "stones needs n")
    try:
        cells = parse_board(solution)
    except ValueError as e:
        return Verdict(False, f"malformed board: {e}")
    ones = sum(1 for v in cells.values() if v == 1)
    if ones > n:
        return Verdict(False, f"{ones} ones on the board, only {n} allowed")
    big = sorted(v for v in cells.values() if v >= 2)
    top = big[-1] if big else (1 if n >= 1 else 0)
    if any(v != k for k, v in enumerate(big, start=2)) or len(big) != top - 1:
        present = set(big)     # a number far beyond the board's size: the first 5 gaps come soon
        missing = list(islice((k for k in range(2, top + 1) if k not in present), 5))
        dup = sorted({v for v in big if big.count(v) > 1})
        return Verdict(False, f"numbers 2..{top} must each appear once (missing {missing}, repeated {dup[:5]})")
    where = {v: rc for rc, v in cells.items() if v >= 2}
    for k in range(2, top + 1):
        r, c = where[k]
        # at the moment k is placed, the board holds the ones and the numbers 2..k-1
        s = sum(v for dr, dc in NEIGHBOURS if (v := cells.get((r + dr, c + dc), 0)) and v < k)
        if s != k:
            return Verdict(False, f"{k} at ({r}, {c}) has neighbour sum {s} when placed")
    return Verdict(True, f"valid: {ones} ones, numbers up to {top}", top)
