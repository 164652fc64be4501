"""GLPK's MIP solver through `glpsol` (Debian's glpk-utils): the model as free MPS, the time limit as
--tmlim, the bound followed in glpsol's progress lines, the best solution read from its solution file.

glpsol prints no solution until it ends, so a killed run keeps the bound only.
"""
from __future__ import annotations

import re

from .base import Incumbent, Options, Status, Unavailable, flags
from .external import Answer, FileFed, ProgramRun, printed_number

INSTALL = "apt-get install glpk-utils (Debian/Ubuntu; `make setup` does it)"
# "+  8515: >>>>>   4.100000000e+01 >=   3.000000000e+01  26.8% (2447; 114)": incumbent and bound
PROGRESS = re.compile(r"^\+\s*\d+:\s+(?:mip =|>>>>>).*?[<>]=\s+(\S+)")
STATUS = {"o": Status.OPTIMAL, "f": Status.FEASIBLE, "n": Status.INFEASIBLE, "u": Status.UNKNOWN}
# the simplex's (primal, dual) statuses: both feasible is optimal; no primal point is infeasible; a
# primal point without a dual one (unbounded) is a feasible solution and no more
BASIC = {("f", "f"): Status.OPTIMAL, ("n", "*"): Status.INFEASIBLE, ("f", "*"): Status.FEASIBLE}


class GLPK(FileFed):
    """glpsol on free MPS, its progress lines followed for the bound."""

    name, program, install, exports = "glpk", "glpsol", INSTALL, ("mathprog",)
    version_flag, version_format = "--version", "GLPK {} (glpsol)"
    options_via = "command"

    class GlpsolRun(ProgramRun):
        """glpsol: the bound from its progress lines; the solution from its file (-w) at the end."""

        bound: float | None = None

        def command(self, exe: str, options: Options, limit: float | None) -> list[str]:
            cmd = [exe, "--freemps", str(self.mps.path), "--max" if self.mps.maximise else "--min",
                   "-w", str(self.folder / "model.sol"), "--seed", str(options.seed),
                   *flags(options.own("glpk"), "--")]
            return cmd if limit is None else cmd + ["--tmlim", str(max(1, int(limit)))]

        def line(self, line: str) -> None:
            """A progress line's bound, passed on to the parent when it moves."""
            found = PROGRESS.match(line)
            value = printed_number(found.group(1)) if found else None
            if value is not None and value != self.bound:
                self.bound = value
                self.report(Incumbent(None, value + self.mps.flat.constant))

        def answer(self, code: int, lines: list[str]) -> Answer:
            sol = self.folder / "model.sol"
            if not sol.exists():
                last = next((x for x in reversed(lines) if x.strip()), "")
                if code != 0:
                    raise Unavailable(f"glpsol failed (exit {code}): {last}")
                return Answer(Status.UNKNOWN, message=last)
            status, by_column = _read_solution(sol.read_text(), self.mps.columns)
            bound = None if self.bound is None else self.bound + self.mps.flat.constant   # the file leaves it out
            values = self.mps.solution(by_column) if status in (Status.OPTIMAL, Status.FEASIBLE) else None
            return Answer(status, values, bound, next((x for x in reversed(lines) if x.isupper()), ""))

    program_run = GlpsolRun


def _read_solution(text: str, columns: list[int | None]) -> tuple[Status, dict[int, float]]:
    """glpsol's plain solution file (-w). A MIP: "s mip ROWS COLS STATUS OBJ", then "j COL VALUE" per
    column. A model without integer columns is solved by the simplex: "s bas ROWS COLS PRIMAL DUAL OBJ"
    (each status f feasible, n none, i infeasible, u undefined), then "j COL STATUS VALUE DUAL"."""
    status, value_at = Status.UNKNOWN, 2
    by_column: dict[int, float] = {}
    for line in text.splitlines():
        parts = line.split()
        if parts[:2] == ["s", "mip"] and len(parts) >= 5:
            status = STATUS.get(parts[4], Status.UNKNOWN)
        elif parts[:2] == ["s", "bas"] and len(parts) >= 6:
            status, value_at = BASIC.get((parts[4], parts[5]), BASIC.get((parts[4], "*"), Status.UNKNOWN)), 3
        elif parts[:1] == ["j"] and len(parts) > value_at:
            column = columns[int(parts[1]) - 1]      # None: not the model's (PuLP's `__dummy`)
            if column is not None:
                by_column[column] = float(parts[value_at])
    return status, by_column
