"""Minimal percolating sets (OEIS A146971)."""

from .puzzle import PercolationPuzzle

__all__ = ["PercolationPuzzle"]
