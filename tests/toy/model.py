"""The generator: one covering set per edge of the cycle."""
from __future__ import annotations

from workbench.models.core import Built, HittingSet


def build(n: int) -> Built:
    edges = [(i, (i + 1) % n) for i in range(n)] if n > 1 else []
    model = HittingSet(n, [tuple(sorted(e)) for e in edges], name=f"cycle_cover_n{n}")
    return Built(model, lambda values: [i for i in range(n) if round(values[i]) == 1])

