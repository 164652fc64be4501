"""`auto`: a portfolio. Several backends or configurations race on the available cores (one worker
process each, runner.race); the first proof wins and the others are stopped.

Why: on the triangular grids no single configuration wins everywhere. RC2's time depends on the
clause order by a factor of 10 and more, CaDiCaL inside RC2 proves enigma82 N = 7 in 2 s where
Glucose needs 13..40 s, SCIP proves enigma82 N = 8 where RC2 with Glucose does not, and the linear
SAT search (`sat`) wins enigma82 and enigma144 N = 13, 14 but loses enigma144 from N = 15 to RC2 with
lex-leader clauses (docs/notes/trigrid.md).
The racers are listed best first; a run with T threads races the first T of them.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import wait as wait_for
from typing import Any

from ..models.core import HittingSet, LinearModel, MaxSatModel
from . import canonical
from .base import Backend, Options, RacerResult, Report, Result, Status, UnsupportedModel
from .runner import Tracker, deadline_for, model_sense, request, worker_for


@dataclass(frozen=True)
class Racer:
    solver: str         # a backend name such as maxsat:cd195
    seed: int = 0       # added to the run's seed: another clause order (maxsat.shuffled)

    @property
    def label(self) -> str:
        return f"{self.solver} (seed {self.seed})" if self.seed else self.solver

    def options(self, base: Options, threads: int) -> Options:
        return replace(base, threads=threads, seed=base.seed + self.seed)


RACERS: dict[type, list[Racer]] = {
    HittingSet: [Racer("maxsat:cd195+lex"), Racer("sat"), Racer("maxsat:cd195"), Racer("maxsat"), Racer("scip"),
                 Racer("maxsat:cd195+lex", 2), Racer("highs"), Racer("cpsat")],
    MaxSatModel: [Racer("maxsat"), Racer("maxsat:cd195"), Racer("cpsat"), Racer("scip")],
    LinearModel: [Racer("cpsat"), Racer("highs"), Racer("scip"), Racer("cbc")],
}


def racers(model: Any, options: Options) -> list[Racer]:
    """The racers for this model on options.threads cores (at least one)."""
    for kind, listed in RACERS.items():
        if isinstance(model, kind):
            return listed[:max(1, int(options.threads))]
    raise UnsupportedModel(f"auto has no racers for {type(model).__name__} models")


def race(model: Any, options: Options) -> Result:
    """The `auto` portfolio: each racer in a worker of its own; the first racer to prove its answer
    wins and the others are killed. Without a proof, the best solution and the best bound of any
    racer are the result (status feasible: `optimal` only ever comes from one racer's own proof)."""
    try:
        chosen = racers(model, options)
    except UnsupportedModel as e:
        return Result(Status.UNSUPPORTED, solver="auto", message=str(e))
    threads = max(1, int(options.threads) // len(chosen))
    best, trackers = Tracker(model_sense(model)), [Tracker(model_sense(model)) for _ in chosen]
    results: dict[int, Result] = {}
    workers = {}
    starting = [worker_for(f"{racer.solver}#{i}", wait=False) for i, racer in enumerate(chosen)]
    for i, worker in enumerate(starting):   # started side by side; as for one backend, start-up is not charged
        try:
            worker.wait_ready()
        except (EOFError, OSError):
            results[i] = Result(Status.ERROR, message="racer process died while starting")
    started = time.perf_counter()
    for i, (racer, worker) in enumerate(zip(chosen, starting)):
        if i in results:
            continue
        try:
            worker.conn.send(request(canonical(racer.solver), model, racer.options(options, threads)))
            workers[worker.conn] = (i, worker)
        except OSError:         # killed between its start and its task
            worker.kill()
            results[i] = Result(Status.ERROR, message="racer process died")
    deadline = deadline_for(options, started)
    winner = None
    while winner is None and len(results) < len(chosen):
        wait = None if deadline is None else max(0.0, deadline - time.perf_counter())
        ready = wait_for([c for c, (i, _) in workers.items() if i not in results], wait)
        if not ready:
            break
        for conn in ready:
            i, worker = workers[conn]  # type: ignore[index]
            try:
                kind, payload = worker.conn.recv()
            except (EOFError, ConnectionError):
                worker.kill()
                results[i] = Result(Status.ERROR, message="racer process died")
                continue
            if kind == "clock":
                deadline = max(deadline or 0.0, deadline_for(options, time.perf_counter()) or 0.0) or None
            elif kind == "incumbent":
                trackers[i].update(payload)
                before = (best.objective, best.bound)
                best.update(payload)
                if (best.objective, best.bound) != before and (options.verbose or sys.stderr.isatty()):
                    sys.stderr.write(f"auto: best {best.objective}, bound {best.bound} ({chosen[i].label}, "
                                     f"{time.perf_counter() - started:.1f} s)\n")
            else:
                results[i] = trackers[i].merge(payload)
                results[i].total_seconds = time.perf_counter() - started
                if results[i].proven and winner is None:
                    winner = i
    for i, worker in workers.values():
        if i not in results:        # a loser or a racer past the deadline: stop it, keep its figures
            worker.kill()
            results[i] = trackers[i].merge(Result(Status.UNKNOWN, message="stopped"))
            results[i].total_seconds = time.perf_counter() - started
    figures = [RacerResult(r.label, str(results[i].status), results[i].objective, results[i].bound,
                           round(results[i].total_seconds, 3)) for i, r in enumerate(chosen)]
    if winner is not None:
        result = replace(results[winner], message=f"proven by {chosen[winner].label}",
                         solver_version=f"{chosen[winner].label}: {results[winner].solver_version}")
    else:
        result = best.merge(Result(Status.UNKNOWN, message="no racer proved its answer"))
        result.solver_version = "portfolio"
        if all(r.status == Status.ERROR for r in results.values()):
            # every racer crashed, so no time limit was reached: an error, as for one backend (best kept)
            result.status, result.message = Status.ERROR, "every racer died"
    params = dict(threads=options.threads, time_limit=options.time_limit, seed=options.seed)
    return replace(result, solver="auto", params=params, racers=figures, total_seconds=time.perf_counter() - started)


class Portfolio(Backend):
    name = "auto"
    kinds = (HittingSet, LinearModel, MaxSatModel)
    install = "the racers' own libraries (see `workbench solvers`)"
    in_parent = True

    def version(self) -> str:
        return "portfolio"

    def solve(self, model: Any, options: Options, report: Report) -> Result:
        return race(model, options)
