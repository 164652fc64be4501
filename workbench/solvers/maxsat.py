"""Core-guided MaxSAT (python-sat's RC2): each core found raises the proven lower bound."""
from __future__ import annotations

import random
import threading
import time
from dataclasses import replace
from typing import Any, ClassVar

from ..models.core import HittingSet, MaxSatModel, greedy_hitting_set, hitting_set_to_maxsat, lex_leader
from ..models.writers import to_wcnf
from .base import Backend, Incumbent, Options, Report, Result, Status, UnsupportedModel

INSTALL = "pip install python-sat"
DEFAULT_SAT_SOLVER = "g4"    # plain RC2 with Glucose 4 (`maxsat`); `maxsat:NAME` picks another
SAT_SOLVERS = {              # offered as maxsat:NAME; the ones measured worth racing (docs/notes/trigrid.md)
    "cd195": "CaDiCaL 1.9.5", "cd153": "CaDiCaL 1.5.3", "g42": "Glucose 4.2",
}
NOT_INTERRUPTIBLE = ("cd",)  # python-sat cannot interrupt CaDiCaL: the runner's hard kill stops it
LEX = "lex"                  # maxsat:lex, maxsat:NAME+lex: add lex-leader clauses for the model's symmetries
LEXREV = "lexrev"            # the same with the elements compared from the last: another orbit representative
LEX_ORDERS = (LEX, LEXREV)


def configuration(sub: str | None, default: str = DEFAULT_SAT_SOLVER) -> tuple[str, str]:
    """A sub-name as (SAT solver inside, lex-leader order: '', 'lex' or 'lexrev')."""
    name, _, extra = (sub or "").partition("+")
    if name in LEX_ORDERS:
        return default, name
    return name or default, extra if extra in LEX_ORDERS else ""


def indicator(hs: HittingSet, chosen: list[int]) -> list[int]:
    """The chosen elements as 0/1 values, one per element: a hitting-set backend's `values`."""
    picked = set(chosen)
    return [1 if e in picked else 0 for e in range(hs.n_elements)]


def shuffled(ms: MaxSatModel, seed: int) -> tuple[MaxSatModel, list[int]]:
    """The same formula with variables renumbered and clauses reordered by `seed`: RC2's run time
    on the grid puzzles depends on that order by a factor of 10 and more (docs/notes/trigrid.md), so
    racing a few orders removes the luck. Returns the formula and the renumbering (old -> new)."""
    rng = random.Random(seed)
    new = list(range(1, ms.n_vars + 1))
    rng.shuffle(new)
    rename = [0] + new

    def clause(c: list[int]) -> list[int]:
        return [rename[lit] if lit > 0 else -rename[-lit] for lit in c]

    hard = [clause(c) for c in ms.hard]
    soft = [(clause(c), w) for c, w in ms.soft]
    rng.shuffle(hard)
    rng.shuffle(soft)
    return replace(ms, hard=hard, soft=soft), rename


class MaxSAT(Backend):
    name = "maxsat"
    kinds: ClassVar[tuple[type, ...]] = (HittingSet, MaxSatModel)
    install = INSTALL
    exports: ClassVar[tuple[str, ...]] = ("wcnf",)
    distribution, version_format = "python-sat", "python-sat {} (RC2)"
    default_sat_solver = DEFAULT_SAT_SOLVER     # the SAT solver a sub-name without one means

    def exact_integers(self) -> None:
        return None     # RC2 sums Python ints

    @classmethod
    def subsolvers(cls, probe: bool = False) -> dict[str, str | None]:
        return {name: None for name in (*SAT_SOLVERS, *LEX_ORDERS,
                                        *(f"{s}+{order}" for s in SAT_SOLVERS for order in LEX_ORDERS))}

    def version(self) -> str:
        sat_solver, lex = configuration(self.sub, self.default_sat_solver)
        inside = f", {SAT_SOLVERS[sat_solver]}" if sat_solver in SAT_SOLVERS else ""
        order = {LEX: ", lex-leader", LEXREV: ", lex-leader reversed"}.get(lex, "")
        return super().version()[:-1] + inside + order + ")"

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        rc2_module = self.library("pysat.examples.rc2")
        RC2, RC2Stratified = rc2_module.RC2, rc2_module.RC2Stratified
        t0 = time.perf_counter()
        sat_solver, lex = configuration(self.sub, self.default_sat_solver)
        if isinstance(model, HittingSet):
            chosen = greedy_hitting_set(model)
            report(Incumbent(float(sum(model.weight(c) for c in chosen)), 0.0, indicator(model, chosen)))
            ms = lex_leader(model, lex == LEXREV) if lex else hitting_set_to_maxsat(model)
        elif isinstance(model, MaxSatModel):
            ms = model
            fractional = next((w for _, w in ms.soft if w != int(w)), None)
            if fractional is not None:
                raise UnsupportedModel(f"maxsat (RC2) takes integer weights only; this model has weight {fractional}")
        else:
            raise UnsupportedModel(f"maxsat takes hitting-set and MaxSAT models, not {type(model).__name__}")
        sign = -1 if ms.sense == "max" else 1     # ints: a weight past 2^53 stays exact
        rename = list(range(ms.n_vars + 1))
        if options.seed:
            ms, rename = shuffled(ms, options.seed)
        wcnf = to_wcnf(ms)
        weighted = len({w for _, w in ms.soft}) > 1
        rc2 = (RC2Stratified if weighted else RC2)(wcnf, solver=sat_solver)

        process_core = rc2.process_core

        def process_core_and_report():   # each core raises the lower bound: pass it on to the parent
            process_core()
            report(Incumbent(None, sign * (ms.offset + rc2.cost), None))

        rc2.process_core = process_core_and_report
        timer = None
        if options.time_limit is not None and not sat_solver.startswith(NOT_INTERRUPTIBLE):
            timer = threading.Timer(options.remaining(t0), rc2.interrupt)
            timer.start()
        t1 = time.perf_counter()
        try:
            assignment = rc2.compute(expect_interrupt=True)
        finally:
            if timer:
                timer.cancel()
        t2 = time.perf_counter()
        timings: dict[str, Any] = dict(build_seconds=t1 - t0, solve_seconds=t2 - t1)
        bound = sign * (ms.offset + rc2.cost)
        if assignment is None:
            rc2.delete()
            if rc2.interrupted:
                return Result(Status.UNKNOWN, bound=bound, message="interrupted at the time limit", **timings)
            return Result(Status.INFEASIBLE, message="hard clauses unsatisfiable", **timings)
        positive = set(lit for lit in assignment if lit > 0)
        values = [1 if rename[v + 1] in positive else 0 for v in range(ms.decode_vars or ms.n_vars)]
        objective = sign * (ms.offset + rc2.cost)
        rc2.delete()
        return Result(Status.OPTIMAL, objective, objective, values, message="RC2 optimum", **timings)
