"""`auto`: a portfolio. Several backends or configurations race on the available cores (one worker
process each, runner.race); the first proof wins and the others are stopped.

Why: on the triangular grids no single configuration wins everywhere. RC2's time depends on the
clause order by a factor of 10 and more, CaDiCaL inside RC2 proves enigma82 N = 7 in 2 s where
Glucose needs 13..40 s, and SCIP proves enigma82 N = 8 where RC2 with Glucose does not (docs/trigrid.md).
The racers are listed best first; a run with T threads races the first T of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..models.core import HittingSet, LinearModel, MaxSatModel
from .base import Options, Report, Result, UnsupportedModel

NAME = "auto"
KINDS = (HittingSet, LinearModel, MaxSatModel)
INSTALL = "the racers' own libraries (see `workbench solvers`)"


@dataclass(frozen=True)
class Racer:
    solver: str
    seed: int = 0
    params: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def label(self) -> str:
        extras = [str(v.get("solver")) for v in self.params.values() if isinstance(v, dict) and "solver" in v]
        extras += [f"seed {self.seed}"] if self.seed else []
        return f"{self.solver} ({', '.join(extras)})" if extras else self.solver

    def options(self, base: Options, threads: int) -> Options:
        params = {**base.params, **self.params}
        return Options(time_limit=base.time_limit, threads=threads, seed=base.seed + self.seed,
                       verbose=base.verbose, count=base.count, params=params)


CADICAL = {"maxsat": {"solver": "cd195"}}
RACERS: dict[type, list[Racer]] = {
    HittingSet: [Racer("maxsat"), Racer("maxsat", 0, CADICAL), Racer("scip"), Racer("maxsat", 1),
                 Racer("maxsat", 2, CADICAL), Racer("highs"), Racer("cpsat")],
    MaxSatModel: [Racer("maxsat"), Racer("maxsat", 0, CADICAL), Racer("cpsat"), Racer("scip")],
    LinearModel: [Racer("cpsat"), Racer("highs"), Racer("scip"), Racer("cbc")],
}


def racers(model: Any, options: Options) -> list[Racer]:
    """The racers for this model on options.threads cores (at least one)."""
    for kind, listed in RACERS.items():
        if isinstance(model, kind):
            return listed[:max(1, int(options.threads))]
    raise UnsupportedModel(f"auto has no racers for {type(model).__name__} models")


def version() -> str:
    return "portfolio"


def solve(model, options: Options, report: Report, sub: str | None = None) -> Result:
    raise UnsupportedModel("auto races in the parent process (runner.race), not inside a worker")
