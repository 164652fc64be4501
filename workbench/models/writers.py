"""Standard files for any model, so a user can take it to another solver: LP, MPS, WCNF, MiniZinc."""
from __future__ import annotations

import re
from pathlib import Path

from .core import HittingSet, MaxSatModel, Model, hitting_set_to_maxsat
from .linearize import flatten
from .mzn import to_minizinc

FORMATS = ("lp", "mps", "wcnf", "mzn")


def to_pulp(model: Model):
    """The model as a PuLP problem (PuLP writes LP/MPS and drives CBC); returns (problem, variables)."""
    import pulp

    m = flatten(model)
    prob = pulp.LpProblem(re.sub(r"\W", "_", m.name) or "model",
                          pulp.LpMaximize if m.is_maximise else pulp.LpMinimize)
    xs = [pulp.LpVariable(f"x{i}_{re.sub(r'[^A-Za-z0-9_]', '_', v.name)}"[:60], v.lb, v.ub,
                          pulp.LpInteger if v.integer else pulp.LpContinuous)
          for i, v in enumerate(m.vars)]
    prob += pulp.lpSum(c * xs[v] for v, c in m.objective) + m.constant
    for i, row in enumerate(m.rows):
        expr = pulp.lpSum(c * xs[v] for v, c in row.terms)
        if row.lo is not None and row.lo == row.hi:
            prob += expr == row.lo, f"r{i}"
            continue
        if row.lo is not None:
            prob += expr >= row.lo, f"r{i}_lo"
        if row.hi is not None:
            prob += expr <= row.hi, f"r{i}_hi"
    return prob, xs


def to_wcnf(model: Model):
    """python-sat's WCNF of a hitting-set or MaxSAT model."""
    from pysat.formula import WCNF

    if isinstance(model, HittingSet):
        model = hitting_set_to_maxsat(model)
    if not isinstance(model, MaxSatModel):
        raise ValueError("WCNF needs a hitting-set or MaxSAT model; this puzzle's model is linear")
    wcnf = WCNF()
    for clause in model.hard:
        wcnf.append(clause)
    for clause, weight in model.soft:
        wcnf.append(clause, weight=weight)
    return wcnf


def write(model: Model, fmt: str, path: str | Path) -> list[Path]:
    """Write `model` as `fmt`; returns the files written (MiniZinc writes model and data)."""
    path = Path(path)
    if fmt in ("lp", "mps"):
        prob, _ = to_pulp(model)
        prob.writeLP(str(path)) if fmt == "lp" else prob.writeMPS(str(path))
        return [path]
    if fmt == "wcnf":
        to_wcnf(model).to_file(str(path))
        return [path]
    if fmt == "mzn":
        text, data = to_minizinc(model)
        data_path = path.with_suffix(".dzn")
        path.write_text(text)
        data_path.write_text(data)
        return [path, data_path]
    raise ValueError(f"unknown format '{fmt}' (known: {', '.join(FORMATS)})")
