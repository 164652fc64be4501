"""One run, end to end: generate the model, solve it in a worker, decode, check independently.

`plan()` checks a request once and makes it a typed `Request` (the puzzle object, n, the typed
params, the backend, the formulation and the question); everything after it takes the Request,
so no later step looks the puzzle up or parses its parameters again."""
from __future__ import annotations

import contextlib
import json
import signal
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Generic

from .checks import applicable
from .errors import BadRow
from .models.core import OPTIMISE, Count, Question
from .puzzles import get, published
from .puzzles.base import BadInput, P, Published, Puzzle, Verdict
from .records import Record, Status, key, setting_text
from .search.tasks import remove_finished
from .solvers import backend_class, canonical, first_counting, split_name
from .solvers.base import Options, ReadsResult, Result, clean_number
from .solvers.runner import run as run_backend

TIME_LIMIT_MIN = 0.01       # the least time limit a backend is given (the --time-limit flag's least)


@dataclass(frozen=True)
class Request(Generic[P]):
    """A run's request, checked: what plan() returns and what every later step takes."""

    puzzle: Puzzle[P]
    n: int | None
    params: P
    solver: str                         # canonical backend name
    formulation: str                    # a model formulation, or a search method (the native backend's)
    question: Question = OPTIMISE

    @property
    def counting(self) -> bool:
        return isinstance(self.question, Count)

    @property
    def variant(self) -> str:
        """The results table the run belongs to."""
        return self.puzzle.variant(self.params, self.formulation)

    @property
    def key(self) -> tuple[str, ...]:
        """The key of its row in a results table (Record.key)."""
        return key(self.puzzle.name, self.variant, self.n, self.formulation, self.solver, self.setting)

    @property
    def setting(self) -> dict[str, Any]:
        """The options set away from their defaults that its row records (the puzzle says which)."""
        return dict(json.loads(self.puzzle.setting(self.params) or "{}"))


@dataclass
class Run(ReadsResult):
    request: Request[Any]
    result: Result
    verdict: Verdict | None
    published: Published | None
    generate_seconds: float = 0.0
    # read off the request once (it does not change): the names the tables and the CLI use
    puzzle: str = field(init=False, repr=False, compare=False)
    n: int | None = field(init=False, repr=False, compare=False)
    formulation: str = field(init=False, repr=False, compare=False)
    params: Any = field(init=False, repr=False, compare=False)      # the puzzle's typed Params
    variant: str = field(init=False, repr=False, compare=False)   # its results table

    def __post_init__(self) -> None:
        r = self.request
        self.puzzle, self.n, self.formulation, self.params, self.variant = (
            r.puzzle.name, r.n, r.formulation, r.params, r.variant)

    @property
    def verified(self) -> bool:
        return self.verdict is not None and self.verdict.ok

    @property
    def counting(self) -> bool:
        return self.request.counting

    @property
    def status(self) -> str:
        return str(self.result.status)

    @property
    def bound(self) -> float | int | None:
        return clean_number(self.result.bound)

    @property
    def solution(self) -> Any:
        """The checked solution (for a count, the example solutions); None if there is none."""
        return self.result.examples if self.request.counting else self.result.solution

    @property
    def seconds(self) -> float:
        return round(self.result.total_seconds + self.generate_seconds, 3)

    def answer_kept(self) -> None:
        """Called once the answer is kept (its row written, printed, or handed to the API's caller):
        the finished journals of its searches go only now, so that a run that fails to keep its
        answer (a row that cannot be written) reruns from them in seconds."""
        remove_finished(self.result.journals)
        self.result.journals = []

    def render(self) -> str:
        """The solution drawn as text, as `solve` prints it."""
        if self.solution is None:
            return ""
        drawings = self.solution if self.request.counting else [self.solution]
        return "\n\n".join(self.request.puzzle.render(self.n, s, self.params) for s in drawings)

    def png(self, path: str | Path) -> str:
        """The solution drawn as a PNG at `path` (returned)."""
        if self.solution is None:
            raise BadInput(f"{self.puzzle}: this run has no solution to draw")
        self.request.puzzle.png(self.n, self.solution, str(path), self.params)
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
        return r.count if self.request.counting else clean_number(r.objective)

    @property
    def match(self) -> str:
        """How the answer compares with the published value."""
        pub, value, r = self.published, self.value, self.result
        if pub is None or value is None or not r.status.answered:
            return ""
        if self.request.counting:
            if r.status != Status.COMPLETE:
                return "partial count"
            return "yes" if value == pub.value else "DIFFERS"
        better = value < pub.value if self.request.puzzle.sense == "min" else value > pub.value
        if value == pub.value:
            return "yes" if r.status == Status.OPTIMAL else "equal, not proven"
        if r.status == Status.OPTIMAL:
            return "NEW RECORD (proven)" if pub.status == "BOUND" and better else "DIFFERS"
        if better:
            return "NEW RECORD" if pub.status == "BOUND" else "CONTRADICTS published"
        return "worse"

    def record(self) -> Record:
        """The run as it is stored: a results row, a `solve --json` record, a bench row."""
        r = self.result
        return Record(
            puzzle=self.puzzle, n=self.n, variant=self.variant, formulation=self.formulation,
            setting=self.request.setting, solver=r.solver, status=r.status, objective=clean_number(r.objective),
            bound=clean_number(r.bound), proven=r.proven, verified=self.verified, count=r.count,
            positions=r.positions, seconds=self.seconds, generate_seconds=round(self.generate_seconds, 3),
            build_seconds=round(r.build_seconds, 3), solve_seconds=round(r.solve_seconds, 3),
            compile_seconds=round(r.compile_seconds, 3),
            solver_version=r.solver_version, time_limit=r.params.get("time_limit"), threads=r.params.get("threads"),
            seed=r.params.get("seed"), params={**r.params, **self.params.changed()},
            racers=None if r.racers is None else [asdict(racer) for racer in r.racers],
            certificate=None if r.certificate is None else asdict(r.certificate),
            published=None if self.published is None else self.published.value,
            published_status="" if self.published is None else self.published.status,
            match=self.match, check=None if self.verdict is None else self.verdict.message,
            message=r.message, solution=self.solution)


def plan(puzzle: str | Puzzle[Any], n: int | None, solver: str | None = None,
         formulation: str | None = None, params: Any = None, question: Question | None = OPTIMISE,
         options: Options | None = None) -> Request[Any]:
    """Every check a run's request must pass before anything is solved (so that no command loses
    a result to bad input found afterwards), made once per run: the Request. `solver` None: the
    puzzle's default for the question; `question` None: the formulation's own (tables, compare);
    `options`, when given, are checked too (checks.applicable)."""
    if solver is not None and not isinstance(solver, str):
        raise BadInput(f"solver is a backend's name, got {solver!r}")
    p = puzzle if isinstance(puzzle, Puzzle) else get(puzzle)
    typed = p.params(params)
    p.validate(n, typed)
    if question is None:
        question = p.question_of(formulation or p.formulation_for(canonical(solver or p.default_solver)))
    count = isinstance(question, Count)
    counting = p.counting_formulations if count and p.sense is not None else []   # counts of a puzzle that optimises
    if count and p.sense is not None and not counting:
        raise BadInput(f"{p.name} is not a counting puzzle")
    if counting and solver is None:     # the registry's first backend that enumerates the counting formulation
        solver = first_counting(searches=(formulation if formulation in counting else counting[0]) in p.methods)
    chosen = canonical(solver or ("search" if formulation in p.methods else p.default_solver))   # a method: its backend
    native = backend_class(split_name(chosen)[0]).runs_searches()
    if counting:
        usable = [f for f in counting if (f in p.methods) == native]
        if not usable or formulation not in (None, *usable):
            raise BadInput(f"{p.name} counts with the {'/'.join(counting)} formulation "
                           f"({'a search method' if counting[0] in p.methods else 'a model'})")
        formulation = formulation or usable[0]
    if native:
        formulation = p.method(n, typed, formulation)
        if not count and p.sense is not None and formulation in p.counting_formulations:
            raise BadInput(f"{p.name}: the {formulation} method counts (the count command)")
    else:
        models = [f.name for f in p.models]
        if formulation in p.methods:
            raise BadInput(f"{p.name}: {formulation} is a search method; the native search backend runs it")
        formulation = formulation or p.formulation_for(chosen, count)
        if formulation not in models + ["default"]:
            raise BadInput(f"{p.name}: unknown formulation '{formulation}' (known: {', '.join(models)})")
    p.validate_run(n, typed, formulation)
    if options is not None:
        applicable(p, formulation, options)
    return Request(p, n, typed, chosen, formulation, question)


class _BuildCut(Exception):
    """The time limit ran out while the model was being built."""


@contextlib.contextmanager
def _time_box(seconds: float | None) -> Iterator[None]:
    """_BuildCut once `seconds` pass inside the block (SIGALRM, so the main thread only, and only
    where the caller has no alarm of its own: elsewhere the build is not cut and the backend gets
    what is left)."""
    if seconds is None or threading.current_thread() is not threading.main_thread() \
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0:
        yield
        return

    def cut(signum: int, frame: Any) -> None:
        raise _BuildCut

    previous = signal.signal(signal.SIGALRM, cut)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def solve(request: Request[Any], options: Options) -> Run:
    """The request run end to end: build, solve in a worker, decode, check. The time limit covers
    the build too: the backend gets what the build left, and a build that uses it all up is cut
    (status unknown, no backend run)."""
    puzzle, n, params, counting = request.puzzle, request.n, request.params, request.counting
    t0 = time.perf_counter()
    built = None
    try:
        with _time_box(options.time_limit):
            built = puzzle.build(n, request.formulation, params)
    except _BuildCut:
        pass
    generated = time.perf_counter() - t0
    left = None if options.time_limit is None else options.time_limit - generated
    if built is None or (left is not None and left < TIME_LIMIT_MIN):
        result = Result(Status.UNKNOWN, solver=request.solver, total_seconds=0.0,
                        params=dict(threads=options.threads, time_limit=options.time_limit, seed=options.seed),
                        message=f"the time limit ({options.time_limit:g} s) was reached while the model was "
                                f"being built ({generated:.1f} s): no backend ran")
        return Run(request, result, None, published(puzzle.published_series(params, request.formulation), n), generated)
    result = run_backend(request.solver, built.model, replace(options, time_limit=left), request.question)
    result.params["time_limit"] = options.time_limit       # the run's own limit, not what the build left
    if counting:
        if result.examples is None and result.values is not None:
            result.examples = [built.decode(v) for v in result.values]
    elif result.solution is None and result.values is not None:
        result.solution = built.decode(result.values)
    verdict = _check(request, result)
    return Run(request, result, verdict, published(puzzle.published_series(params, request.formulation), n), generated)


def stored(request: Request[Any], record: Record, strict: bool = False) -> Run:
    """The one way back from a stored run (a results row, a JSON record) to a checked Run: its
    solution goes through the checker again, so a stored run counts only as much as a fresh one
    would. `strict` (a table that skips the rows it has): BadRow when the record is no answer or
    claims what does not hold (false_claims)."""
    counting, solution = request.counting, record.solution
    result = Result(record.status, record.objective, record.bound, solution=None if counting else solution,
                    examples=solution if counting else None, count=record.count, solver=record.solver,
                    solver_version=record.solver_version, total_seconds=record.seconds or 0.0,
                    params={"time_limit": record.time_limit, "threads": record.threads}, message=record.message)
    claimed = replace(result, solution=None, message="")
    verdict = _check(request, result)
    request = replace(request, formulation=record.formulation or request.formulation)
    run = Run(request, result, verdict, published(request.puzzle.published_series(request.params, request.formulation),
                                                  request.n))
    false = false_claims(request, claimed, verdict) if strict else []
    if false:
        raise BadRow(false[0])
    if strict and (verdict is not None and not verdict.ok or not result.status.answered):    # no answer
        raise BadRow(result.message or f"the checker rejects its solution ({verdict.message if verdict else ''})")
    return run


def read_back(puzzle: Puzzle[Any], record: Record, params: Mapping[str, Any] | None = None,
              n: int | None = None, strict: bool = False) -> Run:
    """A stored run planned under its own options (`params` and `n` override them) and read back
    through stored(): checked as `table` checks the rows it skips. `verify` and the b-files read
    stored runs only through it. BadRow when it cannot be planned (a bad N or setting, an unknown
    backend) and, `strict`, when it does not hold."""
    try:
        saved = {k: v for k, v in record.params.items() if k in {o.dest for o in puzzle.options}}
        typed = puzzle.params({**saved, **record.setting, **(params or {})})
        formulation, question = record.formulation or None, None
        if formulation not in [f.name for f in puzzle.formulations]:     # a bare solution: where models count
            counts = puzzle.sense is None or any(f.counts for f in puzzle.models)
            formulation, question = None, Count() if counts and isinstance(record.solution, list) else OPTIMISE
        value = (n if n is not None else record.n) if puzzle.needs_n else None
        request = plan(puzzle, value, record.solver or None, formulation, typed, question)
    except (ValueError, TypeError, RecursionError, BadInput) as e:
        raise BadRow(f"n {record.n!r}, setting {setting_text(record.setting)!r}: "
                     f"{str(e).splitlines()[0][:120]}") from None
    return stored(request, record, strict)


def record_claims(run: Run, record: Record) -> list[str]:
    """What a stored record claims of its run, read back with a valid board, that does not hold:
    false_claims, `proven` beside a status that proves nothing, and a match field that the measured
    value does not give (recomputed, never trusted). A bare solution claims nothing."""
    if not record.claims or run.verdict is None:
        return []
    claimed = replace(run.result, status=record.status, objective=record.objective, count=record.count)
    false = false_claims(run.request, claimed, run.verdict)
    if record.proven and not record.status.proves:
        false.append(f"proven, with status {record.status}")
    measured = replace(run, result=replace(claimed, objective=None if run.counting else run.verdict.objective))
    if record.match and record.match != measured.match:
        false.append(f"match {record.match!r}, but the measured value gives {measured.match!r}")
    return false


def false_claims(request: Request[Any], claimed: Result, verdict: Verdict | None) -> list[str]:
    """What a record or a stored row claims that neither the checker's measure nor the published
    value bears out: its objective, `optimal` (only with a bound equal to it), a bound the solution
    beats, and a proof of a value other than a PROVEN published one. `verify` and `table` (which
    redoes such a row) share it, so no claim is taken on trust."""
    puzzle, n, params, counting = request.puzzle, request.n, request.params, request.counting
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
    false += _status_claims(claimed, verdict is not None and verdict.ok, counting)
    pub = published(puzzle.published_series(params, request.formulation), n)
    value = claimed.count if counting else (measured if measured is not None else objective)
    proof = Status.COMPLETE if counting else Status.OPTIMAL
    if pub is not None and pub.status == "PROVEN" and status == proof and value is not None and value != pub.value:
        false.append(f"a proof of {clean_number(value)}, but the published value {pub.value} is proven ({pub.source})")
    return false


def _status_claims(claimed: Result, solved: bool, counting: bool) -> list[str]:
    """A status the same record contradicts: `infeasible` beside a solution the checker accepts, a
    value or a count; `unknown` (nothing found) beside a solution or a value (a count stopped short
    keeps its partial count and examples under `unknown`); a complete count below its own examples."""
    status, false = claimed.status, []
    if status == Status.INFEASIBLE or status == Status.UNKNOWN and not counting:
        if solved:
            false.append(f"{status}, but the record carries a solution the checker accepts")
        if claimed.objective is not None:
            false.append(f"{status}, but the record gives the objective {clean_number(claimed.objective)}")
        if status == Status.INFEASIBLE and claimed.count:
            false.append(f"{status}, but the record counts {claimed.count} solution(s)")
    examples = claimed.examples if isinstance(claimed.examples, list) else []
    distinct = len({json.dumps(e, sort_keys=True) for e in examples})
    if counting and solved and status == Status.COMPLETE and claimed.count is not None and claimed.count < distinct:
        false.append(f"a complete count of {claimed.count}, but the record holds {distinct} distinct valid examples")
    return false


def certify(run: Run, time_limit: float | None) -> None:
    """Certify the run's answer as a lower bound, independently of the backend (certify.py); the
    certificate (verdict, proof hash) is stored with the result."""
    from .certify import certify as refute
    from .models.core import HittingSet

    if not run.verified or run.value is None:
        raise BadInput("--certify needs a verified solution")
    model = run.request.puzzle.build(run.n, run.formulation, run.params).model
    if not isinstance(model, HittingSet):
        raise BadInput(f"--certify handles hitting-set models; {run.puzzle} has {type(model).__name__}")
    cert = refute(model, int(run.value), time_limit)
    run.result.certificate = cert
    note = f"lower bound {cert.lower_bound} certified: {cert.verdict} ({cert.checker}, sha256 {cert.proof_sha256[:16]})"
    run.result.message = (run.result.message + "; " if run.result.message else "") + note


def _check(request: Request[Any], result: Result) -> Verdict | None:
    """The independent checker decides whether the run's solution counts at all."""
    puzzle, n, params, counting = request.puzzle, request.n, request.params, request.counting
    if result.solution is None and result.objective is not None and not counting:
        # a value without a solution is not an answer
        result.message = f"no solution came back for objective {clean_number(result.objective)}; " \
                         f"{result.message}".rstrip("; ")
        result.objective = None
        result.status = Status.UNKNOWN if result.status == Status.FEASIBLE else Status.ERROR
    if counting:
        if not result.examples or result.status == Status.ERROR:
            return None     # nothing to check: a count without examples
        verdict = _checked(puzzle, n, result.examples, params, counting)
    else:
        if result.solution is None:
            return None     # nothing to check (an error's best so far, say, a crashed worker's, is checked)
        verdict = _checked(puzzle, n, result.solution, params, counting)
        if verdict.ok and verdict.objective is not None and result.objective is not None \
                and abs(verdict.objective - result.objective) > 1e-6:
            verdict = Verdict(False, f"the backend reports objective {clean_number(result.objective)} "
                                     f"but the checker measures {clean_number(verdict.objective)}")
    if not verdict.ok:   # a rejected solution is never reported or stored as an answer
        result.message = f"checker rejected the solution: {verdict.message}"
        result.status, result.solution, result.examples, result.objective = Status.ERROR, None, None, None
    return verdict


def _checked(puzzle: Puzzle[Any], n: int | None, solution: Any, params: Any, counting: bool) -> Verdict:
    """The checker's verdict; a solution it cannot even read (a stored one edited, say) is malformed."""
    try:
        if counting:
            if not isinstance(solution, list):
                return Verdict(False, "malformed solution: a count's examples are a list")
            bad = [v for v in (puzzle.check(n, s, params) for s in solution) if not v.ok]
            return bad[0] if bad else Verdict(True, f"{len(solution)} example solution(s) pass the checker")
        return puzzle.check(n, solution, params)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as e:
        return Verdict(False, f"malformed solution ({type(e).__name__}: {e})")
