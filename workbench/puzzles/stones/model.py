"""Stepping stones as a 0-1 model: "can n ones reach M inside a W x W box?" (OEIS A337663).

One Boolean x[c, v] per cell c of the box and value v in 1..top ("cell c holds v"). The sum rule is a
half-reified row per (cell, value): x[c, k] = 1 implies that the neighbours of c holding values below
k (those on the board when k is placed) sum to exactly k. CP-SAT and MiniZinc take these indicators
natively; HiGHS and CBC get them as big-M rows from the core.

Symmetry breaking: the 2 sits at the centre of the box (translations) and the 3 in one eighth of
the plane around it, 0 <= dcol <= drow (rotations and reflections). The box therefore reaches
box // 2 cells from the 2 on each side for an odd box (the defaults are odd), one fewer on the far
side for an even one.

Formulations:
- "max": y[v] = "v is placed", y[v] <= y[v-1], maximise 1 + sum y; the optimum is proven in the box
  when it is below `top`.
- "reach": every value 2..top must be placed (a feasibility question; increase top to maximise).
- "position" (position_model): integer row and column per value and per one, so the model's size does
  not depend on the board's extent; with the search order it carries, CP-SAT proves a(2) and a(3).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...models.core import AllDifferent, Built, LinearModel
from ...search.symmetry import transform

FORMULATIONS = {
    "max": "maximise the largest number placed (values capped at --top, default 12 n + 6: above every record)",
    "reach": "feasibility: place every number 2..top (maximise by increasing --top)",
    "position": "a row and column per value and per one, adjacency Booleans, maximise the last value "
                "placed; box-free for n <= 4 (default for cpsat)",
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
    x = lambda r, c, v: var_index(box, top, r, c, v)
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
    mid = box // 2                      # the 2 sits at the centre (if placed); the 3 in one eighth
    placed_2 = [(ys[0], -1)] if formulation == "max" else []
    m.add_row([(x(mid, mid, 2), 1)] + placed_2, lo=0 if placed_2 else 1, name="two_at_centre")
    if top >= 3:
        m.add_row([(x(r, c, 3), 1) for r, c in cells if not 0 <= c - mid <= r - mid], hi=0,
                  name="three_in_octant")
    if hint:
        m.hints = hint_values(m, box, top, hint)
    return m


def position_model(n: int, top: int, radius: int | None = None) -> LinearModel:
    """Values 2..top and the n ones as (row, col) integer pairs around the 2 at (0, 0).

    y[v] = "v is placed" (y[v] <= y[v-1]); a[u, v] = "u and v are neighbours" for u < v, b[i, v] =
    "one i touches v"; a placed v then needs sum(u * a[u, v]) + sum(b[i, v]) = v. Each adjacency
    Boolean is tied to the coordinates both ways: true forces |dr|, |dc| <= 1; false needs one of four
    "apart" Booleans (dr >= 2, dr <= -2, dc >= 2, dc <= -2). A placed v > n must touch an earlier
    number (its ones alone cannot make v). All stones get different cells (all-different on
    (2 radius + 3) * row + col).

    Why box-free for n <= 4 (radius None): a v > n touches an earlier number, so it lies at most one
    king step further from the 2 than that number. A v <= n made by ones only (3 or 4) uses ones
    that the 2 uses too (the 2 has two ones of its own and only n - 2 others exist), so it lies
    within 2 steps of the 2. By induction every v lies within v - 1 steps of the 2, which is the
    domain given here; a one that touches no number is never needed and has room to stand aside
    within top + 2 steps. With `radius`, everything lies within radius of the 2 (a box).

    Symmetry breaking: the 2 at the origin, the 3 in one eighth (0 <= col <= row), the ones in
    increasing cell order. `search_order` (y, row, col for v = 2, 3, ...) makes CP-SAT place numbers
    in turn like the native search, with propagation: measured n = 3, top 31: proven in 72 s with one
    worker, not in 900 s with the default portfolio.
    """
    m = LinearModel(name=f"stones_n{n}_position_top{top}" + (f"_r{radius}" if radius else ""), sense="max")
    spread = radius if radius is not None else top + 2
    key_scale = 2 * spread + 3
    ys, rows, cols = {}, {}, {}
    for v in range(2, top + 1):
        reach = spread if radius is not None else v - 1
        ys[v] = m.add_var(f"y_{v}")
        rows[v] = m.add_var(f"r_{v}", -reach, reach)
        cols[v] = m.add_var(f"c_{v}", -reach, reach)
    ones = [(m.add_var(f"r_one{i}", -spread, spread), m.add_var(f"c_one{i}", -spread, spread))
            for i in range(n)]
    m.vars[rows[2]].lb = m.vars[rows[2]].ub = m.vars[cols[2]].lb = m.vars[cols[2]].ub = 0

    def cell_key(r: int, c: int) -> int:
        k = m.add_var(f"key_{m.vars[r].name[2:]}", -key_scale * spread - spread, key_scale * spread + spread)
        m.add_row([(k, 1), (r, -key_scale), (c, -1)], lo=0, hi=0)
        return k

    number_keys = [cell_key(rows[v], cols[v]) for v in range(2, top + 1)]
    one_keys = [cell_key(r, c) for r, c in ones]
    m.alldiff.append(AllDifferent(number_keys + one_keys))
    for a, b in zip(one_keys, one_keys[1:]):               # ones in increasing cell order
        m.add_row([(b, 1), (a, -1)], lo=1)
    if top >= 3:
        m.add_row([(cols[3], 1)], lo=0)
        m.add_row([(cols[3], 1), (rows[3], -1)], hi=0)

    def touching(r1: int, c1: int, r2: int, c2: int, name: str) -> int:
        t = m.add_var(name)
        apart: list[int] = []
        for x1, x2 in ((r1, r2), (c1, c2)):
            m.add_indicator(t, 1, [(x1, 1), (x2, -1)], lo=-1, hi=1)
            for sign in (1, -1):
                d = m.add_var(f"{name}_apart{len(apart)}")
                m.add_indicator(d, 1, [(x1, sign), (x2, -sign)], lo=2)
                apart.append(d)
        m.add_row([(t, 1)] + [(d, 1) for d in apart], lo=1)
        return t

    for v in range(2, top + 1):
        if v > 2:
            m.add_row([(ys[v], 1), (ys[v - 1], -1)], hi=0, name=f"order_{v}")
        numbers = [(touching(rows[u], cols[u], rows[v], cols[v], f"a_{u}_{v}"), u) for u in range(2, v)]
        by_ones = [(touching(r, c, rows[v], cols[v], f"b_{i}_{v}"), 1) for i, (r, c) in enumerate(ones)]
        m.add_indicator(ys[v], 1, numbers + by_ones, lo=v, hi=v, name=f"sum_{v}")
        if v > n:
            m.add_indicator(ys[v], 1, [(t, 1) for t, _ in numbers], lo=1, name=f"touches_{v}")
    m.objective = [(y, 1.0) for y in ys.values()]
    m.constant = 1.0
    m.search_order = [x for v in range(2, top + 1) for x in (ys[v], rows[v], cols[v])]
    return m


def decode_positions(model: LinearModel, values: Sequence[Any]) -> list[list[int]]:
    """Position-model values -> [row, col, value] triples: the ones, then the numbers placed."""
    at = {var.name: int(round(values[i])) for i, var in enumerate(model.vars)}
    board = [[at[f"r_one{i}"], at[f"c_one{i}"], 1] for i in range(sum(k.startswith("r_one") for k in at))]
    v = 2
    while at.get(f"y_{v}") == 1:
        board.append([at[f"r_{v}"], at[f"c_{v}"], v])
        v += 1
    return board


def hint_values(m: LinearModel, box: int, top: int, board: Sequence[Sequence[int]]) -> dict[int, int]:
    """A board ([row, col, value] triples) as a start solution, moved and turned into the model's
    symmetry class (2 at the centre, 3 in its eighth); empty when it does not fit the box."""
    where = {v: (r, c) for r, c, v in board if v >= 2}
    if 2 not in where:
        return {}
    mid = box // 2
    r2, c2 = where[2]
    r3, c3 = where.get(3, (r2, c2))
    dr, dc = r3 - r2, c3 - c2
    turn = next(o for o in range(8) if 0 <= transform(o, dr, dc)[1] <= transform(o, dr, dc)[0])
    cells = [(mid + a, mid + b, v) for r, c, v in board if v <= top
             for a, b in [transform(turn, r - r2, c - c2)]]
    if any(not (0 <= r < box and 0 <= c < box) for r, c, _ in cells):
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


def build(n: int, formulation: str, box: int, top: int, radius: int | None = None,
          hint: Sequence[Sequence[int]] | None = None) -> Built:
    """The model of this formulation with its decoder: the position model (box-free, or within
    `radius` of the 2), or a cell-value model of a box x box square."""
    if formulation == "position":
        m = position_model(n, top, radius)
        return Built(m, lambda values: decode_positions(m, values))
    return Built(box_model(n, box, top, formulation, hint), lambda values: decode(box, top, values))
