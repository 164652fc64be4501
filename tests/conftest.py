import pytest

from workbench.solvers import installed

MODEL_BACKENDS = ["highs", "cbc", "cpsat", "scip", "maxsat", "minizinc:gecode"]


@pytest.fixture(scope="session")
def backends() -> list[str]:
    """The model backends that run on this machine (the set-up installs all of them)."""
    here = installed()
    missing = [b for b in MODEL_BACKENDS if b not in here]
    assert not missing, f"backends missing after set-up: {missing}"
    return MODEL_BACKENDS
