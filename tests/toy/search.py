"""A search method of the toy: the smallest cover by trying every set of k vertices, k = 0, 1, ...
One module and one Formulation line (search="toy.search:solve") make it a method of the puzzle."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from workbench.models.core import OPTIMISE, Options, Question
from workbench.search.outcome import Outcome, Progress


def covers(n: int, chosen: set[int]) -> bool:
    return all(i in chosen or (i + 1) % n in chosen for i in range(n))


def solve(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE) -> Outcome[list[int]]:
    """Complete: the first size with a cover is the optimum (no smaller set was one)."""
    assert n is not None
    tried = 0
    for k in range(n + 1):
        for chosen in combinations(range(n), k):
            tried += 1
            if covers(n, set(chosen)):
                return Outcome(k, list(chosen), positions=tried, message=f"{tried} sets tried")
    return Outcome(positions=tried)
