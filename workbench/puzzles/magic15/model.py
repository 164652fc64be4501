"""Geometry and models of the 15-puzzle-to-magic-square challenge (IBM Ponder This, Nov 2023).

Boards are 16 numbers in reading order (cell = 4 * row + col), 0 is the hole. A move slides a tile
into the orthogonally adjacent hole. The goal is any magic square: rows, columns and both main
diagonals sum to 30 (pandiagonal: the six broken diagonals as well).

Two models are built here: the magic squares themselves (for counting them), and a bounded-horizon
planning model (one board per step) that asks for a move sequence of at most `horizon` moves.
"""
from __future__ import annotations

import re
from typing import Any

from ...models.core import AllDifferent, Built, LinearModel

SIDE = 4
CELLS = SIDE * SIDE
MAGIC = 30
SORTED = tuple(list(range(1, 16)) + [0])
SORTED_SWAPPED = tuple(list(range(1, 14)) + [15, 14, 0])


def neighbours(cell: int) -> list[int]:
    """The cells orthogonally adjacent to `cell`."""
    r, c = divmod(cell, SIDE)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE:
            out.append((r + dr) * SIDE + c + dc)
    return out


def lines(pandiagonal: bool = False) -> list[list[int]]:
    """The cell lists that must sum to 30: rows, columns, the two main diagonals, and with
    `pandiagonal` all eight diagonals (main ones included, broken ones wrapping round the edges)."""
    rows = [[r * SIDE + c for c in range(SIDE)] for r in range(SIDE)]
    cols = [[r * SIDE + c for r in range(SIDE)] for c in range(SIDE)]
    shifts = range(SIDE) if pandiagonal else range(1)
    down = [[r * SIDE + (r + k) % SIDE for r in range(SIDE)] for k in shifts]
    up = [[r * SIDE + (SIDE - 1 - r + k) % SIDE for r in range(SIDE)] for k in shifts]
    return rows + cols + down + up


def parse_board(text: str) -> tuple[int, ...]:
    """A board written as 16 numbers (any of spaces, commas, slashes between); ValueError if it is
    not a permutation of 0..15."""
    board = tuple(int(x) for x in re.findall(r"-?\d+", text))
    if sorted(board) != list(range(CELLS)):
        raise ValueError(f"a board is the 16 numbers 0..15 in reading order, got {text!r}")
    return board


def format_board(board) -> str:
    return " / ".join(" ".join(str(int(v)) for v in board[r * SIDE:(r + 1) * SIDE]) for r in range(SIDE))


# -- the magic squares as a model ----------------------------------------------------------------

def _board_vars(m: LinearModel, prefix: str) -> list[int]:
    xs = [m.add_var(f"{prefix}{cell}", 0, CELLS - 1) for cell in range(CELLS)]
    m.alldiff.append(AllDifferent(xs))
    return xs


IMPLIED = ((0, 3, 12, 15), (5, 6, 9, 10), (1, 2, 13, 14), (4, 7, 8, 11))


def _magic_rows(m: LinearModel, xs: list[int], pandiagonal: bool, tag: str = "") -> None:
    """The line sums, plus four sums every 4x4 magic square has (redundant, but they halve CP-SAT's
    enumeration time). With corners C, centre Z and the other border cells E: the diagonals give
    C + Z = 60, the outer rows and columns 2C + E = 120, all cells C + E + Z = 120; so C = Z = 30,
    and the middle rows (columns) minus Z leave 30 on the side (top and bottom) middle cells."""
    for i, line in enumerate(lines(pandiagonal)):
        m.add_row([(xs[c], 1.0) for c in line], lo=MAGIC, hi=MAGIC, name=f"{tag}line{i}")
    for i, cells in enumerate(IMPLIED):
        m.add_row([(xs[c], 1.0) for c in cells], lo=MAGIC, hi=MAGIC, name=f"{tag}implied{i}")


def squares_model(pandiagonal: bool = False, up_to_symmetry: bool = False) -> LinearModel:
    """All 4x4 magic squares on 0..15 (7040; 384 pandiagonal). With `up_to_symmetry`, one square per
    orbit of the 8 symmetries of the square (880; 48 pandiagonal): entries are distinct, so every
    orbit has exactly one member whose top-left corner is the least corner and whose top-middle-left
    entry is less than its left-middle-top one (Frenicle's standard form)."""
    m = LinearModel(name="magic_squares_pandiagonal" if pandiagonal else "magic_squares")
    xs = _board_vars(m, "x")
    _magic_rows(m, xs, pandiagonal)
    if up_to_symmetry:
        for corner in (3, 12, 15):
            m.add_row([(xs[0], 1.0), (xs[corner], -1.0)], hi=-1, name=f"corner{corner}")
        m.add_row([(xs[1], 1.0), (xs[4], -1.0)], hi=-1, name="transpose")
    m.project = xs
    return m


# -- the bounded-horizon planning model ------------------------------------------------------------

EDGES = [(a, b) for a in range(CELLS) for b in neighbours(a)]     # the hole moves from a to b


def planning_model(start: tuple[int, ...] | None, horizon: int, pandiagonal: bool = False,
                   bounds: bool = True) -> LinearModel:
    """At most `horizon` moves from `start` (None: either sorted board) to a magic square, fewest
    moves first.

    Step t has a board x[t][cell] in 0..15 (all different), a one-hot hole position h[t][cell],
    and one choice: the hole moves along a directed edge, or stays (only after the last move, so
    that every plan has one encoding). A cell that holds the hole neither before nor after a step
    keeps its tile; the tile that slides takes the hole's old cell. Objective: number of moves.
    `bounds` adds the redundant taxicab and parity rows (see _move_count_bounds).
    """
    m = LinearModel(name=f"magic15_plan_h{horizon}", sense="min")
    x = [_board_vars(m, f"x{t}_") for t in range(horizon + 1)]
    hole = [[m.add_var(f"h{t}_{c}") for c in range(CELLS)] for t in range(horizon + 1)]
    for t in range(horizon + 1):
        m.add_row([(v, 1.0) for v in hole[t]], lo=1, hi=1, name=f"hole{t}")
        for c in range(CELLS):
            m.add_row([(x[t][c], 1.0), (hole[t][c], 1.0)], lo=1, name=f"nonzero{t}_{c}")
            m.add_indicator(hole[t][c], 1, [(x[t][c], 1.0)], hi=0, name=f"zero{t}_{c}")
    starts = [start] if start else [SORTED, SORTED_SWAPPED]
    for c in range(CELLS):     # the sorted boards differ in two cells; all-different does the rest
        values = [s[c] for s in starts]
        m.add_row([(x[0][c], 1.0)], lo=min(values), hi=max(values), name=f"start{c}")
    moved = []
    last: dict[tuple[int, int], int] = {}      # the previous step's move variables
    for t in range(horizon):
        move = {(a, b): m.add_var(f"m{t}_{a}_{b}") for a, b in EDGES}
        stay = [m.add_var(f"s{t}_{c}") for c in range(CELLS)]
        moved.append(list(move.values()))
        for c in range(CELLS):
            out = [(move[c, b], 1.0) for b in neighbours(c)]
            into = [(move[a, c], 1.0) for a in neighbours(c)]
            m.add_row(out + [(stay[c], 1.0), (hole[t][c], -1.0)], lo=0, hi=0, name=f"from{t}_{c}")
            m.add_row(into + [(stay[c], 1.0), (hole[t + 1][c], -1.0)], lo=0, hi=0, name=f"to{t}_{c}")
            keep = m.add_var(f"k{t}_{c}")
            m.add_row([(keep, 1.0), (hole[t][c], 1.0), (hole[t + 1][c], 1.0)], lo=1, name=f"keep{t}_{c}")
            m.add_indicator(keep, 1, [(x[t + 1][c], 1.0), (x[t][c], -1.0)], lo=0, hi=0)
        for a, b in EDGES:     # the tile at b slides into a
            m.add_indicator(move[a, b], 1, [(x[t + 1][a], 1.0), (x[t][b], -1.0)], lo=0, hi=0)
        if t > 0:              # no move after a stay, and no move straight back (never shorter)
            m.add_row([(v, 1.0) for v in moved[t - 1]] + [(v, -1.0) for v in moved[t]], lo=0,
                      name=f"stays_last{t}")
            for a, b in EDGES:
                m.add_row([(last[a, b], 1.0), (move[b, a], 1.0)], hi=1, name=f"no_undo{t}_{a}_{b}")
        last = move
    _magic_rows(m, x[horizon], pandiagonal, tag="end_")
    if bounds:
        _move_count_bounds(m, x[horizon], starts, [v for step in moved for v in step])
    m.objective = [(v, 1.0) for step in moved for v in step]
    m.project = x[horizon]
    return m


def _taxicab(a: int, b: int) -> int:
    return abs(a // SIDE - b // SIDE) + abs(a % SIDE - b % SIDE)


def _move_count_bounds(m: LinearModel, end: list[int], starts: list[tuple[int, ...]],
                       moves: list[int]) -> None:
    """Redundant rows that give the solvers a real lower bound: a move carries one tile one cell, so
    the moves number at least the tiles' total taxicab distance to their final cells, and they have
    the parity of the hole's own distance. The final board is spelt out one-hot for this."""
    at = [[m.add_var(f"end{c}_is_{v}") for v in range(CELLS)] for c in range(CELLS)]
    for c in range(CELLS):
        m.add_row([(at[c][v], 1.0) for v in range(CELLS)], lo=1, hi=1)
        m.add_row([(at[c][v], float(v)) for v in range(CELLS)] + [(end[c], -1.0)], lo=0, hi=0)
    for v in range(CELLS):
        m.add_row([(at[c][v], 1.0) for c in range(CELLS)], lo=1, hi=1)
    home = {v: [s.index(v) for s in starts] for v in range(CELLS)}
    travel = [(at[c][v], float(min(_taxicab(h, c) for h in home[v]))) for c in range(CELLS)
              for v in range(1, CELLS)]
    m.add_row([(u, 1.0) for u in moves] + [(u, -d) for u, d in travel if d], lo=0, name="taxicab")
    half = m.add_var("half_surplus", 0, len(moves))
    hole = [(at[c][0], -float(_taxicab(home[0][0], c))) for c in range(CELLS)]
    m.add_row([(u, 1.0) for u in moves] + [(u, d) for u, d in hole if d] + [(half, -2.0)], lo=0, hi=0,
              name="parity")


def decode_plan(horizon: int, values) -> list[int]:
    """The tiles moved, read off the boards of a planning-model solution (variables x come first)."""
    boards = [list(values[t * CELLS:(t + 1) * CELLS]) for t in range(horizon + 1)]
    moves = []
    for before, after in zip(boards, boards[1:]):
        if before != after:
            moves.append(before[after.index(0)])
    return moves


def build_squares(pandiagonal: bool = False, up_to_symmetry: bool = False) -> Built:
    return Built(squares_model(pandiagonal, up_to_symmetry),
                 lambda values: {"square": [int(round(v)) for v in values[:CELLS]]})


def build_plan(start: tuple[int, ...] | None, horizon: int, pandiagonal: bool = False) -> Built:
    def decode(values: Any) -> dict[str, Any]:
        values = [int(round(v)) for v in values]
        return {"start": values[:CELLS], "moves": decode_plan(horizon, values),
                "end": values[horizon * CELLS:(horizon + 1) * CELLS], "pandiagonal": pandiagonal}

    return Built(planning_model(start, horizon, pandiagonal), decode)
