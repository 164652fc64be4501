"""HiGHS through highspy: the whole model passed at once, solutions read in bulk."""
from __future__ import annotations

import os
import sys
import time
from typing import Any

from ..models.core import HittingSet, LinearModel, MaxSatModel, as_linear, settled
from ..models.linearize import matrix_form
from .base import Backend, Incumbent, Options, Report, Result, Status

INSTALL = "pip install highspy"


def quiet_highs(highspy: Any) -> Any:
    """A Highs object without its banner: HiGHS prints it on stdout as the object is made, before
    any option can turn it off (ERGO-Code/HiGHS#1702), so stdout points at /dev/null for that moment."""
    sys.stdout.flush()
    saved, devnull = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        return highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


class HiGHS(Backend):
    name = "highs"
    kinds = (HittingSet, LinearModel, MaxSatModel)
    install = INSTALL
    exports = ("lp", "mps")
    distribution = "highspy"
    options_via = "library"

    def option_types(self) -> dict[str, Any]:
        own = self.library("highspy").Highs().getOptions()
        return {name: type(value).__name__ for name in dir(own) if not name.startswith("_")
                and type(value := getattr(own, name)) in (bool, int, float, str)}

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        highspy = self.library("highspy")
        t0 = time.perf_counter()
        own = as_linear(model)                # auxiliaries of the linearisation come after its variables
        n_own = len(own.vars)
        mf = matrix_form(model)
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = len(mf.cost), len(mf.row_lower)
        lp.col_cost_, lp.col_lower_, lp.col_upper_ = mf.cost, mf.col_lower, mf.col_upper
        lp.row_lower_, lp.row_upper_ = mf.row_lower, mf.row_upper
        lp.offset_ = mf.constant
        lp.sense_ = highspy.ObjSense.kMaximize if mf.maximise else highspy.ObjSense.kMinimize
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = mf.starts, mf.index, mf.value
        lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = lp.num_col_, lp.num_row_
        lp.integrality_ = [highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous
                           for i in mf.integer]
        # HiGHS keeps one thread pool per process, sized by the first run: rebuild it for this run's count
        highspy.Highs.resetGlobalScheduler(True)
        h = highspy.Highs() if options.verbose else quiet_highs(highspy)
        settings = {"output_flag": bool(options.verbose), "threads": int(options.threads),
                    "random_seed": int(options.seed), "mip_rel_gap": 0.0, "mip_abs_gap": 0.0}
        if options.time_limit is not None:
            settings["time_limit"] = options.remaining(t0)
        for key, value in {**settings, **options.own(self.name)}.items():
            if h.setOptionValue(key, value) != highspy.HighsStatus.kOk:
                raise ValueError(f"HiGHS refuses option {key} = {value!r}")
        h.passModel(lp)

        def improving(event):   # keep the latest incumbent with the parent, in case of a hard kill
            data = event.data_out
            report(Incumbent(data.objective_function_value, data.mip_dual_bound,
                             settled(own, data.mip_solution[:n_own])))

        h.cbMipImprovingSolution.subscribe(improving)
        t1 = time.perf_counter()
        h.run()
        t2 = time.perf_counter()
        ms = h.getModelStatus()
        info = h.getInfo()
        has_solution = info.primal_solution_status == 2   # kSolutionStatusFeasible
        values = settled(own, h.getSolution().col_value[:n_own]) if has_solution else None
        objective = info.objective_function_value if has_solution else None
        # a pure LP stopped short has no dual bound worth the name (mip_dual_bound is a MIP's)
        mip = bool(mf.integer.any())
        bound = info.mip_dual_bound if mip and abs(info.mip_dual_bound) < 1e30 else None
        # the user's options (a gap, say: --option highs:mip_rel_gap=0.5) may end a MIP "optimal" short
        # of a proof; then only a closed gap proves it (the workbench's own settings ask for gap 0)
        closed = not mip or not options.own(self.name) or (objective is not None and bound is not None and
                                                            abs(objective - bound) <= 1e-9 * max(1.0, abs(objective)))
        if ms == highspy.HighsModelStatus.kModelEmpty:
            # no columns: HiGHS says "Empty" whatever its rows say, and each row's activity is 0
            if all(lo <= 0 <= hi for lo, hi in zip(mf.row_lower, mf.row_upper)):
                status, objective, bound, values = Status.OPTIMAL, mf.constant, mf.constant, []
            else:
                status = Status.INFEASIBLE
        elif ms == highspy.HighsModelStatus.kOptimal and closed:
            status, bound = Status.OPTIMAL, objective
        elif ms == highspy.HighsModelStatus.kInfeasible:
            status = Status.INFEASIBLE
        elif has_solution:
            status = Status.FEASIBLE
        else:
            status = Status.UNKNOWN
        return Result(status, objective, bound, values, build_seconds=t1 - t0, solve_seconds=t2 - t1,
                      message=h.modelStatusToString(ms))
