"""Matchstick squares, OEIS A294249: the fewest matches forming squares of every size 1..n at once.

A solution is {"n", "margin", "matches": [["h"|"v", x, y], ...], "squares": [[size, x, y], ...]};
only "matches" counts (the checker finds the squares itself); "squares" just says which square of
each size the drawings label.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...drawing import figure
from ...models.core import Built
from ..base import BadInput, BenchCase, Formulation, Params, Picture, Puzzle, ShowcaseCase, option
from .check import check as check_squares
from .check import find_squares, parse_matches
from .model import FORMULATIONS, build

BOX = {  # (up, down, left, right) -> the junction drawn at a point
    (0, 0, 0, 0): " ", (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘", (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴", (1, 1, 1, 1): "┼", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


SEARCH = "workbench.puzzles.squares.search"
METHODS, EXACT = ("exact", "heuristic"), ("exact",)      # the formulations an option applies to


@dataclass(frozen=True)
class SquaresParams(Params):
    margin: int = option(0, "let squares stray up to M matches outside the largest one "
                            "(tests the assumption that they never need to)")
    all: bool = option(False, "exact search: count every optimal solution (Chaffin's convention)", applies=EXACT)
    diagonal_above: int = option(20, "native search: the diagonal heuristic's largest size threshold",
                                 applies=METHODS)
    bound: int = option(0, "native exact search: search for boards of fewer than B matches instead of starting "
                           "from the heuristics' bound (0: the heuristics); B is part of the journal's key",
                        applies=EXACT)
    pooled: int | None = option(None, "native exact search: sizes whose placements are pooled to cut a board's "
                                      "children before they are laid (0: off; default 1 up to n = 33, 3 above; "
                                      "its figures: docs/squares.md)", parse=int, applies=EXACT)

    def validate(self) -> None:
        if self.margin < 0:
            raise BadInput(f"squares: --margin must be >= 0, got {self.margin}")
        if self.bound < 0:
            raise BadInput(f"squares: --bound must be >= 0, got {self.bound}")
        if self.pooled is not None and not 0 <= self.pooled <= 8:
            raise BadInput(f"squares: --pooled must be 0..8, got {self.pooled}")


def labelled_squares(n: int, solution: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """One square per size to label: the solution's own choice when the matches really form it."""
    found = find_squares(parse_matches(solution["matches"]))
    chosen = {s: c[0] for s, c in found.items() if s <= n}
    for s, x, y in solution.get("squares", []):
        if (x, y) in found.get(s, []):
            chosen[s] = (x, y)
    return chosen


class SquaresPuzzle(Puzzle[SquaresParams]):
    name = "squares"
    title = "Matchstick squares: all squares 1x1..nxn with the fewest matches (OEIS A294249)"
    sense, n_min, n_max = "min", 1, 63
    formulations = (*(Formulation(k, v, ("maxsat",) if k == "maxsat" else ()) for k, v in FORMULATIONS.items()),
                    Formulation("exact", "heuristics for a bound, then the exact search (--all: counting the "
                                         "optimal solutions)", search=f"{SEARCH}:solve", warm_up=f"{SEARCH}:warm_up",
                                tasks=True),
                    Formulation("heuristic", "the heuristics only, given the whole time (they run in one worker)",
                                search=f"{SEARCH}:heuristic", warm_up=f"{SEARCH}:warm_up"))
    checker = staticmethod(check_squares)
    Params = SquaresParams
    default_solver = "search"     # proves a(27) in 10 min; the best model backend (maxsat) a(11)

    def validate(self, n: int | None, params: SquaresParams | None = None) -> None:
        super().validate(n, params)
        if n is not None and params is not None and n + 2 * params.margin > 63:
            raise BadInput("squares: n + 2*margin must be at most 63")

    def variant(self, params: SquaresParams, formulation: str = "") -> str:
        """Rows with a margin, counts or heuristics only go to tables of their own."""
        return self.name + (f"-margin{params.margin}" if params.margin else "") + \
            ("-all" if params.all else "") + ("-heuristic" if formulation == "heuristic" else "")

    def generate(self, n: int | None, formulation: str, params: SquaresParams) -> Built:
        assert n is not None
        return build(n, params.margin, formulation)


    def render(self, n: int | None, solution: Any, params: SquaresParams) -> str:
        """Chaffin's style: one text line per row of points, '.' where a horizontal match could be,
        box-drawing junctions, and each labelled square's size written at its top-left corner."""
        assert n is not None
        ms = set(parse_matches(solution["matches"]))
        if not ms:
            return ""
        xs = [x for _, x, _ in ms] + [x + (k == "h") for k, x, _ in ms]
        ys = [y for _, _, y in ms] + [y + (k == "v") for k, _, y in ms]
        x0, y0 = min(xs), min(ys)
        width, height = max(xs) - x0, max(ys) - y0
        lines = []
        for y in range(y0, y0 + height + 1):
            row = []
            for x in range(x0, x0 + width + 1):
                key = (int(("v", x, y - 1) in ms), int(("v", x, y) in ms),
                       int(("h", x - 1, y) in ms), int(("h", x, y) in ms))
                row.append(BOX[key])
                if x < x0 + width:
                    row.append("─" if ("h", x, y) in ms else ".")
            lines.append(row)
        taken: set[tuple[int, int]] = set()      # (line, column) cells already holding a label
        for s, (x, y) in sorted(labelled_squares(n, solution).items(), reverse=True):
            text = str(s)
            # the first corner (top-left, top-right, bottom-left, bottom-right) with room for it
            for cx, cy, right in ((x, y, 0), (x + s, y, 1), (x, y + s, 0), (x + s, y + s, 1)):
                col = 2 * (cx - x0) - right * (len(text) - 1)
                cells = {(cy - y0, col + i) for i in range(len(text))}
                if col >= 0 and col + len(text) <= 2 * width + 1 and not cells & taken:
                    taken |= cells | {(cy - y0, col - 1), (cy - y0, col + len(text))}  # keep apart
                    lines[cy - y0][col:col + len(text)] = list(text)
                    break
        return "\n".join("".join(r) for r in lines) + f"\n{len(ms)} matchsticks"

    def png(self, n: int | None, solution: Any, path: str, params: SquaresParams) -> None:
        assert n is not None
        ms = parse_matches(solution["matches"])
        side = max([x + 1 for _, x, _ in ms] + [y + 1 for _, _, y in ms] + [n])
        with figure(path, (min(12, 2 + side * 0.25),) * 2) as (ax,):
            for kind, x, y in ms:
                dx, dy = (1, 0) if kind == "h" else (0, 1)
                ax.plot([x, x + dx], [y, y + dy], color="#8b4513", lw=2.5, solid_capstyle="butt")
            used: set[tuple[int, int]] = set()
            for s, (x, y) in sorted(labelled_squares(n, solution).items(), reverse=True):
                # the first corner no larger square's label took, the text set inside the square
                corners = [(x, y, 1, 1), (x + s, y, -1, 1), (x, y + s, 1, -1), (x + s, y + s, -1, -1)]
                cx, cy, dx, dy = next((c for c in corners if c[:2] not in used), corners[0])
                used.add((cx, cy))
                ax.text(cx + 0.12 * dx, cy + 0.12 * dy, str(s), fontsize=7, color="#1f4e9c",
                        ha="left" if dx > 0 else "right", va="top" if dy > 0 else "bottom")
            ax.invert_yaxis()
            ax.set_title(f"squares n={n}: {len(ms)} matches")

    def showcase_cases(self) -> list[ShowcaseCase]:
        """The native search to 20 (a few seconds a row; the ladder to 46 is a bench case)."""
        return [ShowcaseCase(self.name, "1..20", "search")]

    def pictures(self) -> list[Picture]:
        """The record boards of the heuristic sweep."""
        return [Picture(f"squares-{n}.png", "squares-heuristic", n, formulation="heuristic") for n in (54, 56)]

    def bench_cases(self) -> list[BenchCase]:
        """Model backends and the native search climb n until a run is not proven; the heuristic
        sweep covers the whole published range."""
        cases = [BenchCase(self.name, 1, solver, 60.0, formulation="strong", ladder=True, n_stop=20,
                           label=f"{solver} ladder, 60 s") for solver in ("highs", "cpsat", "cbc")]
        cases.append(BenchCase(self.name, 1, "maxsat", 60.0, formulation="maxsat", ladder=True,
                               n_stop=20, label="maxsat ladder, 60 s"))
        cases.append(BenchCase(self.name, 10, "maxsat", 600.0, formulation="maxsat", ladder=True,
                               n_stop=20, label="maxsat ladder, 10 min"))
        cases.append(BenchCase(self.name, 1, "search", 600.0, ladder=True, n_stop=46,
                               label="native exact search ladder, 10 min"))
        cases.append(BenchCase(self.name, 1, "search", 60.0, params={"all": True}, ladder=True,
                               n_stop=30, label="native search, counting optimal solutions"))
        cases += [BenchCase(self.name, 1, "search", 60.0, params={"margin": m}, ladder=True, n_stop=30,
                            label=f"native search with --margin {m}") for m in (1, 2)]
        cases += [BenchCase(self.name, n, "search", 600.0, label="native exact search, whole run")
                  for n in (20, 22, 24, 26, 28, 30)]     # heuristics + exact search, docs/squares.md
        cases += [BenchCase(self.name, n, "search", 3600.0, label="scale-out: exact search, whole run")
                  for n in (26, *range(28, 36))]
        cases += [BenchCase(self.name, n, "search", 7200.0, params={"pooled": k},
                            label=f"native exact search, pooled {k}")
                  for n in (24, 26, 28, 29, 30, 31, 34, 35) for k in (0, 1, 3)]     # the pooled test off and on
        cases += [BenchCase(self.name, n, "search", 600.0, params={"pooled": k},
                            label=f"native exact search, positions/s, pooled {k}")
                  for n in (26, 28) for k in (0, 1, 3)]     # bench warns when a position gets 10% slower
        cases += [BenchCase(self.name, n, "search", 300.0, formulation="heuristic",
                            label="heuristic sweep") for n in range(1, 64)]
        return cases


PUZZLE = SquaresPuzzle()
