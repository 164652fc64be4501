"""Stepping stones as a 0-1 model: "can n ones reach M inside a W x W box?" (OEIS A337663).

One Boolean x[c, v] per cell c of the box and value v in 1..top ("cell c holds v"). The sum rule is a
half-reified row per (cell, value): x[c, k] = 1 implies that the neighbours of c holding values below
k (those on the board when k is placed) sum to exactly k. CP-SAT and MiniZinc take these indicators
natively; HiGHS and CBC get them as big-M rows from the core.

Symmetry breaking: the board touches the top row and the left column of the box (translations),
and the 2 lies on or above the main diagonal (the transposition, which keeps that anchoring).

Formulations:
- "max": y[v] = "v is placed", y[v] <= y[v-1], maximise 1 + sum y; the optimum is proven in the box
  when it is below `top`.
- "reach": every value 2..top must be placed (a feasibility question; increase top to maximise).
"""
from __future__ import annotations

from typing import Any, Sequence

from ..models.core import LinearModel

FORMULATIONS = {
    "max": "maximise the largest number placed (values capped at --top, default a(n)+1 known bound)",
    "reach": "feasibility: place every number 2..top (maximise by increasing --top)",
}
NEIGHBOURS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def var_index(box: int, top: int, r: int, c: int, v: int) -> int:
    """x[(r, c), v] is variable (r * box + c) * top + v - 1."""
    return (r * box + c) * top + v - 1


def box_model(n: int, box: int, top: int, formulation: str = "max",
              hint: Sequence[Sequence[int]] | None = None) -> LinearModel:
    """The model for n ones, values 1..top, in a box x box square."""
    m = LinearModel(name=f"stones_n{n}_box{box}_top{top}_{formulation}", sense="max")
    cells = [(r, c) for r in range(box) for c in range(box)]
    for r, c in cells:
        for v in range(1, top + 1):
            m.add_var(f"x_{r}_{c}_{v}")
    x = lambda r, c, v: var_index(box, top, r, c, v)  # noqa: E731 - a short local alias
    m.project = list(range(len(m.vars)))
    for r, c in cells:
        m.add_row([(x(r, c, v), 1) for v in range(1, top + 1)], hi=1, name=f"cell_{r}_{c}")
    m.add_row([(x(r, c, 1), 1) for r, c in cells], hi=n, name="ones")
    if formulation == "reach":
        for v in range(2, top + 1):
            m.add_row([(x(r, c, v), 1) for r, c in cells], lo=1, hi=1, name=f"place_{v}")
    elif formulation == "max":
        ys = [m.add_var(f"y_{v}") for v in range(2, top + 1)]
        for i, v in enumerate(range(2, top + 1)):
            m.add_row([(x(r, c, v), 1) for r, c in cells] + [(ys[i], -1)], lo=0, hi=0, name=f"place_{v}")
            if i:
                m.add_row([(ys[i], 1), (ys[i - 1], -1)], hi=0, name=f"order_{v}")
        m.objective = [(y, 1.0) for y in ys]
        m.constant = 1.0
    else:
        raise ValueError(f"unknown formulation {formulation!r}")
    for r, c in cells:
        around = [(r + dr, c + dc) for dr, dc in NEIGHBOURS if 0 <= r + dr < box and 0 <= c + dc < box]
        for k in range(2, top + 1):
            terms = [(x(rr, cc, v), v) for rr, cc in around for v in range(1, k)]
            m.add_indicator(x(r, c, k), 1, terms, lo=k, hi=k, name=f"sum_{r}_{c}_{k}")
    m.add_row([(x(0, c, v), 1) for c in range(box) for v in range(1, top + 1)], lo=1, name="touch_top")
    m.add_row([(x(r, 0, v), 1) for r in range(box) for v in range(1, top + 1)], lo=1, name="touch_left")
    if top >= 2:
        m.add_row([(x(r, c, 2), r - c) for r, c in cells], hi=0, name="two_above_diagonal")
    if hint:
        m.hints = hint_values(m, box, top, hint)
    return m


def hint_values(m: LinearModel, box: int, top: int, board: Sequence[Sequence[int]]) -> dict[int, int]:
    """A board ([row, col, value] triples) as a start solution, when it fits the box; the board is
    shifted to the top-left corner and transposed if that puts the 2 above the diagonal."""
    r0 = min(r for r, _, _ in board)
    c0 = min(c for _, c, _ in board)
    cells = [(r - r0, c - c0, v) for r, c, v in board if v <= top]
    two = [(r, c) for r, c, v in cells if v == 2]
    if two and two[0][0] > two[0][1]:
        cells = [(c, r, v) for r, c, v in cells]
    if any(r >= box or c >= box for r, c, _ in cells):
        return {}
    hints = {i: 0 for i in range(len(m.vars))}
    for r, c, v in cells:
        hints[var_index(box, top, r, c, v)] = 1
    placed = {v for _, _, v in cells}
    for i, var in enumerate(m.vars):
        if var.name.startswith("y_"):
            hints[i] = int(int(var.name[2:]) in placed)
    return hints


def decode(box: int, top: int, values: Sequence[Any]) -> list[list[int]]:
    """Model values -> [row, col, value] triples."""
    out = []
    for r in range(box):
        for c in range(box):
            for v in range(1, top + 1):
                if round(values[var_index(box, top, r, c, v)]) == 1:
                    out.append([r, c, v])
    return sorted(out, key=lambda t: t[2])
