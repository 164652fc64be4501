"""The puzzle class: its name, its range, and the wiring of generator and checker."""
from __future__ import annotations

from typing import Any

from workbench.models.core import Built
from workbench.puzzles.base import Formulation, Puzzle

from .check import check
from .model import build


class CycleCover(Puzzle):
    name = "cyclecover"
    title = "Toy: the fewest vertices touching every edge of the cycle C_n"
    n_min, n_max = 2, 60
    formulations = (Formulation("plain", "one covering set per edge"),
                    Formulation("brute", "every set of k vertices, k = 0, 1, ...", search="toy.search:solve"),
                    Formulation("covers", "count the covers (Lucas numbers)", counts=True, search="toy.covers:count"))
    default_solver = "maxsat"
    checker = staticmethod(check)

    def generate(self, n: int | None, formulation: str, params: Any) -> Built:
        assert n is not None
        return build(n)
