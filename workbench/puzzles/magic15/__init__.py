"""15-puzzle to a magic square (IBM Ponder This, November 2023)."""

from .puzzle import Magic15Puzzle

__all__ = ["Magic15Puzzle"]
