"""CP model of "these n cells fill the n x n board" (2-neighbour bootstrap percolation, OEIS A146971).

Infection-time layers: t[c] = 0 exactly on the chosen cells and otherwise t[c] = 1 + the second
smallest time among c's orthogonal neighbours, i.e. the round in which the synchronous filling
process reaches c. The time bound forces every cell to be reached. The perimeter argument adds
implied rows: n cells can fill the board only if every filled cell had exactly two filled
neighbours when it filled (4 - 2k perimeter per cell, none to spare), so neighbours never fill in
the same round and a cell has exactly two earlier neighbours; one Boolean per edge says which
end filled first. Because these rules determine t
(and every auxiliary Boolean) from the chosen cells, each percolating set is exactly one model
solution, so enumeration counts sets; `project` (the n*n cell variables) still lets the counting
backends deduplicate repeats from parallel workers.

Variable layout: the n*n cell choices first (row-major), then the n*n times, then one Boolean per
edge, then for every (cell, neighbour) pair e = [neighbour at least two rounds earlier].
"""
from __future__ import annotations

from ...models.core import Built, LinearModel


def neighbours(n: int, r: int, c: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < n and 0 <= c + dc < n]


def time_bound(n: int) -> int:
    """Each round fills at least one new cell, so every cell is reached by round n*n - n."""
    return max(0, n * n - n)


def linear_model(n: int, permutation: bool = False) -> LinearModel:
    m = LinearModel(name=f"percolation_{n}{'_perm' if permutation else ''}")
    x = [[m.add_var(f"x_{r}_{c}") for c in range(n)] for r in range(n)]
    t_max = time_bound(n)
    t = [[m.add_var(f"t_{r}_{c}", 0, t_max) for c in range(n)] for r in range(n)]
    cells = [(r, c) for r in range(n) for c in range(n)]
    m.add_row([(x[r][c], 1) for r, c in cells], n, n, "n_cells")
    earlier: dict[tuple[int, int], list[tuple[int, float]]] = {rc: [] for rc in cells}
    for r, c in cells:
        # chosen <=> infected at round 0
        m.add_indicator(x[r][c], 1, [(t[r][c], 1)], hi=0)
        m.add_indicator(x[r][c], 0, [(t[r][c], 1)], lo=1)
        for rr, cc in neighbours(n, r, c):
            if (rr, cc) < (r, c):
                continue
            # one Boolean per edge: which end fills first (never both at once, see below)
            o = m.add_var(f"o_{r}_{c}_{rr}_{cc}")
            m.add_indicator(o, 1, [(t[r][c], 1), (t[rr][cc], -1)], hi=-1)
            m.add_indicator(o, 0, [(t[rr][cc], 1), (t[r][c], -1)], hi=-1)
            earlier[(rr, cc)].append((o, 1))          # (r, c) is the earlier end when o = 1
            earlier[(r, c)].append((o, -1))           # (rr, cc) is, when o = 0
            m.add_row([(x[r][c], 1), (x[rr][cc], 1)], hi=1)
    for r, c in cells:
        # exactly two earlier neighbours (a constant: o = 0 terms count 1 - o)
        terms = earlier[(r, c)]
        ones = sum(1 for _, k in terms if k < 0)
        m.add_row(terms + [(x[r][c], 2)], 2 - ones, 2 - ones)
        # ... and at most one of them from before the previous round
        much_earlier = []
        for rr, cc in neighbours(n, r, c):
            e = m.add_var(f"e_{r}_{c}_{rr}_{cc}")
            diff = [(t[rr][cc], 1), (t[r][c], -1)]          # t[neighbour] - t[cell]
            m.add_indicator(e, 1, diff, hi=-2)
            m.add_indicator(e, 0, diff, lo=-1)
            much_earlier.append((e, 1))
        m.add_row(much_earlier + [(x[r][c], -4)], hi=1)
    _implied_lines(m, x, n, permutation)
    m.project = [x[r][c] for r, c in cells]
    return m


def _implied_lines(m: LinearModel, x: list[list[int]], n: int, permutation: bool) -> None:
    """Implied rows that speed up the search (two empty adjacent lines can never fill; nor can an
    empty edge line), and the permutation variant's one cell per row and column."""
    for lines in ([[x[r][c] for c in range(n)] for r in range(n)],
                  [[x[r][c] for r in range(n)] for c in range(n)]):
        for i, line in enumerate(lines):
            if permutation:
                m.add_row([(v, 1) for v in line], 1, 1)
            elif i in (0, n - 1):
                m.add_row([(v, 1) for v in line], lo=1)
            if i + 1 < n and not permutation:
                m.add_row([(v, 1) for v in line + lines[i + 1]], lo=1)


def decode_cells(n: int, values) -> list[list[int]]:
    """The chosen cells [row, column] from a model solution (the first n*n variables)."""
    return [[i // n, i % n] for i in range(n * n) if round(values[i]) == 1]


def build(n: int, permutation: bool = False) -> Built:
    return Built(linear_model(n, permutation), lambda values: {"n": n, "cells": decode_cells(n, values)})
