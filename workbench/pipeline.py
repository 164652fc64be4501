"""One run, end to end: generate the model, solve it in a worker, decode, check independently."""
from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .checks import applicable
from .models.core import NativeTask
from .puzzles import get, published
from .puzzles.base import NATIVE, BadInput, Published, Puzzle, Verdict
from .solvers import backend_class, canonical, split_name
from .solvers.base import Options, Result, Status, clean_number
from .solvers.runner import run as run_backend


@dataclass
class Run:
    puzzle: str
    n: int | None
    formulation: str
    result: Result
    verdict: Verdict | None
    published: Published | None
    generate_seconds: float = 0.0
    params: Any = None                  # the puzzle's typed Params
    table_key: str = ""
    counting: bool = False        # the answer is the count of solutions, not the objective

    @property
    def verified(self) -> bool:
        return self.verdict is not None and self.verdict.ok

    @property
    def solver(self) -> str:
        return self.result.solver

    @property
    def status(self) -> str:
        return str(self.result.status)

    @property
    def proven(self) -> bool:
        return self.result.proven

    @property
    def bound(self) -> float | int | None:
        return clean_number(self.result.bound)

    @property
    def solution(self) -> Any:
        """The checked solution (for a count, the example solutions); None if there is none."""
        return self.result.solution

    @property
    def seconds(self) -> float:
        return round(self.result.total_seconds + self.generate_seconds, 3)

    def render(self) -> str:
        """The solution drawn as text, as `solve` prints it."""
        if self.solution is None:
            return ""
        puzzle = get(self.puzzle)
        drawings = self.solution if self.counting else [self.solution]
        return "\n\n".join(puzzle.render(self.n, s, self.params) for s in drawings)

    def png(self, path: str | Path) -> str:
        """The solution drawn as a PNG at `path` (returned)."""
        if self.solution is None:
            raise BadInput(f"{self.puzzle}: this run has no solution to draw")
        get(self.puzzle).png(self.n, self.solution, str(path), self.params)
        return str(path)

    def line(self) -> str:
        """One line per run, as `table` prints it."""
        pub = "" if self.published is None else f"  published {self.published.value} ({self.published.status})"
        return (f"{'N=' + str(self.n) if self.n is not None else self.puzzle}: "
                f"{self.value if self.value is not None else '-'}  {self.status}  "
                f"bound {self.bound if self.bound is not None else '-'}  {self.seconds:.2f} s  "
                f"verified {'-' if self.verdict is None else self.verified}{pub}  {self.match}").rstrip()

    @property
    def value(self) -> float | int | None:
        """The run's answer: the count for counting runs, else the objective."""
        r = self.result
        return r.count if self.counting else clean_number(r.objective)

    @property
    def match(self) -> str:
        """How the answer compares with the published value."""
        pub, value, r = self.published, self.value, self.result
        if pub is None or value is None or r.status == Status.ERROR:
            return ""
        if self.counting:
            if r.status != Status.OPTIMAL:
                return "partial count"
            return "yes" if value == pub.value else "DIFFERS"
        better = value < pub.value if get(self.puzzle).sense == "min" else value > pub.value
        if value == pub.value:
            return "yes" if r.status == Status.OPTIMAL else "equal, not proven"
        if r.status == Status.OPTIMAL:
            return "NEW RECORD (proven)" if pub.status == "BOUND" and better else "DIFFERS"
        if better:
            return "NEW RECORD" if pub.status == "BOUND" else "CONTRADICTS published"
        return "worse"

    def record(self) -> dict[str, Any]:
        r = self.result
        return {
            "puzzle": self.puzzle, "n": self.n, "variant": self.table_key, "formulation": self.formulation,
            "setting": get(self.puzzle).setting(self.params),
            "solver": r.solver, "status": str(r.status), "objective": clean_number(r.objective),
            "bound": clean_number(r.bound), "proven": r.proven, "verified": self.verified,
            "count": r.count, "seconds": self.seconds,
            "generate_seconds": round(self.generate_seconds, 3),
            "build_seconds": round(r.build_seconds, 3), "solve_seconds": round(r.solve_seconds, 3),
            "solver_version": r.solver_version,
            "params": {**r.params, **get(self.puzzle).params(self.params).changed()},
            "published": None if self.published is None else self.published.value,
            "published_status": None if self.published is None else self.published.status,
            "match": self.match, "check": None if self.verdict is None else self.verdict.message,
            "message": r.message, "solution": r.solution,
        }


def plan(puzzle_name: str, n: int | None, solver: str, formulation: str | None = None,
         params: Any = None, count: bool = False, options: Options | None = None) -> tuple[str, str]:
    """Every check a run's request must pass before anything is solved (so that no command loses
    a result to bad input found afterwards), `options` included when given (checks.applicable):
    returns the canonical solver and the formulation."""
    puzzle = get(puzzle_name)
    params = puzzle.params(params)
    puzzle.validate(n, params)
    solver = canonical(solver)
    native = NativeTask in backend_class(split_name(solver)[0]).kinds
    if native:
        if puzzle.native_search is None:
            raise BadInput(f"{puzzle.name} has no native search backend")
        if formulation not in (None, NATIVE):
            raise BadInput(f"{puzzle.name}: the native search takes no --formulation")
    formulation = formulation or puzzle.formulation_for(solver, count, native)
    if not native and formulation not in [f.name for f in puzzle.formulations] + ["default"]:
        raise BadInput(f"{puzzle.name}: unknown formulation '{formulation}' "
                       f"(known: {', '.join(f.name for f in puzzle.formulations)})")
    puzzle.validate_run(params, formulation)
    if options is not None:
        applicable(puzzle, params, formulation, options)
    return solver, formulation


def solve(puzzle_name: str, n: int | None, solver: str, options: Options,
          formulation: str | None = None, params: Any = None) -> Run:
    puzzle = get(puzzle_name)
    params = puzzle.params(params)
    solver, formulation = plan(puzzle_name, n, solver, formulation, params, options.count, options)
    t0 = time.perf_counter()
    built = puzzle.build(n, formulation, params)
    generated = time.perf_counter() - t0
    result = run_backend(solver, built.model, options)
    if result.solution is None and result.values is not None:
        result.solution = [built.decode(v) for v in result.values] if options.count and formulation != NATIVE \
            else built.decode(result.values)
    verdict = _check(puzzle, n, result, options, params)
    return Run(puzzle.name, n, formulation, result, verdict, published(puzzle.table_key(params, formulation), n),
               generated, params, puzzle.variant(params, formulation), counting=options.count)


class BadRow(ValueError):
    """A results row that cannot be read back (edited by hand, say): a rerun recomputes its N."""


def _row_number(row: dict[str, str], key: str) -> float | None:
    text = row.get(key) or ""
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise BadRow(f"{key} is {text[:40]!r}, not a number") from None
    if not math.isfinite(value):
        raise BadRow(f"{key} is {text[:40]!r}, not a finite number")
    return value


def stored(puzzle_name: str, n: int | None, row: dict[str, str], params: Any, count: bool = False,
           strict: bool = False) -> Run:
    """A run read back from a results table row; its solution goes through the checker again, so a
    stored row counts only as much as a fresh one would. BadRow when a field cannot be read, and,
    `strict`, when the row is no answer after all or claims what `false_claims` finds false (a
    table then recomputes its N)."""
    puzzle = get(puzzle_name)
    params = puzzle.params(params)
    try:
        status = Status(row.get("status") or "error")
        count_value = int(row["count"]) if row.get("count") else None
        solution = json.loads(row["solution"]) if row.get("solution") else None
    except (ValueError, RecursionError) as e:     # an unknown status, a count past int's digits, bad JSON
        raise BadRow(f"{str(e).splitlines()[0][:80]}") from None
    result = Result(status, _row_number(row, "objective"), _row_number(row, "bound"), solution=solution,
                    count=count_value, solver=row.get("solver", ""),
                    solver_version=row.get("solver_version", ""), total_seconds=_row_number(row, "seconds") or 0.0,
                    params={k: _row_number(row, k) for k in ("time_limit", "threads")}, message=row.get("message", ""))
    claimed = Result(status, result.objective, result.bound, count=count_value)
    verdict = _check(puzzle, n, result, Options(count=count), params)
    formulation = row.get("formulation", "")
    run = Run(puzzle.name, n, formulation, result, verdict, published(puzzle.table_key(params, formulation), n),
              0.0, params, puzzle.variant(params, formulation), counting=count)
    if not strict:
        return run
    false = false_claims(puzzle, n, claimed, verdict, params, count, formulation)
    if false:
        raise BadRow(false[0])
    if verdict is not None and not verdict.ok or result.status == Status.ERROR:     # no answer after all
        raise BadRow(result.message or f"the checker rejects its solution ({verdict.message if verdict else ''})")
    return run


def false_claims(puzzle: Puzzle, n: int | None, claimed: Result, verdict: Verdict | None, params: Any,
                 counting: bool, formulation: str = "") -> list[str]:
    """What a record or a stored row claims that neither the checker's measure nor the published
    value bears out: its objective, `optimal` (only with a bound equal to it), a bound the solution
    beats, and a proof of a value other than a PROVEN published one. `verify` and `table` (which
    redoes such a row) share it, so no claim is taken on trust."""
    false = []
    measured = None if verdict is None else verdict.objective
    objective, bound, status = claimed.objective, claimed.bound, claimed.status
    if not counting and measured is not None and objective != measured:
        false.append(f"objective {clean_number(objective)}, but the checker measures {clean_number(measured)}")
    if not counting and status == Status.OPTIMAL and (bound is None or bound != objective):
        false.append(f"optimal, but the bound {clean_number(bound)} does not equal the objective "
                     f"{clean_number(objective)}")
    sign = 1 if puzzle.sense == "min" else -1
    if not counting and bound is not None and measured is not None and sign * (measured - bound) < -1e-6:
        false.append(f"bound {clean_number(bound)}, but the solution measures {clean_number(measured)}, beyond it")
    pub = published(puzzle.table_key(params, formulation), n)
    value = claimed.count if counting else (measured if measured is not None else objective)
    if pub is not None and pub.status == "PROVEN" and status == Status.OPTIMAL and value is not None \
            and value != pub.value:
        false.append(f"a proof of {clean_number(value)}, but the published value {pub.value} is proven ({pub.source})")
    return false


def certify(run: Run, time_limit: float | None) -> None:
    """Certify the run's answer as a lower bound, independently of the backend (certify.py); the
    certificate (verdict, proof hash) is stored with the result."""
    from .certify import certify as refute
    from .models.core import HittingSet

    if not run.verified or run.value is None:
        raise BadInput("--certify needs a verified solution")
    model = get(run.puzzle).build(run.n, run.formulation, run.params).model
    if not isinstance(model, HittingSet):
        raise BadInput(f"--certify handles hitting-set models; {run.puzzle} has {type(model).__name__}")
    cert = refute(model, int(run.value), time_limit)
    run.result.params["certificate"] = cert.to_dict()
    note = f"lower bound {cert.lower_bound} certified: {cert.verdict} ({cert.checker}, sha256 {cert.proof_sha256[:16]})"
    run.result.message = (run.result.message + "; " if run.result.message else "") + note


def _check(puzzle, n, result: Result, options: Options, params) -> Verdict | None:
    """The independent checker decides whether the run's solution counts at all."""
    if result.solution is None and result.objective is not None and not options.count \
            and result.status != Status.ERROR:      # a value without a solution is not an answer
        result.message = f"no solution came back for objective {clean_number(result.objective)}; " \
                         f"{result.message}".rstrip("; ")
        result.objective = None
        result.status = Status.UNKNOWN if result.status == Status.FEASIBLE else Status.ERROR
    if result.solution is None or result.status == Status.ERROR or (options.count and not result.solution):
        return None     # nothing to check: no solution, or a count without examples
    if options.count:
        verdicts = [puzzle.check(n, s, params) for s in result.solution]
        bad = [v for v in verdicts if not v.ok]
        verdict = bad[0] if bad else Verdict(True, f"{len(verdicts)} example solution(s) pass the checker")
    else:
        verdict = puzzle.check(n, result.solution, params)
        if verdict.ok and verdict.objective is not None and result.objective is not None \
                and abs(verdict.objective - result.objective) > 1e-6:
            verdict = Verdict(False, f"the backend reports objective {clean_number(result.objective)} "
                                     f"but the checker measures {clean_number(verdict.objective)}")
    if not verdict.ok:   # a rejected solution is never reported or stored as an answer
        result.message = f"checker rejected the solution: {verdict.message}"
        result.status, result.solution, result.objective = Status.ERROR, None, None
    return verdict
