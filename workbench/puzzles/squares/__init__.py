"""Matchstick squares (OEIS A294249)."""

from .puzzle import SquaresPuzzle

__all__ = ["SquaresPuzzle"]
