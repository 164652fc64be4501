"""SCIP through PySCIPOpt (its wheel bundles SCIP): linear and hitting-set models, incumbents and the
dual bound streamed by an event handler, exact solution counting for pure 0-1 models."""
from __future__ import annotations

import math
import time
from typing import Any

from ..models.core import Count, HittingSet, LinearModel, MaxSatModel, as_linear, settled
from ..models.linearize import flatten
from .base import Enumerator, Incumbent, Options, Report, Result, Status, UnsupportedModel

INSTALL = "pip install pyscipopt"


def build(model: LinearModel):
    """SCIP variables and rows of a flattened (indicator- and all-different-free) linear model."""
    from pyscipopt import Model, quicksum

    m = flatten(model)
    scip = Model(m.name)
    xs = [scip.addVar(v.name, vtype=("B" if v.binary else "I") if v.integer else "C",
                      lb=v.lb if math.isfinite(v.lb) else None, ub=v.ub if math.isfinite(v.ub) else None)
          for v in m.vars]
    for i, row in enumerate(m.rows):
        if row.lo is None and row.hi is None:
            continue
        expr = quicksum(c * xs[v] for v, c in row.terms)
        scip.addCons((row.lo if row.lo is not None else -scip.infinity()) <= (
            expr <= (row.hi if row.hi is not None else scip.infinity())), name=row.name or f"r{i}")
    if m.objective or m.constant:        # a constant alone is an objective too (SCIP reported 0 for it)
        scip.setObjective(quicksum(c * xs[v] for v, c in m.objective) + m.constant,
                          "maximize" if m.is_maximise else "minimize")
    return scip, xs, m


def _count(scip, xs, m: LinearModel, lm: LinearModel, options: Options) -> Result:
    """SCIP's counting mode; exact only for pure 0-1 models without projection (measured: a model
    with general integer variables was miscounted, 270 against 245 by brute force)."""
    if lm.objective:
        raise UnsupportedModel("counting needs a model without objective")
    if lm.project is not None and sorted(lm.project) != list(range(len(lm.vars))):
        raise UnsupportedModel("SCIP cannot count projected solutions; use cpsat")
    if not all(v.integer and (v.lb, v.ub) == (0, 1) for v in m.vars):
        raise UnsupportedModel("SCIP counts exactly only pure 0-1 models; use cpsat")
    scip.setParamsCountsols()
    t1 = time.perf_counter()
    scip.count()
    t2 = time.perf_counter()
    complete = scip.getStatus() in ("optimal", "infeasible")   # counting ends "infeasible": nothing left
    return Result(Status.COMPLETE if complete else Status.FEASIBLE, count=int(scip.getNCountedSols()),
                  values=[], solve_seconds=t2 - t1, message=f"SCIP count, status {scip.getStatus()}")


def _finite(x: float) -> float | None:
    return x if abs(x) < 1e19 else None


class SCIP(Enumerator):
    name = "scip"
    kinds = (HittingSet, LinearModel, MaxSatModel)
    install = INSTALL
    distribution, version_format = "pyscipopt", "pyscipopt {}"
    options_via = "library"

    def option_types(self) -> dict[str, Any]:
        params = self.library("pyscipopt").Model().getParams()
        return {name: type(value).__name__ for name, value in params.items() if type(value) in (bool, int, float, str)}

    def run(self, model: Any, options: Options, report: Report, counting: Count | None) -> Result:
        self.library("pyscipopt")
        from pyscipopt import SCIP_EVENTTYPE, Eventhdlr
        t0 = time.perf_counter()
        lm = as_linear(model)
        n_own = len(lm.vars)
        scip, xs, flat = build(lm)
        scip.hideOutput(not options.verbose)
        scip.setParam("parallel/maxnthreads", int(options.threads))
        scip.setParam("randomization/randomseedshift", int(options.seed))
        scip.setParam("limits/gap", 0.0)
        scip.setParam("limits/absgap", 0.0)
        if options.time_limit is not None:
            scip.setParam("limits/time", options.remaining(t0))
        for key, value in options.own(self.name).items():     # the user's, over the workbench's own
            scip.setParam(key, value)
        if counting:
            result = _count(scip, xs, flat, lm, options)
            result.build_seconds = time.perf_counter() - t0 - result.solve_seconds
            return result

        class Stream(Eventhdlr):
            """Pass every new incumbent, and the dual bound when it moves, on to the parent."""

            last_bound = None

            def eventinit(self):
                for event in (SCIP_EVENTTYPE.BESTSOLFOUND, SCIP_EVENTTYPE.NODESOLVED):
                    self.model.catchEvent(event, self)

            def eventexec(self, event):
                bound = self.model.getDualbound()
                if event.getType() == SCIP_EVENTTYPE.BESTSOLFOUND:
                    sol = self.model.getBestSol()
                    report(Incumbent(self.model.getSolObjVal(sol), _finite(bound),
                                     settled(lm, [self.model.getSolVal(sol, x) for x in xs[:n_own]])))
                elif bound != self.last_bound and _finite(bound) is not None:
                    report(Incumbent(None, bound))
                self.last_bound = bound

        scip.includeEventhdlr(Stream(), "workbench_stream", "streams incumbents and bounds")
        t1 = time.perf_counter()
        scip.optimize()
        t2 = time.perf_counter()
        status = scip.getStatus()
        timings: dict[str, Any] = dict(build_seconds=t1 - t0, solve_seconds=t2 - t1, message=f"SCIP {status}")
        if status == "infeasible":
            return Result(Status.INFEASIBLE, **timings)
        has_solution = scip.getNSols() > 0
        sol = scip.getBestSol() if has_solution else None
        values = settled(lm, [scip.getSolVal(sol, x) for x in xs[:n_own]]) if has_solution else None
        objective = scip.getSolObjVal(sol) if has_solution else None
        if status == "optimal":
            return Result(Status.OPTIMAL, objective, objective, values, **timings)
        bound = _finite(scip.getDualbound()) if lm.objective else None
        return Result(Status.FEASIBLE if has_solution else Status.UNKNOWN, objective, bound, values, **timings)
