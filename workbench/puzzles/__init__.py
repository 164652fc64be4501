"""Puzzle registry: name -> the class that wires its generator, checker, drawings and data.

Adding a puzzle: one package puzzles/<family>/ (see base.py for the contract) and one line below.
"""
from __future__ import annotations

import csv
import importlib
from functools import cache
from pathlib import Path

from .base import BadInput, Published, Puzzle

REGISTRY = {
    "enigma144": "workbench.puzzles.trigrid:Enigma144",
    "enigma82": "workbench.puzzles.trigrid:Enigma82",
    "triangles": "workbench.puzzles.trigrid:Triangles",
    "squares": "workbench.puzzles.squares:SquaresPuzzle",
    "stones": "workbench.puzzles.stones:StonesPuzzle",
    "percolation": "workbench.puzzles.percolation:PercolationPuzzle",
    "magic15": "workbench.puzzles.magic15:Magic15Puzzle",
}


@cache
def get(name: str) -> Puzzle:
    if name not in REGISTRY:
        raise BadInput(f"unknown puzzle '{name}' (known: {', '.join(REGISTRY)})")
    module, cls = REGISTRY[name].split(":")
    try:
        return getattr(importlib.import_module(module), cls)()
    except (ImportError, AttributeError) as e:
        raise BadInput(f"puzzle '{name}' is not available in this build ({e})") from e


def register(name: str, target: str) -> None:
    """Add a puzzle from outside this package ("module:Class"), as a REGISTRY line would."""
    REGISTRY[name] = target
    get.cache_clear()
    published_table.cache_clear()


def available() -> list[Puzzle]:
    found = []
    for name in REGISTRY:
        try:
            found.append(get(name))
        except BadInput:
            pass
    return found


@cache
def published_table(key: str) -> dict[int, Published]:
    """Published reference values, from <puzzle package>/data/<key>.csv (never printed as our own)."""
    packages = set()
    for target in REGISTRY.values():     # the packages' folders, without making a puzzle of each
        try:
            packages.add(Path(str(importlib.import_module(target.split(":")[0]).__file__)).parent)
        except ImportError:
            pass
    paths = sorted(path for package in packages if (path := package / "data" / f"{key}.csv").is_file())
    if not paths:
        return {}
    path = paths[0]
    with path.open() as f:
        return {int(r["n"]): Published(key, int(r["n"]), int(r["value"]), r["status"], r["source"])
                for r in csv.DictReader(f)}


def published(key: str, n: int | None) -> Published | None:
    return published_table(key).get(0 if n is None else n)
