"""Backend registry: names such as `highs` or `minizinc:gecode` -> a lazily imported module.

Nothing here imports a solver library: OR-Tools and highspy cannot share one process, so each
solve runs in a worker process of its own (runner.py).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from .base import Options, Result, Status, Unavailable, UnsupportedModel  # noqa: F401

BACKENDS = ("auto", "highs", "cbc", "cpsat", "scip", "maxsat", "minizinc", "search")


class UnknownSolver(ValueError):
    pass


def split_name(name: str) -> tuple[str, str | None]:
    base, _, sub = name.partition(":")
    if base not in BACKENDS:
        raise UnknownSolver(f"unknown solver '{name}' (known: {', '.join(BACKENDS)}, minizinc:ID)")
    if base == "minizinc" and not sub:
        sub = "gecode"
    return base, sub or None


def load(base: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{base}")


def canonical(name: str) -> str:
    base, sub = split_name(name)
    return f"{base}:{sub}" if sub else base


@dataclass
class SolverInfo:
    name: str
    available: bool
    version: str
    note: str


def available_solvers() -> list[SolverInfo]:
    """Every backend with its version, or why it cannot run and how to get it."""
    infos = []
    for base in BACKENDS:
        module = load(base)
        if base == "minizinc":
            infos += _minizinc_solvers(module)
            continue
        try:
            infos.append(SolverInfo(base, True, module.version(), ""))
        except Exception as e:  # PackageNotFoundError or Unavailable
            infos.append(SolverInfo(base, False, "", f"unavailable: {e}; install: {module.INSTALL}"))
    return infos


def _minizinc_solvers(module: ModuleType) -> list[SolverInfo]:
    try:
        module.version()
    except Unavailable as e:
        return [SolverInfo("minizinc:*", False, "", str(e))]
    infos = []
    for short, entry in sorted(module.discover().items()):
        reason = module.why_unusable(entry) or _probe(short)
        name = f"minizinc:{short}"
        if reason:
            infos.append(SolverInfo(name, False, entry.get("version", ""), f"unavailable: {reason}"))
        else:
            infos.append(SolverInfo(name, True, module.version(short), ""))
    return infos


def _probe(short: str) -> str | None:
    """Solve a one-variable model: the only sure test that a configured solver loads."""
    from .runner import run
    from ..models.core import HittingSet

    result = run(f"minizinc:{short}", HittingSet(1, [(0,)]), Options(time_limit=20, threads=1))
    if result.status == Status.OPTIMAL and result.objective == 1:
        return None
    return (result.message or str(result.status)).strip().splitlines()[-1][:160] or "failed a trivial model"


def installed(kind: type | None = None) -> list[str]:
    """Names of the backends that run here (optionally: that take this model kind)."""
    names = [i.name for i in available_solvers() if i.available and i.name not in ("search", "auto")]
    if kind is None:
        return names
    return [n for n in names if kind in load(split_name(n)[0]).KINDS]


def known(name: str) -> str | None:
    """UnknownSolver unless `name` is a backend, or a solver that minizinc lists; returns the sub-name."""
    base, sub = split_name(name)
    if base == "minizinc":
        found = load(base).discover()
        if found and sub not in found:
            raise UnknownSolver(f"minizinc has no solver '{sub}' (known: {', '.join(sorted(found))})")
    return sub


def require(name: str) -> None:
    """Raise Unavailable (with how to install) when backend `name` cannot run here; imports nothing."""
    base, sub = split_name(name)
    module = load(base)
    try:
        module.version(sub) if base == "minizinc" else module.version()
    except Unavailable:
        raise
    except Exception as e:
        raise Unavailable(f"{name} is unavailable ({e}); install: {module.INSTALL}") from None
    if base == "minizinc":
        reason = module.why_unusable(module.discover()[known(name)])
        if reason:
            raise Unavailable(f"{name} cannot run here: {reason}; {module.INSTALL}")
