"""The early checks, shared by the command line and the API: a request is refused here, before
anything is solved, so that bad input never costs a computed result.

The command line's argument types are these checkers (argparse calls them on the text); the API
calls the same ones on its keyword values (`given`), and both build a run's Options through
`options`. `applicable` says which run options a run would ignore; `pipeline.plan` calls it for
every N and backend of a request before the first run.
"""
from __future__ import annotations

import argparse
import math
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import tables
from .models.core import HittingSet, Options
from .puzzles.base import BadInput, Puzzle
from .search.tasks import cluster_address

MAX_SHOW = 10_000       # example solutions a count keeps (each is checked and printed)


def number(kind: type, low: float, high: float, what: str = "a number") -> Callable[[Any], Any]:
    """A checker: a finite number of `kind` in [low, high], from text or a number (nan, inf, 1e400,
    True and 2.5 for an integer are not); argparse.ArgumentTypeError otherwise."""
    def parse(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)) or \
                (kind is int and isinstance(value, float) and not value.is_integer()):
            raise argparse.ArgumentTypeError(f"not {what}: {value!r}")
        try:
            number = kind(value)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"not {what}: '{value}'") from None
        if not (isinstance(number, int) or math.isfinite(number)) or not low <= number <= high:
            raise argparse.ArgumentTypeError(f"must be {what} from {low} to {high}, got '{value}'")
        return number
    return parse


TIME_LIMIT = number(float, 0.01, 1e7, "a positive number of seconds")
THREADS = number(int, 1, 64, "a positive number of threads")
SEED = number(int, 0, 2**32 - 1, "a seed")
SHOW = number(int, 0, MAX_SHOW, "a number of example solutions")
REPEAT = number(int, 1, 1000, "a number of runs per backend")


def whole(value: Any) -> int:
    """An N from the API: an int (not a bool, a float or text)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"n must be an integer, got {value!r}")
    return value


def n_text(text: str, single: bool = False) -> int | range | list[int]:
    """The command line's --n: N, or (unless `single`) A..B or A,B,C. The API takes the result."""
    try:
        if single:
            return int(text)
        if ".." in text:
            a, b = text.split("..")
            if int(b) < int(a):
                raise BadInput(f"--n '{text}' is an empty range")
            return range(int(a), int(b) + 1)
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise BadInput(f"--n must be an integer, got '{text}'" if single else
                       f"bad --n '{text}': use N, A..B or a comma list") from None


def given(flag: str, check: Callable[[Any], Any], value: Any) -> Any:
    """An API keyword through the command line's own checker: BadInput naming the flag."""
    try:
        return check(value)
    except argparse.ArgumentTypeError as e:
        raise BadInput(f"{flag}: {e}") from None


def options(time_limit: float | None = 60.0, threads: int = 2, seed: int = 0, cluster: str | None = None,
            fresh: bool = False, verbose: bool = False, quiet: bool = True) -> Options:
    """A run's Options, each value checked as the command line checks its flag (a count's --show
    belongs to its question, Count)."""
    return Options(time_limit=None if time_limit is None else given("time_limit", TIME_LIMIT, time_limit),
                   threads=given("threads", THREADS, threads), seed=given("seed", SEED, seed),
                   cluster=None if cluster is None else given("cluster", cluster_address, cluster),
                   fresh=bool(fresh), verbose=bool(verbose), quiet=bool(quiet))


def applicable(puzzle: Puzzle[Any], formulation: str, options: Options) -> None:
    """Run options that this run would ignore are bad input: --cluster and --fresh belong to the
    search methods that run on the task layer. (--show is a flag of `count` alone.)"""
    for flag, set_ in (("--cluster", options.cluster is not None), ("--fresh", options.fresh)):
        if set_ and not puzzle.on_tasks(formulation):
            raise BadInput(f"{flag} applies to the native searches that run on the task layer "
                           f"(stones, squares exact, percolation transfer), "
                           f"not to this {puzzle.name} run ({formulation})")


def certifiable(puzzle: Puzzle[Any], n: int | None, formulation: str, params: Any) -> None:
    """--certify refutes a hitting set's lower bound: any other model is refused before the solve."""
    if formulation in puzzle.methods:
        raise BadInput(f"--certify handles hitting-set models; {puzzle.name}'s native search has none")
    model = puzzle.build(n, formulation, params).model
    if not isinstance(model, HittingSet):
        raise BadInput(f"--certify handles hitting-set models; {puzzle.name} has {type(model).__name__}")


def writable(path: str | Path) -> Path:
    """An output file checked before the solve, so that a bad path never loses a computed result
    (a file not there yet is not created: the folder must take a file)."""
    path = Path(path)
    if path.is_dir():
        raise BadInput(f"cannot write {path}: it is a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.open("a").close()
        else:
            tempfile.TemporaryFile(dir=path.parent).close()
    except OSError as e:
        raise BadInput(f"cannot write {path}: {e.strerror or e}") from None
    return path


def table_file(path: str | Path, columns: list[str] = tables.COLUMNS) -> Path:
    """A results table to append to: writable, and empty or a table the workbench wrote."""
    path = writable(path)
    tables.check_ours(path, columns)
    return path


def folder(path: str | Path) -> Path:
    """A results folder: made if missing, and one that takes files."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise BadInput(f"cannot write into {path}: it is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError as e:
        raise BadInput(f"cannot write into {path}: {e.strerror or e}") from None
    return path
