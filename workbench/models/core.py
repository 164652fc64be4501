"""Solver-neutral model kinds.

Every puzzle generator produces one of these; every backend consumes one (or converts it).
They are plain dataclasses so that they pickle cheaply into the solver's worker process.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Sense = Literal["min", "max"]


@dataclass
class HittingSet:
    """Choose a cheapest set of elements meeting every set: the matchstick-removal puzzles."""

    n_elements: int
    sets: list[tuple[int, ...]]
    weights: list[int] | None = None
    names: list[str] | None = None          # element names, for readable exports
    name: str = "hitting_set"
    symmetries: list[list[int]] | None = None   # element permutations keeping the sets and weights
    # implied rows "at least k of these elements are chosen", true of every hitting set (so of every
    # optimum): the puzzle proves them (e.g. trigrid/subgrid.py); backends may use them to prune
    at_least: list[tuple[tuple[int, ...], int]] = field(default_factory=list)

    def weight(self, e: int) -> int:
        return 1 if self.weights is None else self.weights[e]


@dataclass
class Var:
    """A column; a user's model file may give a continuous one, fractional or infinite bounds
    (math.inf): the generators' own are integers with finite bounds."""

    name: str
    lb: float = 0
    ub: float = 1
    integer: bool = True

    @property
    def binary(self) -> bool:
        return self.integer and (self.lb, self.ub) == (0, 1)

    @property
    def bounded(self) -> bool:
        return math.isfinite(self.lb) and math.isfinite(self.ub)


INTEGRALITY = 1e-6     # a solver's value this close to an integer is that integer


def settle(var: Var, x: float) -> float:
    """A backend's value for `var` as the model means it: an integer column's value within
    INTEGRALITY of an integer is that integer; anything else (a continuous value, or an integer
    column's value that is not integral, which the check then rejects) is kept as it came."""
    if var.integer and abs(x - round(x)) <= INTEGRALITY:
        return int(round(x))
    return x


def settled(model: LinearModel, xs: Sequence[float]) -> list[float]:
    """The first len(xs) variables' values, each settled (a MIP backend's answer)."""
    return [settle(v, float(x)) for v, x in zip(model.vars, xs)]


@dataclass
class Row:
    """lo <= sum(coef * x[var]) <= hi; either side may be None (unbounded)."""

    terms: list[tuple[int, float]]
    lo: float | None = None
    hi: float | None = None
    name: str = ""


@dataclass
class Indicator:
    """x[var] == value implies row holds (half-reified; backends without indicators use big-M)."""

    var: int
    value: int
    row: Row


@dataclass
class AllDifferent:
    """Global constraint: the listed integer variables take pairwise different values."""

    vars: list[int]


@dataclass
class LinearModel:
    """A 0-1/integer linear model with indicator rows and optional all-different groups."""

    vars: list[Var] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    indicators: list[Indicator] = field(default_factory=list)
    alldiff: list[AllDifferent] = field(default_factory=list)
    objective: list[tuple[int, float]] = field(default_factory=list)
    sense: Sense = "min"
    constant: float = 0.0
    hints: dict[int, int] = field(default_factory=dict)   # a starting solution, where a backend takes one
    project: list[int] | None = None                      # variables that identify a solution when counting
    search_order: list[int] | None = None                 # CP backends decide these first, largest value first
    neighbourhoods: bool = False    # CP backends without a relaxation search by large neighbourhoods (usermodel.py)
    name: str = "model"

    def add_var(self, name: str, lb: float = 0, ub: float = 1, integer: bool = True) -> int:
        self.vars.append(Var(name, lb, ub, integer))
        return len(self.vars) - 1

    def add_row(self, terms: Sequence[tuple[int, float]], lo: float | None = None,
                hi: float | None = None, name: str = "") -> Row:
        row = Row(list(terms), lo, hi, name)
        self.rows.append(row)
        return row

    def add_indicator(self, var: int, value: int, terms: Sequence[tuple[int, float]],
                      lo: float | None = None, hi: float | None = None, name: str = "") -> None:
        self.indicators.append(Indicator(var, value, Row(list(terms), lo, hi, name)))

    @property
    def is_maximise(self) -> bool:
        return self.sense == "max"


@dataclass
class MaxSatModel:
    """Weighted partial MaxSAT: hard clauses must hold; the weight of violated soft clauses is minimised.

    Literals are DIMACS style: variable v (1-based) is +v or -v. `decode_vars` says how many leading
    variables are the model's own (the rest are auxiliaries of encodings).
    """

    n_vars: int
    hard: list[list[int]] = field(default_factory=list)
    soft: list[tuple[list[int], float]] = field(default_factory=list)   # a user's WCNF may weigh 1.5
    decode_vars: int = 0
    offset: float = 0                     # objective = offset + cost of violated soft clauses
    sense: Sense = "min"                  # for "max" the reported objective is -(offset + cost)
    name: str = "maxsat"

    def objective_reach(self) -> int | float:
        """The largest cost an assignment can have, exact for integer weights (a user's WCNF may
        weigh 2^60): a backend whose arithmetic is narrower refuses the model (solvers.base.refuse_past)."""
        return abs(self.offset) + sum(abs(w) for _, w in self.soft)


@dataclass
class NativeTask:
    """What the native search backend runs instead of a model: the puzzle's own search function,
    called as function(n, params, options, report)."""

    entry: str                      # "module:function"
    n: int | None
    params: Any = None              # the puzzle's typed Params
    sense: Sense = "min"
    warm_up: str | None = None      # "module:function" that compiles the search, before the clock


Model = HittingSet | LinearModel | MaxSatModel | NativeTask


@dataclass(frozen=True)
class Optimise:
    """The question of a run: the best value of the model's objective, proven where the backend can."""


@dataclass(frozen=True)
class Count:
    """The question of a run: how many solutions there are (the model's projection tells them apart),
    with `show` of them kept as examples, each of which the checker sees."""

    show: int = 0


Question = Optimise | Count
OPTIMISE = Optimise()


@dataclass
class Options:
    """A run's settings, the same for every backend and every native search (not the question)."""

    time_limit: float | None = 60.0
    threads: int = 2
    seed: int = 0
    verbose: bool = False
    cluster: str | None = None              # native searches: local:K, tcp://HOST:PORT or a scheduler file
    fresh: bool = False                     # native searches: forget the journal of an interrupted run
    quiet: bool = False                     # native searches: no progress on stderr
    # --option BACKEND:NAME=VALUE, typed and checked (solvers/tuning.py): backend name -> its own options
    backend_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def own(self, backend: str) -> dict[str, Any]:
        """The options passed through to this backend (its base name): applied after the workbench's
        own settings, so that they win."""
        return self.backend_options.get(backend, {})

    def remaining(self, since: float) -> float:
        """The solver's own limit: what is left after the model building done since `since`
        (a perf_counter time), so that a run ends near the limit, not past the runner's deadline."""
        if self.time_limit is None:
            return float("inf")
        return max(0.1, self.time_limit - (time.perf_counter() - since))


@dataclass(frozen=True)
class Built:
    """A generator's answer: the model, and how a backend's values for it read as the puzzle's own
    solution (so that nothing downstream has to recognise a model by its name)."""

    model: Model
    decode: Callable[[Any], Any]


def greedy_hitting_set(hs: HittingSet) -> list[int]:
    """A quick valid upper bound, reported before the exact search starts."""
    chosen: set[int] = set()
    open_sets = [set(s) for s in hs.sets]
    while open_sets:
        score: dict[int, float] = {}
        for s in open_sets:
            for e in s:
                score[e] = score.get(e, 0.0) + 1.0 / hs.weight(e)
        best = max(score, key=lambda e: (score[e], -e))
        chosen.add(best)
        open_sets = [s for s in open_sets if best not in s]
    return sorted(chosen)


def hitting_set_to_linear(hs: HittingSet) -> LinearModel:
    m = LinearModel(name=hs.name)
    for e in range(hs.n_elements):
        m.add_var(hs.names[e] if hs.names else f"x{e}")
    for i, s in enumerate(hs.sets):
        m.add_row([(e, 1.0) for e in s], lo=1, name=f"hit{i}")
    for i, (s, least) in enumerate(hs.at_least):
        m.add_row([(e, 1.0) for e in s], lo=least, name=f"implied{i}")
    m.objective = [(e, float(hs.weight(e))) for e in range(hs.n_elements)]
    return m


def hitting_set_to_maxsat(hs: HittingSet) -> MaxSatModel:
    """One hard clause per set, one soft unit per element; the implied rows `hs.at_least` as hard
    cardinality clauses (python-sat's k-minimal totalizer): they keep every solution, and RC2's SAT
    calls can use them to refute a cost early (docs/notes/trigrid.md, section 8)."""
    hard = [[e + 1 for e in s] for s in hs.sets]
    top = hs.n_elements
    if hs.at_least:
        from pysat.card import CardEnc, EncType

        for elements, least in hs.at_least:
            cnf = CardEnc.atleast([e + 1 for e in elements], bound=least, top_id=top, encoding=EncType.kmtotalizer)
            hard += cnf.clauses
            top = max(top, cnf.nv)
    return MaxSatModel(
        n_vars=top,
        hard=hard,
        soft=[([-(e + 1)], hs.weight(e)) for e in range(hs.n_elements)],
        decode_vars=hs.n_elements,
        name=hs.name,
    )


def lex_leader(hs: HittingSet, reverse: bool = False) -> MaxSatModel:
    """The hitting set plus, for each of its symmetries g (`hs.symmetries`), the clauses of
    x <=lex g(x) (element 0 first; with `reverse`, the last element first: another representative
    of each orbit, so a second computation that breaks the symmetry differently).

    Valid (Crawford et al. 1996): g maps every set to a set and keeps the weights (each puzzle tests
    its symmetries), so g maps hitting sets to hitting sets of the same cost; the lexicographically
    smallest member of an optimal solution's orbit is optimal and satisfies x <=lex g(x) for
    every g, so the optimum does not change.
    Encoding: e_i says "the first i positions are equal" (e_0 true); e_i forces x_i <= y_i
    and, where x_i = y_i, e_{i+1}. Every lex-smaller-or-equal x extends (e_i true exactly on the
    equal prefix), and every model satisfies the lex constraint.
    """
    ms = hitting_set_to_maxsat(hs)
    top = ms.n_vars
    for perm in hs.symmetries or []:
        inverse = [0] * len(perm)
        for e, image in enumerate(perm):
            inverse[image] = e
        equal: int | None = None       # e_i as a variable; None: true (the empty prefix)
        for i in reversed(range(hs.n_elements)) if reverse else range(hs.n_elements):
            x, y = i + 1, inverse[i] + 1   # y_i = g(x)_i = x[g^-1(i)]
            if x == y:
                continue
            guard: list[int] = [] if equal is None else [-equal]
            ms.hard.append(guard + [-x, y])
            top += 1
            ms.hard += [guard + [x, y, top], guard + [-x, -y, top]]
            equal = top
    ms.n_vars = top
    return ms


def maxsat_to_linear(ms: MaxSatModel) -> LinearModel:
    """Clauses become covering rows; each soft clause gets a relaxation variable that pays its weight."""
    m = LinearModel(name=ms.name, sense="min", constant=ms.offset)   # integer weights stay exact ints
    for v in range(ms.n_vars):
        m.add_var(f"b{v + 1}")

    def clause_row(lits: list[int], extra: list[tuple[int, float]]) -> None:
        negatives = sum(1 for lit in lits if lit < 0)
        terms = [(abs(lit) - 1, 1.0 if lit > 0 else -1.0) for lit in lits] + extra
        m.add_row(terms, lo=1 - negatives)

    for clause in ms.hard:
        clause_row(clause, [])
    for i, (clause, weight) in enumerate(ms.soft):
        relax = m.add_var(f"r{i}")
        clause_row(clause, [(relax, 1.0)])
        m.objective.append((relax, weight))
    if ms.sense == "max":   # objective = -(offset + cost): maximise the negation
        m.sense, m.constant = "max", -m.constant
        m.objective = [(v, -c) for v, c in m.objective]
    return m


def as_linear(model: Model) -> LinearModel:
    if isinstance(model, LinearModel):
        return model
    if isinstance(model, HittingSet):
        return hitting_set_to_linear(model)
    if isinstance(model, MaxSatModel):
        return maxsat_to_linear(model)
    raise TypeError(f"cannot express {type(model).__name__} as a linear model")
