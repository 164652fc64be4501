"""Standard files for any model, so a user can take it to another solver: LP, MPS, WCNF, MiniZinc.

The LP and MPS files are written here, not by PuLP, which keeps a maximisation in MPS only as a
comment and drops the objective's constant from both. Both formats carry the sense (LP: `Maximize`,
MPS: an OBJSENSE section, which HiGHS, lp_solve, CPLEX and SCIP read; glpsol reads none and needs
`--max`) and the constant, as a column fixed at 1 (every reader takes that; an objective row's RHS
means +c to lp_solve and -c to HiGHS). That column is an integer one: lp_solve 5.5.2's branch and
bound stops short of the optimum when a continuous column has an objective coefficient (stones
n = 2 in a 3 x 3 box: 6, not 7, even for a continuous column fixed at 0)."""
from __future__ import annotations

import math
import re
from pathlib import Path

from .core import HittingSet, LinearModel, MaxSatModel, Model, Var, hitting_set_to_maxsat
from .linearize import flatten
from .mzn import to_minizinc

FORMATS = ("lp", "mps", "wcnf", "mzn")


def to_pulp(model: Model):
    """The model as a PuLP problem (PuLP writes LP/MPS and drives CBC); returns (problem, variables)."""
    import pulp

    m = flatten(model)
    prob = pulp.LpProblem(re.sub(r"\W", "_", m.name) or "model",
                          pulp.LpMaximize if m.is_maximise else pulp.LpMinimize)
    xs = [pulp.LpVariable(name, _finite(v.lb), _finite(v.ub), pulp.LpInteger if v.integer else pulp.LpContinuous)
          for name, v in zip(_names(m), m.vars)]
    prob += pulp.lpSum(c * xs[v] for v, c in m.objective) + m.constant
    for name, terms, sense, rhs in _rows(m):
        expr = pulp.lpSum(c * xs[v] for v, c in terms)
        prob += (expr == rhs if sense == "E" else expr >= rhs if sense == "G" else expr <= rhs), name
    return prob, xs


def _finite(bound: float) -> float | None:
    """PuLP's way to say an infinite bound: None."""
    return bound if math.isfinite(bound) else None


CONSTANT = "constant_one"      # the column fixed at 1 that carries the objective's constant


def _names(m: LinearModel) -> list[str]:
    return [f"x{i}_{re.sub(r'[^A-Za-z0-9_]', '_', v.name)}"[:60] for i, v in enumerate(m.vars)]


def _rows(m: LinearModel) -> list[tuple[str, list[tuple[int, float]], str, float]]:
    """Each row as (name, terms, sense E/G/L, right-hand side); a ranged row becomes two."""
    rows = []
    for i, row in enumerate(m.rows):
        if row.lo is not None and row.lo == row.hi:
            rows.append((f"r{i}", row.terms, "E", row.lo))
            continue
        both = row.lo is not None and row.hi is not None
        if row.lo is not None:
            rows.append((f"r{i}_lo" if both else f"r{i}", row.terms, "G", row.lo))
        if row.hi is not None:
            rows.append((f"r{i}_hi" if both else f"r{i}", row.terms, "L", row.hi))
    return rows


def _num(x: float) -> str:
    """A number as both formats read it back exactly (infinite bounds: +inf, -inf, as LP files write them)."""
    return f"{x:+}" if math.isinf(x) else f"{x:.17g}"


def _mps_bounds(var: Var, name: str) -> list[str]:
    """A column's BOUNDS lines: FX, FR, MI and PL where a bound is infinite."""
    if var.lb == var.ub:
        return [f" FX BND {name} {_num(var.lb)}"]
    if not math.isfinite(var.lb) and not math.isfinite(var.ub):
        return [f" FR BND {name}"]
    lower = f" MI BND {name}" if not math.isfinite(var.lb) else f" LO BND {name} {_num(var.lb)}"
    return [lower, f" PL BND {name}" if not math.isfinite(var.ub) else f" UP BND {name} {_num(var.ub)}"]


def _columns(m: LinearModel) -> list[str]:
    """The column names; the constant's column only where there is a constant, so that a model
    without one reads back with exactly its own columns."""
    return _names(m) + ([CONSTANT] if m.constant else [])


def _objective(m: LinearModel) -> list[tuple[int, float]]:
    """The objective's terms, the constant as a term of column -1 (CONSTANT)."""
    return list(m.objective) + ([(-1, m.constant)] if m.constant else [])


def to_lp(model: Model) -> str:
    """CPLEX LP text of the model (flattened: indicators as big-M rows, all-different one-hot)."""
    m = flatten(model)
    names = _columns(m)

    def expr(terms: list[tuple[int, float]]) -> str:
        parts = [f"{'-' if c < 0 else '+'} {_num(abs(c))} {names[v]}" for v, c in terms]
        lines = [" ".join(parts[i:i + 8]) for i in range(0, len(parts), 8)] or ["0 " + names[-1]]
        return "\n   ".join(lines)

    out = [f"\\ {m.name}", "Maximize" if m.is_maximise else "Minimize", f" obj: {expr(_objective(m))}",
           "Subject To"]
    for name, terms, sense, rhs in _rows(m):
        out.append(f" {name}: {expr(terms)} {dict(E='=', G='>=', L='<=')[sense]} {_num(rhs)}")
    out.append("Bounds")
    out += [f" {name} = {_num(v.lb)}" if v.lb == v.ub else f" {_num(v.lb)} <= {name} <= {_num(v.ub)}"
            for v, name in zip(m.vars, names)]
    if m.constant:
        out.append(f" {CONSTANT} = 1")
    integers = [name for v, name in zip(m.vars, names) if v.integer] + ([CONSTANT] if m.constant else [])
    if integers:
        out.append("General")
        out += [" " + " ".join(integers[i:i + 8]) for i in range(0, len(integers), 8)]
    out.append("End")
    return "\n".join(out) + "\n"


# readers that take a maximisation's OBJSENSE section: HiGHS, lp_solve, SCIP, CPLEX; two do not
MAXIMISE_NOTE = ["* a maximisation: HiGHS, lp_solve, SCIP and CPLEX read the OBJSENSE section below.",
                 "* CBC 2.10 ignores it (and would minimise): run `cbc FILE -max -solve`.",
                 "* glpsol 5.0 rejects it: delete its two lines and run `glpsol --freemps FILE --max`."]


def to_mps(model: Model) -> str:
    """Free MPS text of the model; integer columns between MARKER lines, every bound written."""
    m = flatten(model)
    names = _columns(m)
    rows = _rows(m)
    columns: list[list[tuple[str, float]]] = [[] for _ in names]
    for v, c in _objective(m):
        columns[v].append(("obj", c))
    for name, terms, _, _ in rows:
        for v, c in terms:
            columns[v].append((name, c))
    title = re.sub(r"\s", "_", m.name) or "model"
    out = [f"* {m.name}"]
    if m.is_maximise:
        out += MAXIMISE_NOTE
    out.append(f"NAME {title}")
    if m.is_maximise:
        out += ["OBJSENSE", "    MAX"]
    out += ["ROWS", " N obj"] + [f" {sense} {name}" for name, _, sense, _ in rows] + ["COLUMNS"]
    integer = False
    for v, (name, entries) in enumerate(zip(names, columns)):
        wanted = v >= len(m.vars) or m.vars[v].integer        # the constant's column is an integer one
        if wanted != integer:
            out.append(f"    MARKER 'MARKER' '{'INTORG' if wanted else 'INTEND'}'")
            integer = wanted
        out += [f"    {name} {row} {_num(c)}" for row, c in entries] or [f"    {name} obj 0"]
    out += ["    MARKER 'MARKER' 'INTEND'"] if integer else []
    out.append("RHS")
    out += [f"    RHS {name} {_num(rhs)}" for name, _, _, rhs in rows if rhs]
    out.append("BOUNDS")
    for var, name in zip(m.vars, names):
        out += _mps_bounds(var, name)
    out += ([f" FX BND {CONSTANT} 1"] if m.constant else []) + ["ENDATA"]
    return "\n".join(out) + "\n"


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
    if model.offset or model.sense == "max":     # WCNF has no constant or sense: said in a comment
        total = f"{model.offset} + cost" if model.offset else "cost"
        wcnf.comments = [f"c objective = {total if model.sense == 'min' else f'-({total})'}, "
                         f"cost: the weight of the falsified soft clauses"]
    return wcnf


MODEL_AND_DATA = {"mzn": (".mzn", ".dzn"), "mathprog": (".mod", ".dat")}   # formats written as two files


def data_file(path: str | Path, fmt: str = "mzn") -> Path:
    """Where a model's data goes: beside the model; a model path that is itself that file
    (`-o m.dzn`) is bad input, or the data would overwrite the model."""
    path = Path(path)
    model, data = MODEL_AND_DATA[fmt]
    if path.suffix == data:
        raise ValueError(f"{path}: the model goes in a {model} file (its data is written beside it as {data})")
    return path.with_suffix(data)


def write(model: Model, fmt: str, path: str | Path) -> list[Path]:
    """Write `model` as `fmt`; returns the files written (MiniZinc writes model and data)."""
    path = Path(path)
    if fmt in ("lp", "mps"):
        path.write_text(to_lp(model) if fmt == "lp" else to_mps(model))
        return [path]
    if fmt == "wcnf":
        to_wcnf(model).to_file(str(path))
        return [path]
    if fmt == "mzn":
        text, data = to_minizinc(model)
        data_path = data_file(path)
        path.write_text(text)
        data_path.write_text(data)
        return [path, data_path]
    raise ValueError(f"unknown format '{fmt}' (known: {', '.join(FORMATS)})")
