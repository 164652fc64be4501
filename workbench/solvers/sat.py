"""Linear search on the cost with plain SAT calls: a second route to a hitting set's optimum.

RC2 (maxsat.py) climbs from below, one unsatisfiable core per step of the bound. This backend
descends from above: "every set is hit and at most k - 1 elements are chosen" (the counting CNF of
certify.py) goes to a fresh SAT solver for k = the best cost found, until it is refuted. Only the
last call is hard, and one refutation can cost far less than RC2's climb: enigma82 N = 10, one core,
63 s against 475 s (docs/notes/trigrid.md). python-sat's own LSU does the same descent with an
incremental totalizer, measured 14x slower here (enigma82 N = 8: 38.5 s against 2.7 s). Until the
last call the bound is a packing's (disjoint sets, each needing an element of its own), so a run
cut short still reports one.
"""
from __future__ import annotations

import threading
import time
from typing import Any

from ..models.core import HittingSet, greedy_hitting_set, hitting_set_to_maxsat, lex_leader
from .base import Incumbent, Options, Report, Result, Status
from .maxsat import LEXREV, NOT_INTERRUPTIBLE, MaxSAT, configuration, indicator


class LinearSAT(MaxSAT):
    name = "sat"
    kinds = (HittingSet,)
    exports = ()
    default_sub = default_sat_solver = "cd195"
    version_format = "python-sat {} (linear SAT search)"

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        from ..certify import at_most_clauses, packing_bound

        solver_class = self.library("pysat.solvers").Solver
        t0 = time.perf_counter()
        sat_solver, lex = configuration(self.sub, self.default_sat_solver)
        base = lex_leader(model, lex == LEXREV) if lex else hitting_set_to_maxsat(model)
        best = greedy_hitting_set(model)
        cost = sum(model.weight(e) for e in best)
        floor = float(packing_bound(model))     # the bound until the last call refutes cost - 1
        report(Incumbent(float(cost), floor, indicator(model, best)))
        calls = 0
        while cost > floor:    # at the packing's bound the greedy board is already optimal
            clauses, _ = at_most_clauses(model, cost - 1, base.n_vars)
            with solver_class(name=sat_solver, bootstrap_with=base.hard + clauses) as solver:
                timer = None      # CaDiCaL cannot be interrupted: the runner's hard kill keeps the best board
                if options.time_limit is not None and not sat_solver.startswith(NOT_INTERRUPTIBLE):
                    timer = threading.Timer(max(0.0, options.remaining(t0)), solver.interrupt)
                    timer.start()
                try:
                    found = solver.solve_limited(expect_interrupt=True)
                finally:
                    if timer:
                        timer.cancel()
                calls += 1
                if found is None:       # interrupted: the best so far, and the packing's bound
                    return Result(Status.FEASIBLE, float(cost), floor, indicator(model, best),
                                  message=f"interrupted at the time limit after {calls} SAT calls",
                                  solve_seconds=time.perf_counter() - t0)
                if not found:
                    break
                chosen = set(lit - 1 for lit in solver.get_model() if 0 < lit <= model.n_elements)
            best, cost = sorted(chosen), sum(model.weight(e) for e in chosen)
            report(Incumbent(float(cost), floor, indicator(model, best)))
        return Result(Status.OPTIMAL, float(cost), float(cost), indicator(model, best),
                      message=f"no hitting set below {cost} "
                              + (f"({calls} SAT calls)" if calls else "(a packing of disjoint sets bounds it)"),
                      solve_seconds=time.perf_counter() - t0)
