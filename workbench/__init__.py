"""workbench: integer-programming and constraint-model workbench for combinatorial puzzles."""

__version__ = "0.1.0"
