"""CBC through PuLP's bundled binary; the proven bound is read from CBC's own log."""
from __future__ import annotations

import os
import re
import tempfile
import time
from typing import Any

from ..models.core import HittingSet, LinearModel, MaxSatModel, as_linear, settled
from ..models.writers import to_pulp
from .base import Backend, Options, Report, Result, Status, Unavailable, flags

INSTALL = 'pip install "pulp>=3.3,<4"  (PuLP 4 no longer bundles CBC)'


def _bound_from_log(text: str) -> float | None:
    found = re.findall(r"^(?:Lower|Upper) bound:\s*(\S+)", text, flags=re.M)
    try:
        return float(found[-1]) if found else None
    except ValueError:
        return None


class CBC(Backend):
    name = "cbc"
    kinds = (HittingSet, LinearModel, MaxSatModel)
    install = INSTALL
    distribution, version_format = "pulp", "pulp {}"
    options_via = "command"

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        pulp = self.library("pulp")
        t0 = time.perf_counter()
        own = as_linear(model)                # auxiliaries of the linearisation come after its variables
        prob, xs = to_pulp(model)
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "cbc.log")
            cmd = pulp.PULP_CBC_CMD(
                msg=bool(options.verbose), timeLimit=options.remaining(t0), threads=int(options.threads),
                options=[f"randomCbcSeed {options.seed + 1}", *flags(options.own(self.name), "")],
                logPath=log, gapRel=0.0, gapAbs=0.0)
            if not cmd.available():
                raise Unavailable(f"PuLP's bundled CBC binary is missing ({INSTALL})")
            t1 = time.perf_counter()
            prob.solve(cmd)
            t2 = time.perf_counter()
            text = open(log).read() if os.path.exists(log) else ""
        has_solution = prob.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible)
        values = settled(own, [x.varValue or 0 for x in xs[:len(own.vars)]]) if has_solution else None
        objective = pulp.value(prob.objective) if has_solution else None
        bound = _bound_from_log(text)
        # a MIP's proof is CBC's "Optimal solution found"; a model without integer columns is solved
        # by Clp alone, whose proof reads "Optimal - objective value"
        proof = "Optimal solution found" in text or (not any(v.integer for v in own.vars) and
                                                     re.search(r"^Optimal - objective value", text, re.M))
        if prob.sol_status == pulp.LpSolutionOptimal and proof:
            status, bound = Status.OPTIMAL, objective
        elif prob.status == pulp.LpStatusInfeasible:
            status = Status.INFEASIBLE
        elif has_solution:
            status = Status.FEASIBLE
        else:
            status = Status.UNKNOWN
        msg = re.search(r"^Result - (.*)$", text, flags=re.M)
        return Result(status, objective, bound, values, build_seconds=t1 - t0, solve_seconds=t2 - t1,
                      message=msg.group(1) if msg else pulp.LpStatus[prob.status])
