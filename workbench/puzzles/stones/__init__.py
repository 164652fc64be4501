"""Stepping stones (OEIS A337663)."""

from .puzzle import StonesPuzzle

__all__ = ["StonesPuzzle"]
