"""The native search of percolation: counts of A146971 by the recursion (exactly or by residues),
the rest (the transfer method, --permutation, one set, example sets) by the transfer matrix."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...models.core import OPTIMISE, Count, Options, Question
from ...search.deadline import Deadline
from ...search.outcome import Outcome, Progress, Refused
from .recursion import N_MAX, recursion

_kept: dict[str, Any] = {}      # this process's recursion, its kind and the n it reached


def count(n: int, by_residues: bool = False, threads: int = 1) -> tuple[int, float]:
    """a(n) and the seconds this call spent, exactly or by residues (residues.py). A larger n than
    last time, of the same kind, extends the kept recursion, so a table of a(1..N) costs one run to
    N (each row its own share); any other n starts afresh, so that every figure is the time of a
    real computation."""
    watch = Deadline()
    kind = "residues" if by_residues else "exact"
    if _kept.get("kind") != kind or _kept.get("n", N_MAX + 1) >= n:
        if by_residues:
            from .residues import Residues
            found = Residues(N_MAX)
            _kept["value"] = lambda m, threads: found.terms(m, threads, first=m)[0]
        else:
            extend = recursion(N_MAX)
            _kept["value"] = lambda m, _: int(extend(m).T[m, m])
        _kept["kind"] = kind
    _kept["n"] = n
    return _kept["value"](n, threads), watch.elapsed()


def solve_by_residues(n: int | None, params: Any, options: Options, report: Progress,
                      question: Question = OPTIMISE) -> Outcome[Any]:
    """The residues method: the recursion's count modulo primes, joined by the CRT."""
    return solve(n, params, options, report, question, by_residues=True)


def solve_by_transfer(n: int | None, params: Any, options: Options, report: Progress,
                      question: Question = OPTIMISE) -> Outcome[Any]:
    """The transfer method: every question by the row-by-row transfer matrix."""
    assert n is not None
    result, build = _transfer(lambda m: m.solve(n, params, options, report, question))
    return replace(result, build_seconds=result.build_seconds + build)


def solve(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE, by_residues: bool = False) -> Outcome[Any]:
    """The recursion method: counts of A146971 by the recursion (by residues, or exactly), the rest
    (one set) by the transfer-matrix module. That module is compiled by numba only when needed, its
    compile time booked as build time."""
    assert n is not None
    counting = isinstance(question, Count)
    show = question.show if isinstance(question, Count) else 0
    if counting and not params.permutation:
        if not 1 <= n <= N_MAX:
            raise Refused(f"the recursion handles 1 <= n <= {N_MAX}")
        watch = Deadline()
        examples = _transfer(lambda m: m.example_sets(n, show, False, int(options.seed or 0)))[0] \
            if show and n <= 12 else []
        if by_residues:
            from . import residues
            residues.warm_up()
        build = watch.elapsed()
        total, seconds = count(n, by_residues, max(1, int(options.threads)))
        report(Outcome(count=total, complete=False))
        how = "the recursion over rectangles"
        if by_residues:
            from .residues import description
            how += f" {description(N_MAX)}"
        return Outcome(count=total, examples=tuple(examples), build_seconds=build,
                      message=f"exact count by {how} ({seconds:.2f} s to extend it to {n} x {n})")
    return solve_by_transfer(n, params, options, report, question)


def _transfer(call):
    """call(the transfer-matrix module), after compiling it; returns the answer and the seconds
    the compilation (or the load from numba's cache) took."""
    from . import transfer

    watch = Deadline()
    transfer.warm_up()
    build = watch.elapsed()
    return call(transfer), build
