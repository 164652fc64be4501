"""OR-Tools CP-SAT: linear rows, native indicators (OnlyEnforceIf), all-different, hints, search order,
counting."""
from __future__ import annotations

import time
from typing import Any

from ..models.core import Count, HittingSet, LinearModel, MaxSatModel, Row, Var, as_linear
from .base import Enumerator, Incumbent, Options, Report, Result, SolutionCount, Status, UnsupportedModel

INSTALL = "pip install ortools"
INT64 = 2 ** 63 - 1


def _integral(x: float, what: str) -> int:
    if abs(x - round(x)) > 1e-9:
        raise UnsupportedModel(f"CP-SAT needs integer coefficients; {what} has {x}")
    return int(round(x))


def _domain(var: Var) -> tuple[int, int]:
    """An integer column's finite domain; CP-SAT has no continuous variables, and a made-up bound
    for an infinite one could cut the optimum off, so both refuse the model."""
    if not var.integer:
        raise UnsupportedModel(f"CP-SAT takes no continuous variables ({var.name} is one)")
    if not var.bounded:
        raise UnsupportedModel(f"CP-SAT needs finite bounds; {var.name} has [{var.lb}, {var.ub}]")
    return int(var.lb), int(var.ub)


def build(model: LinearModel):
    from ortools.sat.python import cp_model

    cp = cp_model.CpModel()
    xs = [cp.new_bool_var(v.name) if v.binary else cp.new_int_var(*_domain(v), v.name) for v in model.vars]
    is_bool = [v.binary for v in model.vars]

    def add(row: Row):
        if (row.lo == 1 and row.hi is None and all(c == 1 and is_bool[v] for v, c in row.terms)):
            return cp.add_bool_or([xs[v] for v, _ in row.terms])   # covering rows: clauses propagate best
        if row.lo is None and row.hi is None:
            return None
        expr = sum(_integral(c, row.name) * xs[v] for v, c in row.terms)
        lo = None if row.lo is None else _integral(row.lo, row.name)
        hi = None if row.hi is None else _integral(row.hi, row.name)
        if lo is not None and hi is not None:
            return cp.add_linear_constraint(expr, lo, hi)
        return cp.add(expr >= lo) if lo is not None else cp.add(expr <= hi)  # type: ignore[operator]

    for row in model.rows:
        add(row)
    for ind in model.indicators:
        lit = xs[ind.var] if ind.value == 1 else xs[ind.var].Not()
        constraint = add(ind.row)
        if constraint is not None:
            constraint.OnlyEnforceIf(lit)
    for group in model.alldiff:
        cp.add_all_different([xs[v] for v in group.vars])
    if model.objective:
        expr = sum(_integral(c, "objective") * xs[v] for v, c in model.objective)
        cp.maximize(expr) if model.is_maximise else cp.minimize(expr)
    for v, val in model.hints.items():
        cp.add_hint(xs[v], val)
    if model.search_order:
        cp.add_decision_strategy([xs[v] for v in model.search_order], cp_model.CHOOSE_FIRST,
                               cp_model.SELECT_MAX_VALUE)
    return cp, xs


def _enum(params: type, key: str, value: Any) -> Any:
    """An option's value as CP-SAT's parameters take it: an enum field's name as its enum member."""
    from ortools.sat import sat_parameters_pb2

    enum = sat_parameters_pb2.SatParameters.DESCRIPTOR.fields_by_name[key].enum_type   # type: ignore[attr-defined]
    return value if enum is None else getattr(params, enum.name).__members__[value]


class CPSAT(Enumerator):
    name = "cpsat"
    kinds = (HittingSet, LinearModel, MaxSatModel)
    install = INSTALL
    distribution = "ortools"
    options_via = "library"

    def exact_integers(self) -> tuple[int, str]:
        return INT64, "CP-SAT's integers are 64-bit"

    def option_types(self) -> dict[str, Any]:
        from ortools.sat import sat_parameters_pb2

        fields = sat_parameters_pb2.SatParameters.DESCRIPTOR.fields   # type: ignore[attr-defined]
        kinds = {1: "int", 2: "int", 3: "int", 4: "int", 5: "float", 6: "float", 7: "bool", 9: "str"}   # cpp_type
        return {f.name: list(f.enum_type.values_by_name) if f.cpp_type == 8 else kinds[f.cpp_type]
                for f in fields if f.label != f.LABEL_REPEATED and (f.cpp_type in kinds or f.cpp_type == 8)}

    def run(self, model: Any, options: Options, report: Report, counting: Count | None) -> Result:
        self.library("ortools")
        from ortools.sat.python import cp_model
        t0 = time.perf_counter()
        lm = as_linear(model)
        cp, xs = build(lm)
        solver = cp_model.CpSolver()
        p = solver.parameters
        p.num_workers = int(options.threads)
        p.random_seed = int(options.seed)
        p.log_search_progress = bool(options.verbose)
        if options.time_limit is not None:
            p.max_time_in_seconds = options.remaining(t0)
        if isinstance(model, HittingSet):
            # pure covering: core-guided lower bounds prove what the default portfolio cannot (measured:
            # enigma144 N=6 proven in seconds instead of not at all in 100 s)
            p.optimize_with_core = True
        if counting:
            # no objective, so the LP relaxation only costs time: measured 65 s -> 1 s for percolation
            # n = 5 and 142 s -> 17.5 s for the 7040 magic squares
            p.linearization_level = 0
        if lm.search_order:
            # the model's own order, followed strictly: measured on stones n = 3 (position model), proven
            # in 72 s this way and not in 900 s by the default portfolio
            p.search_branching = cp_model.FIXED_SEARCH
        for key, value in options.own(self.name).items():     # the user's, over the workbench's own
            setattr(p, key, _enum(type(p), key, value))
        constant = lm.constant
        counted = SolutionCount(lm.project, len(xs), counting.show if counting else 0, report)

        class Listener(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self):
                if counting:
                    counted.add(lambda v: self.Value(xs[v]))
                    return
                report(Incumbent(self.ObjectiveValue() + constant if lm.objective else None,
                                 self.BestObjectiveBound() + constant if lm.objective else None,
                                 [self.Value(x) for x in xs]))

        if counting:
            # measured: with 2 workers OR-Tools 9.15 reported 4697 of the 7040 magic squares as complete
            p.enumerate_all_solutions = True
            p.num_workers = 1
            if lm.objective:
                raise UnsupportedModel("counting needs a model without objective")
        t1 = time.perf_counter()
        code = solver.Solve(cp, Listener())
        t2 = time.perf_counter()
        timings: dict[str, Any] = dict(build_seconds=t1 - t0, solve_seconds=t2 - t1, message=solver.StatusName(code))
        if counting:
            return counted.result(code in (cp_model.OPTIMAL, cp_model.INFEASIBLE), **timings)
        has_solution = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        values = [solver.Value(x) for x in xs] if has_solution else None
        objective = solver.ObjectiveValue() + constant if has_solution and lm.objective else None
        bound = solver.BestObjectiveBound() + constant if lm.objective and code != cp_model.INFEASIBLE else None
        if code == cp_model.OPTIMAL and lm.objective and options.own(self.name) and bound is not None \
                and objective is not None and abs(objective - bound) > 1e-9 * max(1.0, abs(objective)):
            code = cp_model.FEASIBLE          # a gap limit among the user's options ended it short of a proof
        if code == cp_model.OPTIMAL:
            return Result(Status.OPTIMAL, objective, objective if lm.objective else None, values, **timings)
        if code == cp_model.INFEASIBLE:
            return Result(Status.INFEASIBLE, **timings)
        if code == cp_model.MODEL_INVALID:
            return Result(Status.ERROR, message=cp.Validate() or "model invalid")
        return Result(Status.FEASIBLE if has_solution else Status.UNKNOWN, objective, bound if has_solution or
                      lm.objective else None, values, **timings)
