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


# CBC's own words for a proof of infeasibility (a MIP's, its pre-processing's, Clp's for an LP)
INFEASIBLE_PROOF = re.compile(r"^(Result - (Problem proven infeasible|Linear relaxation infeasible)|"
                              r"Pre-processing says infeasible|Problem is infeasible|Primal infeasible)", re.M)


def _infeasible_proof(log: str, seconds: float, limit: float) -> bool:
    """Whether CBC proved the model infeasible: PuLP's "Infeasible" alone is not a proof. Under load
    (a 2-s limit, 2 test workers and a proof beside) CBC once came back "Infeasible" on enigma144
    N = 12, which has a solution: a run that stopped on its time limit, or ran to it, is never one."""
    stopped = "Stopped on time" in log or seconds >= 0.9 * limit
    return bool(INFEASIBLE_PROOF.search(log)) and not stopped


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
            limit = options.remaining(t0)
            cmd = pulp.PULP_CBC_CMD(
                msg=bool(options.verbose), timeLimit=limit, threads=int(options.threads),
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
        bound = _bound_from_log(text)     # of the model PuLP wrote, without the objective's constant
        bound = None if bound is None else bound + float(getattr(prob.objective, "constant", 0) or 0)
        # a MIP's proof is CBC's "Optimal solution found"; a model without integer columns is solved
        # by Clp alone, whose proof reads "Optimal - objective value"
        proof = "Optimal solution found" in text or (not any(v.integer for v in own.vars) and
                                                     re.search(r"^Optimal - objective value", text, re.M))
        if prob.sol_status == pulp.LpSolutionOptimal and proof:
            status, bound = Status.OPTIMAL, objective
        elif prob.status == pulp.LpStatusInfeasible and _infeasible_proof(text, t2 - t1, limit):
            status = Status.INFEASIBLE
        elif has_solution:
            status = Status.FEASIBLE
        else:
            status = Status.UNKNOWN
        msg = re.search(r"^Result - (.*)$", text, flags=re.M)
        return Result(status, objective, bound, values, build_seconds=t1 - t0, solve_seconds=t2 - t1,
                      message=msg.group(1) if msg else pulp.LpStatus[prob.status])
