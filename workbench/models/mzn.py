"""MiniZinc writers: one generic model file per model kind, the instance itself goes in the data file."""
from __future__ import annotations

from .core import HittingSet, LinearModel, Model, as_linear

HITTING_SET_MZN = """\
% Weighted minimum hitting set: choose elements so that every set contains a chosen one.
int: n_elements;
int: n_sets;
array[1..n_sets] of set of 1..n_elements: sets;
array[1..n_elements] of int: weight;
array[1..n_elements] of var bool: x;
constraint forall(s in 1..n_sets)(exists(e in sets[s])(x[e]));
% implied rows (true of every hitting set): at least least[i] elements of implied[i] are chosen
int: n_implied;
array[1..n_implied] of set of 1..n_elements: implied;
array[1..n_implied] of int: least;
array[1..n_implied] of var 0..n_elements: chosen;    % variables of their own, not inlined into the cost
constraint forall(i in 1..n_implied)(chosen[i] = sum(e in implied[i])(bool2int(x[e])) /\\ chosen[i] >= least[i]);
% with unit weights and `packed` pairwise disjoint implied rows, the cost is summed as their counts
% plus the rest: propagation then bounds it below by the sum of their least, and a tight cost bounds
% each count above
set of int: packed;
set of 1..n_elements: unpacked;
var int: cost = if card(packed) > 0 then sum(i in packed)(chosen[i]) + sum(e in unpacked)(bool2int(x[e]))
                else sum(e in 1..n_elements)(weight[e] * bool2int(x[e])) endif;
solve minimize cost;
output ["x = \\(bool2int(x));\\n", "cost = \\(cost);\\n"];
"""

LINEAR_MZN = """\
% Generic 0-1/integer linear model in sparse row form, with half-reified (indicator) rows
% and all-different groups. Infinite row sides are replaced by the rows' activity bounds.
include "alldifferent.mzn";
int: nv;
array[1..nv] of int: lb;
array[1..nv] of int: ub;
array[1..nv] of var if nv = 0 then 0 else min(lb) endif..if nv = 0 then 0 else max(ub) endif: x;
constraint forall(i in 1..nv)(x[i] >= lb[i] /\\ x[i] <= ub[i]);

int: nr;
array[1..nr + 1] of int: rstart;
array[int] of int: ridx;
array[int] of int: rcoef;
array[1..nr] of int: rlo;
array[1..nr] of int: rhi;
constraint forall(r in 1..nr)(
  let { var int: a = sum(k in rstart[r]..rstart[r + 1] - 1)(rcoef[k] * x[ridx[k]]) }
  in a >= rlo[r] /\\ a <= rhi[r]);

int: ni;
array[1..ni] of int: ivar;
array[1..ni] of int: ival;
array[1..ni + 1] of int: istart;
array[int] of int: iidx;
array[int] of int: icoef;
array[1..ni] of int: ilo;
array[1..ni] of int: ihi;
constraint forall(i in 1..ni)(x[ivar[i]] = ival[i] ->
  let { var int: a = sum(k in istart[i]..istart[i + 1] - 1)(icoef[k] * x[iidx[k]]) }
  in a >= ilo[i] /\\ a <= ihi[i]);

int: ng;
array[1..ng + 1] of int: gstart;
array[int] of int: gvars;
constraint forall(g in 1..ng)(alldifferent([x[gvars[k]] | k in gstart[g]..gstart[g + 1] - 1]));

int: sense;         % 1 minimise, -1 maximise, 0 satisfy
int: constant;
array[int] of int: ovar;
array[int] of int: ocoef;
var int: objective = constant + sum(k in index_set(ovar))(ocoef[k] * x[ovar[k]]);
"""

SOLVE_LINES = {
    1: "solve minimize objective;\n",
    -1: "solve maximize objective;\n",
    0: "solve satisfy;\n",
}
OUTPUT_LINE = 'output ["x = \\(x);\\n", "objective = \\(objective);\\n"];\n'


def _int(x: float) -> int:
    if abs(x - round(x)) > 1e-9:
        raise ValueError(f"MiniZinc export needs integer coefficients, got {x}")
    return int(round(x))


def _packing(hs: HittingSet) -> list[int]:
    """Pairwise disjoint implied rows, greedily by their least (then the fewest elements)."""
    taken: set[int] = set()
    packed = []
    for i in sorted(range(len(hs.at_least)), key=lambda i: (-hs.at_least[i][1], len(hs.at_least[i][0]))):
        if taken.isdisjoint(hs.at_least[i][0]):
            packed.append(i)
            taken.update(hs.at_least[i][0])
    return packed


def _set(elements) -> str:
    return "{" + ", ".join(str(e + 1) for e in elements) + "}"


def _array(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _sparse_rows(model: LinearModel, rows) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    start, idx, coef, lo, hi = [1], [], [], [], []
    for row in rows:
        amin = amax = 0
        for v, c in row.terms:
            idx.append(v + 1)
            coef.append(_int(c))
            a, b = _int(c) * model.vars[v].lb, _int(c) * model.vars[v].ub
            amin, amax = amin + min(a, b), amax + max(a, b)
        start.append(len(idx) + 1)
        lo.append(amin if row.lo is None else _int(row.lo))
        hi.append(amax if row.hi is None else _int(row.hi))
    return start, idx, coef, lo, hi


def to_minizinc(model: Model, satisfy: bool = False) -> tuple[str, str]:
    """(model text, data text). `satisfy` drops the objective, e.g. to enumerate all solutions."""
    if isinstance(model, HittingSet) and not satisfy:
        weights = [model.weight(e) for e in range(model.n_elements)]
        data = (f"n_elements = {model.n_elements};\nn_sets = {len(model.sets)};\n"
                f"sets = [{', '.join(_set(s) for s in model.sets)}];\n"
                f"weight = {_array(weights)};\n"
                f"n_implied = {len(model.at_least)};\nimplied = [{', '.join(_set(s) for s, _ in model.at_least)}];\n"
                f"least = {_array(least for _, least in model.at_least)};\n")
        packed = _packing(model) if model.weights is None else []
        unpacked = set(range(model.n_elements)).difference(*(model.at_least[i][0] for i in packed))
        data += f"packed = {{{', '.join(str(i + 1) for i in packed)}}};\nunpacked = {_set(sorted(unpacked))};\n"
        return HITTING_SET_MZN, data
    m = as_linear(model)
    for v in m.vars:
        if not v.integer or not v.bounded:
            raise ValueError(f"the MiniZinc writer takes integer variables with finite bounds only ({v.name} "
                             f"is {'continuous' if not v.integer else 'unbounded'})")
    rstart, ridx, rcoef, rlo, rhi = _sparse_rows(m, m.rows)
    istart, iidx, icoef, ilo, ihi = _sparse_rows(m, [ind.row for ind in m.indicators])
    gstart, gvars = [1], []
    for g in m.alldiff:
        gvars += [v + 1 for v in g.vars]
        gstart.append(len(gvars) + 1)
    sense = 0 if satisfy or not m.objective else (-1 if m.is_maximise else 1)
    solve = SOLVE_LINES[sense]
    if m.search_order:                      # the model's own order, largest value first
        order = ", ".join(f"x[{v + 1}]" for v in m.search_order)
        solve = solve.replace("solve", f"solve :: int_search([{order}], input_order, indomain_max, complete)", 1)
    elif m.neighbourhoods and sense != 0:   # restarts that keep 80% of the best solution (Gecode's LNS)
        solve = solve.replace("solve", "solve :: restart_luby(100) :: relax_and_reconstruct(x, 80)", 1)
    lines = [
        f"nv = {len(m.vars)};", f"lb = {_array(v.lb for v in m.vars)};",
        f"ub = {_array(v.ub for v in m.vars)};",
        f"nr = {len(m.rows)};", f"rstart = {_array(rstart)};", f"ridx = {_array(ridx)};",
        f"rcoef = {_array(rcoef)};", f"rlo = {_array(rlo)};", f"rhi = {_array(rhi)};",
        f"ni = {len(m.indicators)};", f"ivar = {_array(i.var + 1 for i in m.indicators)};",
        f"ival = {_array(i.value for i in m.indicators)};", f"istart = {_array(istart)};",
        f"iidx = {_array(iidx)};", f"icoef = {_array(icoef)};", f"ilo = {_array(ilo)};",
        f"ihi = {_array(ihi)};",
        f"ng = {len(m.alldiff)};", f"gstart = {_array(gstart)};", f"gvars = {_array(gvars)};",
        f"sense = {sense};", f"constant = {_int(m.constant)};",
        f"ovar = {_array(v + 1 for v, _ in m.objective)};",
        f"ocoef = {_array(_int(c) for _, c in m.objective)};",
    ]
    return LINEAR_MZN + solve + OUTPUT_LINE, "\n".join(lines) + "\n"
