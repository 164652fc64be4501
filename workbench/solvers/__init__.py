"""Backend registry: names such as `highs` or `minizinc:gecode` -> a Backend class, imported lazily.

Nothing here imports a solver library: OR-Tools and highspy cannot share one process, so each
solve runs in a worker process of its own (runner.py). Adding a backend: one module with one
Backend subclass (copy TEMPLATE.py), and one line below.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from ..errors import UnknownSolver
from .base import Backend, Options, Result, Status, Unavailable, UnsupportedModel

BACKENDS = {
    "auto": "workbench.solvers.auto:Portfolio",
    "highs": "workbench.solvers.highs:HiGHS",
    "cbc": "workbench.solvers.cbc:CBC",
    "cpsat": "workbench.solvers.cpsat:CPSAT",
    "scip": "workbench.solvers.scip:SCIP",
    "glpk": "workbench.solvers.glpk:GLPK",
    "lpsolve": "workbench.solvers.lpsolve:LpSolve",
    "maxsat": "workbench.solvers.maxsat:MaxSAT",
    "sat": "workbench.solvers.sat:LinearSAT",
    "minizinc": "workbench.solvers.minizinc:MiniZinc",
    "search": "workbench.solvers.search:NativeSearch",
}

__all__ = ["BACKENDS", "Backend", "Options", "Result", "Status", "Unavailable", "UnsupportedModel",
           "UnknownSolver", "available_solvers", "backend", "backend_class", "canonical", "first_counting", "installed",
           "known", "require", "split_name"]


@cache
def backend_class(base: str) -> type[Backend]:
    if base not in BACKENDS:
        raise UnknownSolver(f"unknown solver '{base}' (known: {', '.join(BACKENDS)}, minizinc:ID)")
    module, cls = BACKENDS[base].split(":")
    found: type[Backend] = getattr(importlib.import_module(module), cls)
    return found


def split_name(name: str) -> tuple[str, str | None]:
    base, _, sub = name.partition(":")
    return base, sub or backend_class(base).default_sub


def canonical(name: str) -> str:
    base, sub = split_name(name)
    return f"{base}:{sub}" if sub else base


def backend(name: str) -> Backend:
    base, sub = split_name(name)
    return backend_class(base)(sub)


@dataclass
class SolverInfo:
    name: str
    available: bool
    version: str
    note: str


def available_solvers() -> list[SolverInfo]:
    """Every backend (and subsolver) with its version, or why it cannot run and how to get it."""
    infos = []
    for base in BACKENDS:
        cls = backend_class(base)
        try:
            subs = cls.subsolvers(probe=True)
        except Exception as e:      # the backend's own tool is missing or broken
            infos.append(SolverInfo(f"{base}:*", False, "", f"unavailable: {e}"))
            continue
        names = {f"{base}:{s}": r for s, r in subs.items()}
        if not names or cls.default_sub is None:     # the bare name is a configuration of its own
            names = {base: None, **names}
        for name, reason in names.items():
            try:
                version = backend(name).version()
            except Exception as e:  # PackageNotFoundError or Unavailable
                reason = reason or f"{e}; install: {cls.install}"
                version = ""
            infos.append(SolverInfo(name, reason is None, version, f"unavailable: {reason}" if reason else ""))
    return infos


def first_counting(searches: bool = False) -> str:
    """The registry's first backend that counts solutions by enumeration: of a model, or (`searches`)
    by a puzzle's search method."""
    return next(canonical(b) for b, cls in ((b, backend_class(b)) for b in BACKENDS)
                if cls.enumerates() and not cls.in_parent and cls.runs_searches() == searches)


def installed(kind: type | None = None) -> list[str]:
    """Names of the single backends that run here (optionally: that take this model kind)."""
    return [i.name for i in available_solvers() if i.available and not backend_class(split_name(i.name)[0]).in_parent
            and (kind is None or kind in backend_class(split_name(i.name)[0]).kinds)]


def known(name: str) -> str | None:
    """UnknownSolver unless `name` is a backend, or one of its subsolvers; returns the sub-name."""
    base, sub = split_name(name)
    cls = backend_class(base)
    if sub is not None:
        offered = cls.subsolvers()
        if (offered or not cls.default_sub) and sub not in offered:
            raise UnknownSolver(f"{base} has no solver '{sub}'" +
                                (f" (known: {', '.join(sorted(offered))})" if offered else ""))
    return sub


def require(name: str) -> None:
    """Raise Unavailable (with how to install) when backend `name` cannot run here."""
    known(name)
    try:
        backend(name).version()
    except Unavailable:
        raise
    except Exception as e:
        install = backend_class(split_name(name)[0]).install
        raise Unavailable(f"{name} is unavailable ({e}); install: {install}") from None
