"""A count of the toy: how many vertex covers the cycle C_n has (the Lucas numbers), by going
through every set of vertices. One module and one Formulation line (counts=True, search=...)."""
from __future__ import annotations

from typing import Any

from workbench.models.core import OPTIMISE, Count, Options, Question
from workbench.search.outcome import Outcome, Progress

from .search import covers


def count(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE) -> Outcome[list[int]]:
    """Every subset is looked at, so the count is complete; the first `show` covers are the examples."""
    assert n is not None
    show = question.show if isinstance(question, Count) else 0
    found, examples = 0, []
    for mask in range(1 << n):
        chosen = {i for i in range(n) if mask >> i & 1}
        if covers(n, chosen):
            found += 1
            if len(examples) < show:
                examples.append(sorted(chosen))
    return Outcome(count=found, examples=tuple(examples), positions=1 << n)
