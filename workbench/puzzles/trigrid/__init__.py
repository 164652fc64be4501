"""Triangular matchstick grids (Enigma 144, Enigma 82, triangles only): the fewest matches to remove
so that no shape survives."""

from .puzzle import Enigma82, Enigma144, Triangles

__all__ = ["Enigma144", "Enigma82", "Triangles"]
