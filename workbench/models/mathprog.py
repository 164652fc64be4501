"""GLPK MathProg (GMPL): a model file and a data file, as the Enigma 144 seed gave them to glpsol
and lp_solve (`glpsol --math model.mod --data model.dat`).

A hitting set is written as the seed's model (MATCHES, SHAPES, minimize the matches taken, every
shape hit), its 0-1 inclusion matrix given sparsely as the set of matches of each shape; any other
model as a general sparse 0-1/integer program of its flattened rows.
"""
from __future__ import annotations

import re
from pathlib import Path

from .core import HittingSet, Model
from .linearize import flatten
from .writers import data_file

SYMBOL = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

HITTING_SET = """/* {name}: a minimum-weight hitting set, the seed's model (Enigma 144, J. Randell 2013)
   with its inclusion matrix given sparsely.  glpsol --math {mod} --data {dat} */

/* sets - the matches and the shapes */
set MATCHES;
set SHAPES;

/* parameters - the matches of each shape, and each match's weight */
set HITS {{i in SHAPES}} within MATCHES;
param w {{j in MATCHES}}, default 1;

/* decision variables for the matches */
var x {{j in MATCHES}} binary >= 0;

/* objective - minimum hitting set */
minimize size: sum {{j in MATCHES}} w[j] * x[j];

/* constraint - the hitting set spoils each shape */
s.t. hit {{i in SHAPES}}: sum {{j in HITS[i]}} x[j] >= 1;

solve;
printf "objective %d\\n", sum {{j in MATCHES}} w[j] * x[j];
end;
"""

LINEAR = """/* {name}: a 0-1/integer linear program (indicators and all-different groups written as
   rows).  glpsol --math {mod} --data {dat} */

set VARS;
set ROWS;
set LOW within ROWS;                     /* rows with a lower side */
set HIGH within ROWS;                    /* rows with an upper side */
set COLS {{i in ROWS}} within VARS;       /* the variables of each row */
param a {{i in ROWS, j in COLS[i]}};
param lo {{i in LOW}};
param hi {{i in HIGH}};
param lb {{j in VARS}};
param ub {{j in VARS}};
param c {{j in VARS}}, default 0;
param constant, default 0;

var x {{j in VARS}} {integer}>= lb[j], <= ub[j];

{sense} objective: constant + sum {{j in VARS}} c[j] * x[j];

s.t. low {{i in LOW}}: sum {{j in COLS[i]}} a[i, j] * x[j] >= lo[i];
s.t. high {{i in HIGH}}: sum {{j in COLS[i]}} a[i, j] * x[j] <= hi[i];

solve;
printf "objective %g\\n", constant + sum {{j in VARS}} c[j] * x[j];
end;
"""


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _lines(items: list[str], per_line: int = 20) -> str:
    return "\n".join(" " + " ".join(items[i:i + per_line]) for i in range(0, len(items), per_line))


def to_mathprog(model: Model, mod: str = "model.mod", dat: str = "model.dat") -> tuple[str, str]:
    """The model file and the data file, as text."""
    if isinstance(model, HittingSet) and not model.at_least:   # with implied rows: the general form
        return _hitting_set(model, mod, dat)
    m = flatten(model)
    if not all(v.integer for v in m.vars):
        raise ValueError("the MathProg export writes integer models; this one has continuous variables")
    text = LINEAR.format(name=m.name, mod=mod, dat=dat, integer="integer, ",
                         sense="maximize" if m.is_maximise else "minimize")
    rows = range(len(m.rows))
    cost: dict[int, float] = {}
    for v, c in m.objective:
        cost[v] = cost.get(v, 0.0) + c
    data = ["data;", f"set VARS := {' '.join(str(j) for j in range(len(m.vars)))};",
            f"set ROWS := {' '.join(str(i) for i in rows)};",
            f"set LOW := {' '.join(str(i) for i in rows if m.rows[i].lo is not None)};",
            f"set HIGH := {' '.join(str(i) for i in rows if m.rows[i].hi is not None)};"]
    data += [f"set COLS[{i}] := {' '.join(str(v) for v in sorted({v for v, _ in m.rows[i].terms}))};"
             for i in rows]
    coef: dict[tuple[int, int], float] = {}
    for i in rows:
        for v, c in m.rows[i].terms:
            coef[i, v] = coef.get((i, v), 0.0) + c
    data.append("param a :=\n" + _lines([f"{i} {v} {_num(c)}" for (i, v), c in coef.items()], 8) + ";")
    for key, side in (("lo", "lo"), ("hi", "hi")):
        pairs = [f"{i} {_num(getattr(m.rows[i], side))}" for i in rows if getattr(m.rows[i], side) is not None]
        data.append(f"param {key} :=\n" + _lines(pairs, 10) + ";")
    data.append("param lb :=\n" + _lines([f"{j} {v.lb}" for j, v in enumerate(m.vars)], 10) + ";")
    data.append("param ub :=\n" + _lines([f"{j} {v.ub}" for j, v in enumerate(m.vars)], 10) + ";")
    data.append("param c :=\n" + _lines([f"{j} {_num(c)}" for j, c in sorted(cost.items())], 10) + ";")
    data += [f"param constant := {_num(m.constant)};", "end;"]
    return text, "\n".join(data) + "\n"


def _hitting_set(hs: HittingSet, mod: str, dat: str) -> tuple[str, str]:
    names = hs.names if hs.names and len(set(hs.names)) == len(hs.names) and all(
        SYMBOL.match(s) for s in hs.names) else [f"m{e}" for e in range(hs.n_elements)]
    data = ["data;", f"set MATCHES :=\n{_lines(names, 10)};",
            f"set SHAPES := {' '.join(f's{i}' for i in range(len(hs.sets)))};"]
    data += [f"set HITS[s{i}] := {' '.join(names[e] for e in s)};" for i, s in enumerate(hs.sets)]
    if hs.weights is not None:
        data.append("param w :=\n" + _lines([f"{names[e]} {hs.weight(e)}" for e in range(hs.n_elements)], 10) + ";")
    data.append("end;")
    return HITTING_SET.format(name=hs.name, mod=mod, dat=dat), "\n".join(data) + "\n"


def write(model: Model, path: str | Path) -> list[Path]:
    """The model file at `path` and its data file beside it (.dat)."""
    path = Path(path)
    data_path = data_file(path, "mathprog")
    text, data = to_mathprog(model, path.name, data_path.name)
    path.write_text(text)
    data_path.write_text(data)
    return [path, data_path]
