"""A toy puzzle, registered from the test folder: the smallest vertex cover of the cycle C_n.

It shows what a new puzzle needs (one package: puzzle, model, check, data) and proves that the
workbench takes it through solve, table and verify with nothing else changed."""

from .puzzle import CycleCover

__all__ = ["CycleCover"]
