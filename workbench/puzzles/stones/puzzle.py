"""Stepping stones, OEIS A337663: the largest number n ones let you place by the sum rule.

A solution is a list of [row, col, value] triples (the ones and the numbers 2..M). The model
backends answer "how far can n ones go inside a box x box square" (see model.py); the native
search is exhaustive (box-free) for n <= 5 and a record hunt from n = 6 on.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...drawing import figure
from ...models.core import Built
from ..base import BadInput, BenchCase, Formulation, Params, Picture, Puzzle, ShowcaseCase, option
from .check import check as check_board
from .check import draw, parse_board
from .model import FORMULATIONS, build

WARM_UP = "workbench.puzzles.stones.search:warm_up"   # compiles the exact search and the record hunt
ONES_FILTERS = ("near", "wide", "off")   # the record hunt's placement filters for new ones (hunt/beam.py)
DEFAULT_BOX = {1: 3, 2: 7, 3: 9, 4: 11}   # odd: the 2 sits at the centre (radius box // 2)
MODELS, EXACT, HUNT = tuple(FORMULATIONS), ("exact",), ("hunt",)   # the formulations an option applies to


def _box(n: int, params: StonesParams) -> int:
    return params.box or DEFAULT_BOX.get(n, 2 * n + 3)


def _top(n: int, params: StonesParams) -> int:
    """Values in the model: --top, else a generous cap (12 n + 6 is above every known record)."""
    return params.top or 12 * n + 6


@dataclass(frozen=True)
class StonesParams(Params):
    box: int | None = option(None, "model backends: side of the square box the board must fit in", int,
                             applies=MODELS)
    top: int | None = option(None, "model backends: largest value in the model (reach: the target)", int,
                             applies=MODELS)
    hint: str | None = option(None, "model backends: a start board, a JSON file holding [[row, col, value], ...] "
                                    "(or a `solve --json` record)", applies=MODELS)
    cut: int | None = option(None, "exact search: the depth at which it splits into tasks", int, applies=EXACT)
    target: int | None = option(None, "exact search: search to the end only boards that can still reach TARGET "
                                      "(a best >= TARGET is a(n), proven; none found proves a(n) < TARGET); "
                                      "from a board of value L, TARGET = L proves a(n) with a board", int,
                                applies=EXACT)
    all: bool = option(False, "exact search: count the optimal boards up to symmetry (with --target a(n): "
                              "each board that places it, every one checked)", applies=EXACT)
    width: int = option(200000, "record hunt: the largest beam width (fresh runs double from 10^4 up to it)",
                        applies=HUNT)
    lookahead: int = option(300, "record hunt: the first lookahead beam's width (later ones double, to 8 times it); "
                                 "they get half the worker time; 0: counting beams only", int, applies=HUNT)
    sweep: float | None = option(None, "record hunt: the share of the worker time for a class sweep (boards "
                                      "with n - 3 ones ranked by exact lookaheads, the best finished by lookahead "
                                      "beams; n >= 6); default 0.9 for n = 6, else 0", float, applies=HUNT)
    filter: str = option("near", "record hunt: where new ones may go: near (not within the 5 x 5 square of a one, "
                                 "corners excepted; default), wide (the record method's 7 x 7 blob and row and column "
                                 "to 11) or off", applies=HUNT)
    nmax: int | None = option(None, "record hunt: the most ones its beams track (default n); every count up to it "
                                    "gets its best board stored, so that one run serves a table", int, applies=HUNT)
    resume: bool = option(False, "record hunt: start from the best boards earlier hunts stored "
                                 "(runs/journals/hunts/stones.json)", applies=HUNT)

    def validate(self) -> None:
        if self.box is not None and not 2 <= self.box <= 40:
            raise BadInput("stones: --box must be between 2 and 40")
        if self.top is not None and not 2 <= self.top <= 400:
            raise BadInput("stones: --top must be between 2 and 400")
        if self.target is not None and not 2 <= self.target <= 400:
            raise BadInput("stones: --target must be between 2 and 400")
        if self.all and self.target is None:
            raise BadInput("stones: --all counts the boards that reach --target: give it (a(n))")
        if not 100 <= self.width <= 10_000_000:
            raise BadInput("stones: --width must be between 100 and 10000000")
        if self.lookahead != 0 and not 10 <= self.lookahead <= 100_000:
            raise BadInput("stones: --lookahead must be 0 or between 10 and 100000")
        if self.sweep is not None and not 0 <= self.sweep < 1:
            raise BadInput("stones: --sweep must be at least 0 and below 1")
        if self.filter not in ONES_FILTERS:
            raise BadInput(f"stones: --filter must be one of {', '.join(ONES_FILTERS)}")

    def hint_board(self) -> list[list[int]] | None:
        if self.hint is None:
            return None
        try:
            data = json.loads(Path(self.hint).read_text())
        except (OSError, ValueError) as e:
            raise BadInput(f"stones: --hint {self.hint}: {e}") from None
        return data["solution"] if isinstance(data, dict) and "solution" in data else data


class StonesPuzzle(Puzzle[StonesParams]):
    name = "stones"
    title = "Stepping stones: the largest number placed from n ones by the 8-neighbour sum rule (A337663)"
    sense = "max"
    n_min = 1
    n_max = 40
    formulations = (*(Formulation(k, v, ("cpsat",) if k == "position" else ()) for k, v in FORMULATIONS.items()),
                    Formulation("exact", "exhaustive search, box-free: the proof is the complete enumeration "
                                         "(the default for n <= 5; n <= 8)",
                                search="workbench.puzzles.stones.search:solve", warm_up=WARM_UP, tasks=True),
                    Formulation("hunt", "record hunt: beam searches with lookaheads (the default for n >= 6)",
                                search="workbench.puzzles.stones.hunt.run:solve", warm_up=WARM_UP, tasks=True))
    checker = staticmethod(check_board)
    Params = StonesParams
    default_solver = "search"          # box-free, and the only backend that proves a(4) and beyond

    def validate(self, n: int | None, params: StonesParams | None = None) -> None:
        super().validate(n, params)
        assert n is not None
        if params is not None and params.nmax is not None and not n <= params.nmax <= 40:
            raise BadInput(f"stones: --nmax must be between n ({n}) and 40")

    def default_method(self, n: int | None, params: StonesParams) -> str:
        """Exhaustive for n <= 5, the record hunt from n = 6 on."""
        assert n is not None
        return "exact" if n <= 5 else "hunt"

    def validate_run(self, n: int | None, params: StonesParams, formulation: str) -> None:
        super().validate_run(n, params, formulation)
        if formulation == "exact" and n is not None and n > 8:
            raise BadInput("stones: the exact search handles n <= 8 (at most two groups of stones)")

    def published_series(self, params: StonesParams, formulation: str = "") -> str:
        """a(n) is box-free and uncapped: a boxed or capped run answers a narrower question, and is
        compared with no published value (its key has no data file)."""
        narrower = params.box or params.top or formulation in ("max", "reach")
        return self.variant(params, formulation) if narrower else self.name

    def variant(self, params: StonesParams, formulation: str = "") -> str:
        """Runs confined to a box (the cell-value models always, the position model with --box) and runs
        with values capped by --top get tables of their own: their optima answer a narrower question
        than a(n). (A hunt's rows stand beside the exact search's, told apart by the formulation.)"""
        boxed = params.box or formulation in ("max", "reach")
        return self.name + (f"-box{params.box or ''}" if boxed else "") + (f"-top{params.top}" if params.top else "")

    def generate(self, n: int | None, formulation: str, params: StonesParams) -> Built:
        assert n is not None
        if formulation not in FORMULATIONS:
            raise BadInput(f"stones: unknown formulation {formulation!r} (known: {', '.join(FORMULATIONS)})")
        if formulation == "position" and params.box is None and n > 4:
            raise BadInput("stones: the position model is box-free only for n <= 4; give --box for larger n")
        radius = _box(n, params) // 2 if params.box else None
        return build(n, formulation, _box(n, params), _top(n, params), radius, params.hint_board())


    def render(self, n: int | None, solution: Any, params: StonesParams) -> str:
        return draw(solution)

    def png(self, n: int | None, solution: Any, path: str, params: StonesParams) -> None:
        from matplotlib.patches import Rectangle

        cells = parse_board(solution)
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        rows = max(r for r, _ in cells) - r0 + 1
        cols = max(c for _, c in cells) - c0 + 1
        with figure(path, (min(14, 1 + cols * 0.45), min(14, 1 + rows * 0.45))) as (ax,):
            for (r, c), v in cells.items():
                ax.add_patch(Rectangle((c - c0, r - r0), 1, 1, facecolor="#f4c542" if v == 1 else "#dde7f5",
                                       edgecolor="#555555", lw=0.6))
                ax.text(c - c0 + 0.5, r - r0 + 0.5, str(v), ha="center", va="center", fontsize=8,
                        fontweight="bold" if v == 1 else "normal")
            ax.set_xlim(0, cols)
            ax.set_ylim(rows, 0)
            ax.set_title(f"stepping stones n={n}: largest number {max(cells.values())}")

    def showcase_cases(self) -> list[ShowcaseCase]:
        """The native search and the box-free position model by CP-SAT, each in seconds; their
        proofs that take minutes (a(4) natively, a(3) by CP-SAT) are bench cases."""
        return [ShowcaseCase(self.name, "1..3"), ShowcaseCase(self.name, "1..2", "cpsat")]

    def pictures(self) -> list[Picture]:
        return [Picture("stones-5.png", "stones", 5)]

    def bench_cases(self) -> list[BenchCase]:
        """The exact search ladder (a(5) is the hour-long case), the box-free position model, the CP
        boxes, and the record hunt."""
        cases = [BenchCase(self.name, 1, "search", 3600.0, ladder=True, n_stop=5,
                           label="native exact search ladder (a(5) < 1 h is the goal)")]
        cases += [BenchCase(self.name, n, "search", 3600.0, label=f"scale-out: exact search a({n})") for n in (4, 5)]
        cases += [BenchCase(self.name, n, "search", 3600.0, params=params,
                            label=f"exact search, target prune {'on' if params else 'off'}")
                  for n, target in ((4, 39), (5, 50)) for params in ({}, {"target": target})]
        cases += [BenchCase(self.name, n, "search", 3600.0, params={"target": best, "all": True},
                            label="exact search, a(n) proven with its optimal boards counted (--all)")
                  for n, best in ((4, 38), (5, 49))]
        cases += [BenchCase(self.name, n, "cpsat", 600.0, formulation="position",
                            label="cpsat, position model (box-free for n <= 4)") for n in (2, 3, 4)]
        cases += [BenchCase(self.name, n, solver, 300.0, params={"box": DEFAULT_BOX[n]}, formulation="max",
                            label=f"{solver}, box {DEFAULT_BOX[n]}") for n in (2, 3)
                  for solver in ("cpsat", "minizinc:gecode", "highs", "cbc")]
        cases += [BenchCase(self.name, 5, "search", 600.0, formulation="hunt",
                            label="record hunt from the empty board: a(5) = 49 within 10 min (published, proven)"),
                  BenchCase(self.name, 6, "search", 1800.0,
                            label="record hunt, one 30-min run for n = 6 (most of it the class sweep)"),
                  BenchCase(self.name, 6, "search", 1800.0, params={"nmax": 8, "sweep": 0},
                            label="record hunt, one 30-min run for n = 6..8 (7 and 8 in the hunt's store)"),
                  BenchCase(self.name, 9, "search", 7200.0, params={"nmax": 12},
                            label="record hunt, one 2-hour run for n = 9..12 (10..12 in the hunt's store)")]
        return cases
