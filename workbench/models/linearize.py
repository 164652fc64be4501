"""Rewrite indicator rows (big-M) and all-different groups (one-hot) for pure MIP solvers."""
from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from .core import LinearModel, Model, Row, Var, as_linear


def _activity_range(model: LinearModel, row: Row) -> tuple[float, float]:
    lo = hi = 0.0
    for v, c in row.terms:
        var = model.vars[v]
        a, b = c * var.lb, c * var.ub
        lo += min(a, b)
        hi += max(a, b)
    return lo, hi


def _domain(var: Var) -> range:
    """An all-different variable's values (the generators' integers with finite bounds)."""
    return range(int(var.lb), int(var.ub) + 1)


def flatten(model: Model) -> LinearModel:
    """A copy with only plain rows; variable bounds must be finite where big-M needs them."""
    model = as_linear(model)
    if not model.indicators and not model.alldiff:
        return model
    m = copy.copy(model)
    m.vars, m.rows = list(model.vars), list(model.rows)
    m.indicators, m.alldiff = [], []
    for ind in model.indicators:
        amin, amax = _activity_range(model, ind.row)
        # the switch s = s0 + sc * x[var] is 1 exactly when the indicator is active
        s0, sc = (0.0, 1.0) if ind.value == 1 else (1.0, -1.0)
        if ind.row.lo is not None and amin < ind.row.lo:      # a.x >= lo - big (1 - s)
            big = ind.row.lo - amin
            m.add_row(list(ind.row.terms) + [(ind.var, -big * sc)], lo=ind.row.lo - big + big * s0,
                      name=ind.row.name)
        if ind.row.hi is not None and amax > ind.row.hi:      # a.x <= hi + big (1 - s)
            big = amax - ind.row.hi
            m.add_row(list(ind.row.terms) + [(ind.var, big * sc)], hi=ind.row.hi + big - big * s0,
                      name=ind.row.name)
    for group in model.alldiff:
        onehot: dict[tuple[int, int], int] = {}
        for v in group.vars:
            var = model.vars[v]
            for val in _domain(var):
                onehot[v, val] = m.add_var(f"{var.name}_is_{val}")
            m.add_row([(onehot[v, val], 1.0) for val in _domain(var)], lo=1, hi=1)
            m.add_row([(onehot[v, val], float(val)) for val in _domain(var)] + [(v, -1.0)], lo=0, hi=0)
        for val in sorted({val for v in group.vars for val in _domain(model.vars[v])}):
            users = [onehot[v, val] for v in group.vars if (v, val) in onehot]
            if len(users) > 1:
                m.add_row([(u, 1.0) for u in users], hi=1)
    return m


@dataclass
class MatrixForm:
    """Column bounds, costs and a CSR constraint matrix: what a MIP solver's bulk API wants."""

    cost: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    integer: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    starts: np.ndarray
    index: np.ndarray
    value: np.ndarray
    maximise: bool
    constant: float


def matrix_form(model: Model) -> MatrixForm:
    m = flatten(model)
    n = len(m.vars)
    cost = np.zeros(n)
    for v, c in m.objective:
        cost[v] += c
    starts, index, value = [0], [], []
    for row in m.rows:
        for v, c in row.terms:
            index.append(v)
            value.append(c)
        starts.append(len(index))
    return MatrixForm(
        cost=cost,
        col_lower=np.array([v.lb for v in m.vars], dtype=float),
        col_upper=np.array([v.ub for v in m.vars], dtype=float),
        integer=np.array([v.integer for v in m.vars], dtype=bool),
        row_lower=np.array([-np.inf if r.lo is None else r.lo for r in m.rows], dtype=float),
        row_upper=np.array([np.inf if r.hi is None else r.hi for r in m.rows], dtype=float),
        starts=np.array(starts, dtype=np.int64),
        index=np.array(index, dtype=np.int64),
        value=np.array(value, dtype=float),
        maximise=m.is_maximise,
        constant=m.constant,
    )
