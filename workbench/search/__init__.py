"""What every native search shares, one small module each: bit tricks (bits), the symmetries of the
square (symmetry), one deadline (deadline), their compiled forms for the kernels (compiled: the clock
and the symmetries), one result type with a merge for split searches (outcome), and the thread
count of numba's parallel loops (threads). None imports a puzzle; deadline, symmetry and outcome load
no numba."""
