"""lp_solve 5.5 through its own executable (Debian's lp-solve), fed the project's MPS export: the time
limit as -timeout, every improved solution printed as it is found (-i) and passed on to the parent,
so a killed run keeps its best. lp_solve's command line prints no bound: short of a proof, none."""
from __future__ import annotations

from pathlib import Path

from .base import Incumbent, Options, Report, Status, Unavailable, flags
from .external import Answer, FileFed, MpsInput, ProgramRun, column_index, printed_number

INSTALL = "apt-get install lp-solve (Debian/Ubuntu; `make setup` does it)"
# lp_solve's exit codes (lp_lib.h): OPTIMAL 0, SUBOPTIMAL 1 (stopped with a solution), INFEASIBLE 2
OPTIMAL, SUBOPTIMAL, INFEASIBLE = 0, 1, 2


class LpSolve(FileFed):
    """lp_solve on free MPS (-fmps), each improved solution passed on as it prints it."""

    name, program, install, exports = "lpsolve", "lp_solve", INSTALL, ("mps",)
    version_flag, version_format = "-h", "lp_solve {}"
    options_via = "command"

    class LpSolveRun(ProgramRun):
        """lp_solve -i -S3: each improved solution is a block, 'Actual values of the variables:' then
        'name value' lines, passed on to the parent as it ends; the exit code says how the run ended."""

        def __init__(self, mps: MpsInput, folder: Path, report: Report) -> None:
            super().__init__(mps, folder, report)
            self.best: list[float] | None = None
            self.block: dict[int, float] = {}
            self.in_block = False

        def command(self, exe: str, options: Options, limit: float | None) -> list[str]:
            cmd = [exe, "-fmps", str(self.mps.path), "-max" if self.mps.maximise else "-min", "-i", "-S3",
                   *flags(options.own("lpsolve"), "-")]
            return cmd if limit is None else cmd + ["-timeout", str(max(1, int(limit)))]

        def line(self, line: str) -> None:
            if line.startswith("Actual values of the variables"):
                self.in_block = True
                self.block.clear()
                return
            parts = line.split()
            value = printed_number(parts[1]) if self.in_block and len(parts) == 2 else None
            if value is not None:
                column = column_index(parts[0])        # None: not the model's (PuLP's `__dummy`)
                if column is not None:
                    self.block[column] = value
                return
            if self.in_block:                        # the block ended: an improved solution
                self.in_block = False
                self.best = self.mps.solution(self.block)
                self.report(Incumbent(self.mps.objective(self.best), None, self.best[:self.mps.n_own]))

        def answer(self, code: int, lines: list[str]) -> Answer:
            self.line("")                            # close a block the output ended in
            message = _summary(code, lines)
            if code == INFEASIBLE:
                return Answer(Status.INFEASIBLE, message=message)
            if code not in (OPTIMAL, SUBOPTIMAL) and self.best is None:
                if any("parse" in x.lower() or "syntax" in x.lower() for x in lines):
                    raise Unavailable(f"lp_solve could not read the model: {message}")
            if self.best is None:
                return Answer(Status.UNKNOWN, message=message)
            return Answer(Status.OPTIMAL if code == OPTIMAL else Status.FEASIBLE, self.best, None, message)

    program_run = LpSolveRun


MEANING = {-2: "out of memory", 0: "optimal", 1: "sub-optimal (stopped with a solution)", 2: "infeasible",
           3: "unbounded", 4: "degenerate", 5: "numerical failure", 6: "aborted", 7: "timeout", 25: "numerical failure"}


def _summary(code: int, lines: list[str]) -> str:
    """lp_solve's exit code in words (lp_lib.h)."""
    return f"lp_solve: {MEANING.get(code, f'exit {code}')}"
