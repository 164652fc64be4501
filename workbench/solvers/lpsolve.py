"""lp_solve 5.5 through its own executable (Debian's lp-solve), fed the project's MPS export: the time
limit as -timeout, every improved solution printed as it is found (-i) and passed on to the parent,
so a killed run keeps its best. lp_solve's command line prints no bound: short of a proof, none."""
from __future__ import annotations

import tempfile
import time
from typing import Any

from ..models.core import HittingSet, LinearModel, MaxSatModel
from .base import Backend, Incumbent, Options, Report, Result, Status, Unavailable
from .external import column_index, executable, first_line, follow, write_mps
from .runner import grace

INSTALL = "apt-get install lp-solve (Debian/Ubuntu; `make setup` does it)"
# lp_solve's exit codes (lp_lib.h): OPTIMAL 0, SUBOPTIMAL 1 (stopped with a solution), INFEASIBLE 2
OPTIMAL, SUBOPTIMAL, INFEASIBLE = 0, 1, 2


class LpSolve(Backend):
    name = "lpsolve"
    kinds = (HittingSet, LinearModel, MaxSatModel)
    install = INSTALL
    exports = ("mps",)

    def version(self) -> str:
        words = first_line("lp_solve", INSTALL, "-h").rstrip(":").split()
        return f"lp_solve {words[-1] if words else '?'}"

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        exe = executable("lp_solve", INSTALL)
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            mps = write_mps(model, tmp)
            cmd = [exe, "-fmps", str(mps.path), "-max" if mps.maximise else "-min", "-i", "-S3"]
            limit = None
            if options.time_limit is not None:
                limit = options.remaining(t0)
                cmd += ["-timeout", str(max(1, int(limit)))]
            best: list[list[int] | None] = [None]
            block: dict[int, float] = {}
            section = [""]

            def solution_line(line: str) -> None:
                """A block: 'Actual values of the variables:', then 'name value' lines."""
                if line.startswith("Actual values of the variables"):
                    section[0] = "variables"
                    block.clear()
                    return
                parts = line.split()
                if section[0] == "variables" and len(parts) == 2 and column_index(parts[0]) is not None:
                    block[column_index(parts[0]) or 0] = float(parts[1])
                    return
                if section[0] == "variables":        # the block ended: an improved solution
                    section[0] = ""
                    values = mps.solution(block)
                    best[0] = values
                    report(Incumbent(mps.objective(values), None, values[:mps.n_own]))

            t1 = time.perf_counter()
            code, lines = follow(cmd, None if limit is None else limit + grace(limit), solution_line,
                                 options.verbose)
            solution_line("")                        # close a block the output ended in
            t2 = time.perf_counter()
        timings: dict[str, Any] = dict(build_seconds=t1 - t0, solve_seconds=t2 - t1,
                                       message=_summary(code, lines))
        if code == INFEASIBLE:
            return Result(Status.INFEASIBLE, **timings)
        if code not in (OPTIMAL, SUBOPTIMAL) and best[0] is None:
            if any("parse" in x.lower() or "syntax" in x.lower() for x in lines):
                raise Unavailable(f"lp_solve could not read the model: {timings['message']}")
            return Result(Status.UNKNOWN, **timings)
        values = best[0]
        if values is None:
            return Result(Status.UNKNOWN, **timings)
        objective = mps.objective(values)
        if code == OPTIMAL:
            return Result(Status.OPTIMAL, objective, objective, values[:mps.n_own], **timings)
        return Result(Status.FEASIBLE, objective, None, values[:mps.n_own], **timings)


MEANING = {-2: "out of memory", 0: "optimal", 1: "sub-optimal (stopped with a solution)", 2: "infeasible",
           3: "unbounded", 4: "degenerate", 5: "numerical failure", 6: "aborted", 7: "timeout", 25: "numerical failure"}


def _summary(code: int, lines: list[str]) -> str:
    """lp_solve's exit code in words (lp_lib.h)."""
    return f"lp_solve: {MEANING.get(code, f'exit {code}')}"
