"""A solution judged by the model file itself: the file is read again (reading.parse), and every
row, bound, integrality and clause of it is evaluated, the objective recomputed with its constant.
The converted model, which the backends solved, plays no part: a conversion that changed the model
cannot pass its own mistake off as the file's."""
from __future__ import annotations

import math
from collections.abc import Sequence

from ..puzzles.base import Verdict
from ..solvers.base import clean_number
from .reading import LinearFile, WcnfFile

NO_CHECKER = "no puzzle checker ran"
FEASIBILITY = 1e-6       # a row or bound may be off by this much, relative to max(1, |its side|)
INTEGRALITY = 1e-6       # an integer column's value may be off an integer by this much
TOLERANCES = f"feasibility {FEASIBILITY:g} relative, integrality {INTEGRALITY:g}"


def within(x: float, lo: float, hi: float) -> bool:
    """lo <= x <= hi, each side with the feasibility tolerance relative to its size."""
    return (lo == -math.inf or x >= lo - FEASIBILITY * max(1.0, abs(lo))) and \
        (hi == math.inf or x <= hi + FEASIBILITY * max(1.0, abs(hi)))


def agrees(a: float, b: float) -> bool:
    """Two objective values equal within the feasibility tolerance."""
    return abs(a - b) <= FEASIBILITY * max(1.0, abs(a), abs(b))


def check_linear(lf: LinearFile, values: Sequence[float]) -> Verdict:
    if len(values) < len(lf.names):
        return Verdict(False, f"{NO_CHECKER}; the solution has {len(values)} values, the file {len(lf.names)} columns")
    bad = [f"bound of {name}" for name, lo, hi, x in zip(lf.names, lf.lower, lf.upper, values) if not within(x, lo, hi)]
    bad += [f"integrality of {name}" for name, whole, x in zip(lf.names, lf.integer, values)
            if whole and abs(x - round(x)) > INTEGRALITY]
    bad += [f"row {name}" for name, lo, hi, terms in zip(lf.row_names, lf.row_lower, lf.row_upper, lf.rows)
            if not within(sum(c * values[j] for j, c in terms), lo, hi)]
    if bad:
        return Verdict(False, f"{NO_CHECKER}; the file's {', '.join(bad[:3])}"
                              f"{f' (and {len(bad) - 3} more)' if len(bad) > 3 else ''} fail(s) ({TOLERANCES})")
    objective = lf.offset + sum(c * x for c, x in zip(lf.cost, values))
    return Verdict(True, f"{NO_CHECKER}; every row, bound and integrality of the file holds ({TOLERANCES}); "
                         f"objective recomputed from the file: {clean_number(objective)}", objective)


def check_wcnf(wf: WcnfFile, values: Sequence[float]) -> Verdict:
    true = {v + 1 for v, x in enumerate(values[:wf.n_vars]) if x}

    def holds(clause: list[int]) -> bool:
        return any((lit > 0) == (abs(lit) in true) for lit in clause)

    broken = sum(1 for c in wf.hard if not holds(c))
    if broken:
        return Verdict(False, f"{NO_CHECKER}; {broken} hard clause(s) of the file fail")
    cost = sum(w for c, w in wf.soft if not holds(c))
    return Verdict(True, f"{NO_CHECKER}; every hard clause of the file holds; cost recomputed from the file: "
                         f"{clean_number(cost)} (its weights as written)", cost)
