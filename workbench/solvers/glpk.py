"""GLPK's MIP solver through `glpsol` (Debian's glpk-utils): the model as free MPS, the time limit as
--tmlim, the bound followed in glpsol's progress lines, the best solution read from its solution file.

glpsol prints no solution until it ends, so a killed run keeps the bound only.
"""
from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path
from typing import Any

from ..models.core import HittingSet, LinearModel, MaxSatModel
from .base import Backend, Incumbent, Options, Report, Result, Status, Unavailable
from .external import executable, first_line, follow, write_mps
from .runner import grace

INSTALL = "apt-get install glpk-utils (Debian/Ubuntu; `make setup` does it)"
# "+  8515: >>>>>   4.100000000e+01 >=   3.000000000e+01  26.8% (2447; 114)": incumbent and bound
PROGRESS = re.compile(r"^\+\s*\d+:\s+(?:mip =|>>>>>).*?[<>]=\s+(\S+)")
STATUS = {"o": Status.OPTIMAL, "f": Status.FEASIBLE, "n": Status.INFEASIBLE, "u": Status.UNKNOWN}


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if abs(value) < 1e300 else None


class GLPK(Backend):
    name = "glpk"
    kinds = (HittingSet, LinearModel, MaxSatModel)
    install = INSTALL
    exports = ("mathprog",)

    def version(self) -> str:
        first = first_line("glpsol", INSTALL, "--version")
        return f"GLPK {first.split()[-1] if first else '?'} (glpsol)"

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        exe = executable("glpsol", INSTALL)
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            mps = write_mps(model, tmp)
            shift = mps.flat.constant              # the file leaves the constant out
            sol = Path(tmp) / "model.sol"
            cmd = [exe, "--freemps", str(mps.path), "--max" if mps.maximise else "--min", "-w", str(sol),
                   "--seed", str(options.seed)]
            limit = None
            if options.time_limit is not None:
                limit = options.remaining(t0)
                cmd += ["--tmlim", str(max(1, int(limit)))]
            bound: list[float | None] = [None]

            def progress(line: str) -> None:
                """A progress line's bound, passed on to the parent when it moves."""
                found = PROGRESS.match(line)
                value = _number(found.group(1)) if found else None
                if value is not None and value != bound[0]:
                    bound[0] = value
                    report(Incumbent(None, value + shift))

            t1 = time.perf_counter()
            code, lines = follow(cmd, None if limit is None else limit + grace(limit), progress, options.verbose)
            t2 = time.perf_counter()
            if not sol.exists():
                last = next((x for x in reversed(lines) if x.strip()), "")
                if code != 0:
                    raise Unavailable(f"glpsol failed (exit {code}): {last}")
                return Result(Status.UNKNOWN, message=last, build_seconds=t1 - t0, solve_seconds=t2 - t1)
            status, by_column = _read_solution(sol.read_text(), mps.columns)
        timings: dict[str, Any] = dict(build_seconds=t1 - t0, solve_seconds=t2 - t1,
                                       message=next((x for x in reversed(lines) if x.isupper()), ""))
        if status in (Status.INFEASIBLE, Status.UNKNOWN):
            return Result(status, bound=None if bound[0] is None else bound[0] + shift, **timings)
        values = mps.solution(by_column)
        objective = mps.objective(values)
        if status == Status.OPTIMAL:
            return Result(Status.OPTIMAL, objective, objective, values[:mps.n_own], **timings)
        return Result(Status.FEASIBLE, objective, None if bound[0] is None else bound[0] + shift,
                      values[:mps.n_own], **timings)


def _read_solution(text: str, columns: list[int]) -> tuple[Status, dict[int, float]]:
    """glpsol's plain solution file (-w): "s mip ROWS COLS STATUS OBJ", then "j COL VALUE" per column."""
    status, by_column = Status.UNKNOWN, {}
    for line in text.splitlines():
        parts = line.split()
        if parts[:2] == ["s", "mip"] and len(parts) >= 5:
            status = STATUS.get(parts[4], Status.UNKNOWN)
        elif parts[:1] == ["j"] and len(parts) >= 3:
            by_column[columns[int(parts[1]) - 1]] = float(parts[2])
    return status, by_column
