"""Shared fixtures: the backends come from the registry and the published values from the puzzles'
own data, so that no test keeps a list of its own."""
import os
import tempfile
from pathlib import Path

import pytest

from workbench.models.core import HittingSet
from workbench.puzzles import REGISTRY, published_table, register
from workbench.solvers import BACKENDS, backend_class, canonical, installed

# The native searches journal their tasks (workbench/search/tasks/): each test process keeps its
# journals apart, so that two processes never meet on one journal and no test leaves one behind.
# xdist's workers inherit the controller's environment, so the folder is made per process (by pid),
# not once: with the default `--dist load` two workers ran the same squares search on one journal.
if os.environ.get("WORKBENCH_TEST_PROCESS") != str(os.getpid()):
    os.environ["WORKBENCH_TEST_PROCESS"] = str(os.getpid())
    os.environ["WORKBENCH_JOURNALS"] = tempfile.mkdtemp(prefix="workbench-journals-")
os.environ.setdefault("WORKBENCH_JOURNAL_KEY", str(Path(tempfile.mkdtemp(prefix="workbench-key-")) / "journal.key"))


def published_values(key: str) -> dict[int, int]:
    """The published series `key` (n -> value), read from its puzzle package's data."""
    return {n: p.value for n, p in published_table(key).items()}


def model_backends(kind: type = HittingSet) -> list[str]:
    """Every single backend that takes this model kind, by its default name."""
    return [canonical(b) for b in BACKENDS if not backend_class(b).in_parent and kind in backend_class(b).kinds]


@pytest.fixture(scope="session")
def published():
    """published("squares")[n]: a published value, never a computed one."""
    return published_values


@pytest.fixture(scope="session")
def backends() -> list[str]:
    """The model backends of the registry; the set-up installs all of them, so each must run here."""
    here = installed()
    missing = [b for b in model_backends() if b not in here]
    assert not missing, f"backends missing after set-up: {missing}"
    return model_backends()


@pytest.fixture
def toy(monkeypatch):
    """The toy puzzle of tests/toy/, registered for one test. Its search methods are imported in
    the worker processes too, so they start afresh with the test folder on their path."""
    from workbench.solvers import runner

    here = str(Path(__file__).resolve().parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p))
    runner.shutdown()
    register("cyclecover", "toy:CycleCover")
    yield "cyclecover"
    del REGISTRY["cyclecover"]
    register.__globals__["get"].cache_clear()
    runner.shutdown()
