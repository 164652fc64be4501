"""SCIP's exact counting mode against brute force (the cross-checks in test_backends cover solving)."""
import pytest
from test_backends import random_hitting_set, random_linear

from workbench.models.core import Count, hitting_set_to_linear
from workbench.solvers.base import Options, Status
from workbench.solvers.runner import run


@pytest.mark.parametrize("seed", range(12))
def test_scip_counts_hitting_sets_like_brute_force(seed):
    hs = random_hitting_set(seed)
    m = hitting_set_to_linear(hs)
    m.objective = []
    expected = sum(1 for mask in range(1 << hs.n_elements)
                   if all(any(mask >> e & 1 for e in s) for s in hs.sets))
    r = run("scip", m, Options(time_limit=30, threads=1), Count())
    assert r.status == Status.COMPLETE, r.message
    assert r.count == expected


@pytest.mark.parametrize("project,why", [([0], "projected"), (None, "0-1")])
def test_scip_refuses_counts_it_cannot_make_exact(project, why):
    m = random_linear(5)            # general integer variables
    m.objective, m.project = [], project
    r = run("scip", m, Options(time_limit=30, threads=1), Count())
    assert r.status == Status.UNSUPPORTED and why in r.message
