"""What the backends that drive a solver's own executable share (glpsol, lp_solve): the model as an
MPS file, the executable run as a child that dies with its worker, its output followed line by line,
the answer made a Result (FileFed; a backend adds only its command line and how it reads the output).

The MPS file is written without the objective's constant and the sense is given on the command line,
so a run never depends on how an MPS reader takes either; the objective is recomputed from the values.
"""
from __future__ import annotations

import copy
import math
import re
import shutil
import subprocess
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ..models.core import HittingSet, LinearModel, MaxSatModel, Model, as_linear, settle
from ..models.linearize import flatten
from ..models.writers import to_pulp
from .base import Backend, Options, Report, Result, Status, Unavailable
from .runner import die_with_parent, grace

COLUMN = re.compile(r"^x(\d+)_")       # to_pulp names column i "x<i>_<name>"


def executable(name: str, install: str) -> str:
    """The executable's path, or Unavailable saying how to get it."""
    found = shutil.which(name)
    if found is None:
        raise Unavailable(f"the {name} executable is not on PATH (install: {install})")
    return found


def first_line(name: str, install: str, flag: str) -> str:
    """The first line the executable prints for `flag` (its version banner)."""
    text = subprocess.run([executable(name, install), flag], capture_output=True, text=True, timeout=30).stdout
    return text.split("\n")[0]


@dataclass
class MpsInput:
    """The model as the executable reads it, and how its answer reads back."""

    path: Path
    flat: LinearModel        # the flattened model: its columns are the file's columns
    n_own: int               # the model's own variables come first; auxiliaries of flattening after
    columns: list[int | None]   # the file's columns in order, as indices into flat.vars (None: not the model's)

    @property
    def maximise(self) -> bool:
        return self.flat.is_maximise

    def objective(self, values: list[float]) -> float:
        """The objective of the full solution, constant included, recomputed from the model."""
        return self.flat.constant + sum(c * values[v] for v, c in self.flat.objective)

    def solution(self, by_column: dict[int, float]) -> list[float]:
        """Every variable's value (columns the file does not hold take the value in their bounds
        nearest 0), integer columns' values made integers (core.settle), continuous ones kept."""
        return [settle(var, by_column[i]) if i in by_column else max(var.lb, min(0, var.ub))
                for i, var in enumerate(self.flat.vars)]


def write_mps(model: Model, folder: str | Path) -> MpsInput:
    """The model (flattened, constant left out) as `folder`/model.mps."""
    own = len(as_linear(model).vars)
    flat = flatten(model)
    bare = copy.copy(flat)
    bare.constant = 0.0
    prob, xs = to_pulp(bare)
    path = Path(folder) / "model.mps"
    prob.writeMPS(str(path))
    # PuLP writes only LO for an integer column with a lower bound and no upper one, and glpsol then
    # takes [LO, 1] (the old MPS default for integer columns): PL says "no upper bound" to every
    # reader (a free column PuLP writes as FR, which glpsol takes whole and allows nothing after)
    unbounded = [f" PL BND {x.name}" for x, v in zip(xs, flat.vars)
                 if v.integer and math.isfinite(v.lb) and not math.isfinite(v.ub)]
    if unbounded:
        text = path.read_text()
        lines = ([] if "\nBOUNDS\n" in text else ["BOUNDS"]) + unbounded
        path.write_text(text.replace("\nENDATA", "\n" + "\n".join(lines) + "\nENDATA", 1))
    return MpsInput(path, flat, own, mps_columns(path))


def mps_columns(path: Path) -> list[int | None]:
    """The column indices in the order the MPS file's COLUMNS section first names them; None for a
    column that is not the model's (PuLP writes `__dummy` for an empty objective), which a solver
    still counts."""
    order: list[int | None] = []
    seen: set[str] = set()
    section = ""
    for line in path.read_text().splitlines():
        if line and not line[0].isspace():
            section = line.split()[0]
            continue
        fields = line.split()
        if section != "COLUMNS" or not fields or fields[0] in seen or "'MARKER'" in fields:
            continue
        seen.add(fields[0])
        order.append(column_index(fields[0]))
    return order


def column_index(name: str) -> int | None:
    found = COLUMN.match(name)
    return int(found.group(1)) if found else None


def printed_number(text: str) -> float | None:
    """A number as an executable prints it; None for other text or an infinity (1e300 or more)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if abs(value) < 1e300 else None


def follow(cmd: list[str], deadline_s: float | None, on_line: Callable[[str], None],
           echo: bool = False) -> tuple[int, list[str]]:
    """Run `cmd`, handing each output line to on_line as it comes; killed `deadline_s` seconds in
    if it has not ended by then (its own limit should end it first). Returns the exit code and lines."""
    import threading

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)   # dies with the worker
    timer = threading.Timer(deadline_s, proc.kill) if deadline_s is not None else None
    if timer:
        timer.daemon = True
        timer.start()
    lines: list[str] = []
    try:
        for line in _lines(proc):
            lines.append(line)
            if echo:
                import sys

                sys.stderr.write(line + "\n")
            on_line(line)
        code = proc.wait()
    finally:
        if timer:
            timer.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return code, lines


def _lines(proc: subprocess.Popen[str]) -> Iterator[str]:
    assert proc.stdout is not None
    for line in proc.stdout:
        yield line.rstrip("\n")



@dataclass
class Answer:
    """What a file-fed run came to: its status, the full solution (None: none), the bound in the
    model's terms (None: none) and a line for the message."""

    status: Status
    values: list[float] | None = None
    bound: float | None = None
    message: str = ""


class ProgramRun(ABC):
    """One run of a file-fed solver: its command line, what it makes of each output line as it
    comes (incumbents and bounds, passed on to the parent), and what the run came to."""

    def __init__(self, mps: MpsInput, folder: Path, report: Report) -> None:
        self.mps, self.folder, self.report = mps, folder, report

    @abstractmethod
    def command(self, exe: str, options: Options, limit: float | None) -> list[str]:
        """The command line (limit: the seconds left, None: no limit)."""

    def line(self, line: str) -> None:  # noqa: B027 - optional: some solvers print nothing worth following
        """One output line, as it comes."""

    @abstractmethod
    def answer(self, code: int, lines: list[str]) -> Answer:
        """The run's answer from its exit code, its output and its files (still in `folder`)."""


class FileFed(Backend):
    """A solver's own executable fed the model as an MPS file: a subclass names the program
    (`program`) and how one run goes (`program_run`); writing the file, following the output within the
    time limit and making the answer a Result are done here, once."""

    kinds = (HittingSet, LinearModel, MaxSatModel)
    program: ClassVar[str]
    version_flag: ClassVar[str]               # the flag whose first line ends in the version
    program_run: ClassVar[type[ProgramRun]]

    def version(self) -> str:
        words = first_line(self.program, self.install, self.version_flag).rstrip(":").split()
        return self.version_format.format(words[-1] if words else "?")

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        exe = executable(self.program, self.install)
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            mps = write_mps(model, tmp)
            run = self.program_run(mps, Path(tmp), report)
            limit = None if options.time_limit is None else options.remaining(t0)
            cmd = run.command(exe, options, limit)
            t1 = time.perf_counter()
            code, lines = follow(cmd, None if limit is None else limit + grace(limit), run.line, options.verbose)
            t2 = time.perf_counter()
            answer = run.answer(code, lines)
        timings: dict[str, Any] = dict(build_seconds=t1 - t0, solve_seconds=t2 - t1, message=answer.message)
        if answer.values is None or answer.status not in (Status.OPTIMAL, Status.FEASIBLE):
            return Result(answer.status, bound=answer.bound, **timings)
        objective = mps.objective(answer.values)
        own = answer.values[:mps.n_own]
        if answer.status == Status.OPTIMAL:
            return Result(Status.OPTIMAL, objective, objective, own, **timings)
        return Result(Status.FEASIBLE, objective, answer.bound, own, **timings)
