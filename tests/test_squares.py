"""Matchstick squares: checker verdicts, native search vs published values and counts, backends agree."""
from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import published_values

from workbench.models.core import OPTIMISE
from workbench.puzzles.squares.beam import beam
from workbench.puzzles.squares.check import find_squares
from workbench.puzzles.squares.dfs import Placements, search
from workbench.puzzles.squares.heuristics import ladder, polish, upper_bound
from workbench.puzzles.squares.model import Grid, Placement, square_matches
from workbench.puzzles.squares.puzzle import PUZZLE
from workbench.puzzles.squares.search import solution_json, warm_up
from workbench.puzzles.squares.search import solve as native_solve
from workbench.search.deadline import Deadline
from workbench.solvers.base import Options, Status
from workbench.solvers.search import result

PUBLISHED = published_values("squares")
CHAFFIN_COUNTS = [1, 1, 1, 1, 3, 14, 1, 44, 3, 6, 2, 52, 2, 6, 2, 4, 9, 4, 8, 7]   # n = 1..20, his table


def native(n: int, heuristics_only: bool = False, **params):
    """No time limit, and the search compiled first: a cold numba compile on a loaded machine would
    otherwise eat the heuristics' 60 s (their cap before an exact search) and leave no bound."""
    warm_up()
    return result(native_solve(n, PUZZLE.params(params), Options(time_limit=None), lambda inc: None,
                               heuristics_only=heuristics_only), OPTIMISE)


@pytest.fixture(scope="module")
def n8():
    r = native(8)
    assert r.status == Status.OPTIMAL
    return r.solution


def test_checker_finds_squares_by_itself():
    ms = set(square_matches(3, 0, 0) + square_matches(2, 0, 0) + [("h", 2, 1)])  # the seed's n=3
    assert len(ms) == 17
    assert find_squares(ms) == {1: [(2, 0)], 2: [(0, 0)], 3: [(0, 0)]}
    ms |= set(square_matches(2, 1, 1))
    assert find_squares(ms)[1] == [(0, 2), (1, 1), (2, 0)]


def test_checker_rejects_corrupted_solutions(n8):
    assert PUZZLE.check(8, n8, {}).ok and PUZZLE.check(8, n8, {}).objective == PUBLISHED[8]
    for i in range(len(n8["matches"])):       # every single missing match spoils some size
        broken = dict(n8, matches=n8["matches"][:i] + n8["matches"][i + 1:])
        assert not PUZZLE.check(8, broken, {}).ok
    assert not PUZZLE.check(8, dict(n8, matches=n8["matches"] + n8["matches"][:1]), {}).ok
    assert not PUZZLE.check(8, dict(n8, matches=[["d", 0, 0]]), {}).ok
    assert not PUZZLE.check(9, n8, {}).ok


def test_native_search_proves_published_values():
    for n in range(1, 17):
        r = native(n)
        assert r.status == Status.OPTIMAL and r.objective == PUBLISHED[n], n
        assert PUZZLE.check(n, r.solution, {}).objective == PUBLISHED[n]


def test_heuristics_whose_share_ran_out_go_on_into_the_rest_of_the_limit(monkeypatch, published):
    """A cold compile under load can eat the heuristics' share (20%, at most 60 s): the search must
    then still find a bound and prove the optimum, not stop with nothing. The share is made to
    end at once, as the slow compile would."""
    from workbench.search.deadline import Deadline as Clock

    monkeypatch.setattr(Clock, "within", lambda self, seconds: Clock(0.0, self.start))   # passed already
    r = native(8)
    assert r.status == Status.OPTIMAL and r.objective == published("squares")[8]


def test_native_counts_match_chaffin():
    counts = [native(n, all=True).count for n in range(1, 21)]
    assert counts == CHAFFIN_COUNTS


def test_heuristic_is_feasible_and_not_below_the_optimum():
    r = native(20, heuristics_only=True)
    assert r.status == Status.FEASIBLE and r.objective >= PUBLISHED[20]
    assert PUZZLE.check(20, r.solution, {}).ok


def test_hasty_heuristics_still_reach_the_optimum_and_report_positions():
    """Before an exact search the heuristics stop once the bound stops improving; at n = 18..20
    their bound is still the optimum, and the proof says how many positions it searched."""
    for n in (18, 20):
        ub, found, _ = upper_bound(n, patient=False)
        assert ub == PUBLISHED[n]
        assert PUZZLE.check(n, solution_json(n, 0, found), {}).objective == ub
    r = native(20)
    assert r.status == Status.OPTIMAL and r.objective == PUBLISHED[20]
    assert re.search(r"[1-9][0-9,]* positions searched", r.message)


def test_2s_rule_reaches_an_optimum_the_old_heuristics_missed():
    """n = 24: Chaffin's diagonal and greedy searches stop above 340; the 2s rule finds it in seconds."""
    out = search(Placements.build(24), PUBLISHED[24] + 1, sides=2)
    assert out.best == PUBLISHED[24] and out.complete
    assert PUZZLE.check(24, solution_json(24, 0, out.witness), {}).objective == PUBLISHED[24]


def test_lattice_greedy_finds_the_ladder_type_optimum():
    """n = 41: the greedy search with the large squares on the spacing-3 lattice finishes in about a
    second with 765 (the plain greedy search needs minutes)."""
    out = search(Placements.build(41, lattice=(3, 20)), 2 * 41 * 42 + 1, greedy_upto=41)
    assert out.complete and out.best == PUBLISHED[41]
    assert PUZZLE.check(41, solution_json(41, 0, out.witness), {}).objective == PUBLISHED[41]


def test_runs_reach_the_ladder_optimum_chaffin_found_only_by_exhaustive_search():
    """n = 38: runs of squares sharing corners above size 16, each run led on the spacing-3 lattice,
    under the 2s rule: the search finishes with 684, which Chaffin's heuristics missed."""
    n, above = 38, 16
    out = search(Placements.build(n, lattice=(3, above), runs_above=above), PUBLISHED[n] + 3, sides=2)
    assert out.complete and out.best == PUBLISHED[n]
    assert PUZZLE.check(n, solution_json(n, 0, out.witness), {}).objective == PUBLISHED[n]
    by_size = {p.size: p for p in out.witness}
    follows = [0 <= by_size[s].x - by_size[s + 1].x <= 1 and 0 <= by_size[s].y - by_size[s + 1].y <= 1
               for s in range(above + 1, n)]
    assert all(a or b for a, b in zip(follows, follows[1:]))   # no run of a single square
    assert by_size[n - 1].x <= 1 and by_size[n - 1].y <= 1     # the largest square leads a run


@pytest.mark.parametrize("n, record", [(54, 1156), (56, 1216)])
def test_ladder_beats_the_published_bound(n, record):
    """Triples sharing a corner, 2 x 2 of them a block, sizes up to 8 searched exactly: one match
    below Chaffin's best known constructions (1157 and 1217), and the search proves nothing cheaper
    fits below that ladder."""
    fixed = ladder(n, 0, group=3, rows=2, blocks=[(2, False)], above=8)
    assert fixed[n - 3] == Placement(n - 3, 0, 3) and fixed[n - 6] == Placement(n - 6, 6, 0)
    assert fixed[n - 12] == Placement(n - 12, 12, 12)
    out = search(Placements.build(n, fixed=fixed), PUBLISHED[n])
    assert out.complete and out.best == record < PUBLISHED[n]
    assert PUZZLE.check(n, solution_json(n, 0, out.witness), {}).objective == record


def test_ladder_with_a_column_up_beats_the_published_bound_of_54():
    """Blocks of 3 x 3 pairs with the third block one column up at the top edge (the shape of the
    beam's 1250 for n = 57): 1153, four matches below Chaffin's 1157, and nothing cheaper below it."""
    fixed = ladder(54, 0, group=2, rows=3, blocks=[(3, False), (3, False), (1, True), (3, False)],
                   above=8)
    assert fixed[18] == Placement(18, 36, 0) and fixed[12] == Placement(12, 42, 42)
    out = search(Placements.build(54, fixed=fixed), PUBLISHED[54])
    assert out.complete and out.best == 1153
    assert PUZZLE.check(54, solution_json(54, 0, out.witness), {}).objective == 1153


def test_beam_follows_every_greedy_choice_on_small_boards():
    """Up to n = 6 a beam of 1000 never drops a board, so it is Chaffin's whole greedy search,
    which reaches the optimum there; from n = 7 it must choose. Under the optimum it finds nothing."""
    for n in range(1, 9):
        out = beam(Placements.build(n), 1000, 1 << 30)
        cost, placements, cut = out.best, out.witness, not out.complete
        assert cut == (n >= 7)
        assert PUZZLE.check(n, solution_json(n, 0, placements), {}).objective == cost == PUBLISHED[n]
    assert beam(Placements.build(30), 1000, PUBLISHED[30]).witness is None


def test_beam_reaches_the_published_bound_of_57():
    """The beam as the heuristics run it after the ladder's 1251: Chaffin's 1250, which the
    depth-first heuristics here never reached."""
    out = beam(Placements.build(57), 16000, PUBLISHED[57] + 1)
    cost, placements = out.best, out.witness
    assert PUZZLE.check(57, solution_json(57, 0, placements), {}).objective == cost == PUBLISHED[57]


def test_polish_mends_a_spoilt_solution():
    """n = 12 with its small squares moved to the corners (each then adds matches): polishing holds
    the large squares and finds the optimum 125 again."""
    out = search(Placements.build(12), PUBLISHED[12] + 1)
    spoilt = [p for p in out.witness if p.size > 4]
    spoilt += [Placement(s, 12 - s if s % 2 else 0, 12 - s) for s in range(1, 5)]
    cost = len({m for p in spoilt for m in square_matches(p.size, p.x, p.y)})
    assert cost > PUBLISHED[12]
    best, mended = polish(12, 0, spoilt, cost + 1, Deadline.after(60))
    assert best == PUBLISHED[12]
    assert PUZZLE.check(12, solution_json(12, 0, mended), {}).objective == PUBLISHED[12]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_margin_does_not_help_small_n(n):
    r = native(n, margin=1)
    assert r.status == Status.OPTIMAL and r.objective == PUBLISHED[n]


def _backend(solver: str, n: int, formulation: str, margin: int = 0) -> int:
    from workbench.solvers.runner import run
    params = {"margin": margin}
    built = PUZZLE.build(n, formulation, params)
    r = run(solver, built.model, Options(time_limit=60, threads=2))
    assert r.status == Status.OPTIMAL, (solver, n, r.message)
    objective = round(r.objective)
    assert PUZZLE.check(n, built.decode(r.values), params).objective == objective
    return objective


@pytest.mark.parametrize("solver,formulation", [("highs", "strong"), ("cpsat", "strong"),
                                                ("cbc", "aggregated"), ("maxsat", "maxsat"),
                                                ("highs", "pairwise")])
def test_model_backends_agree_with_native(solver, formulation):
    for n in (1, 3, 5):
        assert _backend(solver, n, formulation) == native(n).objective == PUBLISHED[n]


def test_maxsat_with_margin_agrees():
    assert _backend("maxsat", 4, "maxsat", margin=1) == PUBLISHED[4]


def test_render_and_png(n8, tmp_path):
    text = PUZZLE.render(8, n8, {})
    assert "┼" in text or "├" in text
    assert "8" in text.splitlines()[0] and text.endswith(f"{PUBLISHED[8]} matchsticks")
    PUZZLE.png(8, n8, str(tmp_path / "s.png"), {})
    assert (tmp_path / "s.png").stat().st_size > 1000


def test_model_symmetry_breaking_keeps_the_two_largest_fixed():
    g = Grid(6)
    assert [(p.x, p.y) for p in g.placements(6)] == [(0, 0)]
    assert [(p.x, p.y) for p in g.placements(5)] == [(0, 0)]
    assert len(Grid(6, margin=1).placements(5)) == 3      # x <= y <= margin, within the board


def test_pipeline_counts_optimal_solutions_and_compares_the_objective():
    from workbench.pipeline import plan
    from workbench.pipeline import solve as pipeline_solve
    run = pipeline_solve(plan("squares", 5, "search", None, {"all": True}), Options(time_limit=60))
    assert run.result.count == CHAFFIN_COUNTS[4] and run.value == PUBLISHED[5]
    assert run.match == "yes" and run.verified


def test_pipeline_picks_the_maxsat_formulation_for_maxsat():
    from workbench.pipeline import plan
    from workbench.pipeline import solve as pipeline_solve
    run = pipeline_solve(plan("squares", 4, "maxsat", None, {}), Options(time_limit=60))
    assert run.formulation == "maxsat" and run.value == PUBLISHED[4] and run.match == "yes"


def test_lower_bound_prune_keeps_optima_and_counts():
    """The prune (cuts.doomed) only cuts branches holding nothing at most as cheap as the bound: with and
    without it the counting search finds the same optimum and the same number of optimal solutions
    (Chaffin's counts), and at n = 20 it searches far fewer positions (at small n the
    split into parallel prefixes, repeated by the search, can cost more than the prune saves)."""
    for n in range(1, 21):
        plain, bounded = (search(Placements.build(n), PUBLISHED[n], counting=True, bounded=b)
                          for b in (False, True))
        assert plain.complete and bounded.complete
        assert plain.best == bounded.best == PUBLISHED[n]
        assert plain.count == bounded.count
        assert bounded.count == CHAFFIN_COUNTS[n - 1]
    assert bounded.positions < plain.positions / 1.5


def test_a_timed_out_parallel_search_returns_the_board_of_the_cost_it_reports():
    """A thread whose own board is dearer than another thread's must not win: n = 56 at 5 s once
    paired a 1532-match board with the objective 1520, and the checker threw the run away."""
    from workbench import pipeline
    from workbench.solvers.base import Options, Status

    # 5 s: no board under load
    run = pipeline.solve(pipeline.plan("squares", 56, "search"), Options(time_limit=10, threads=2))
    assert run.result.status == Status.FEASIBLE and run.verified, run.result.message
    assert run.value == run.verdict.objective


def test_pooled_test_keeps_optima_and_counts():
    """The children's pooled test (cuts.drop_pooled, pooled_cut) only drops children whose every
    completion costs more than the bound: with 1, 3 or 8 sizes pooled, or none (doomed alone), the
    counting search finds the optimum and the number of optimal solutions of the search without any
    prune (Chaffin's counts), for n = 1..20, and it searches fewer positions than without it."""
    for n in range(1, 21):
        plain = search(Placements.build(n), PUBLISHED[n], counting=True, bounded=False)
        assert plain.count == CHAFFIN_COUNTS[n - 1]
        for pooled in (0, 1, 3, 8):
            out = search(Placements.build(n), PUBLISHED[n], counting=True, pooled=pooled)
            assert (out.best, out.count, out.complete) == (plain.best, plain.count, True), (n, pooled)
    without = search(Placements.build(20), PUBLISHED[20], counting=True, pooled=0)
    pooled = search(Placements.build(20), PUBLISHED[20], counting=True, pooled=3)
    assert pooled.positions < without.positions / 1.3


@pytest.mark.parametrize("n", [12, 14])
@pytest.mark.parametrize("pooled, fewer", [(0, 1.3), (3, 4)])     # measured: 1.43-1.49x, 4.9-5.9x
def test_every_board_the_cuts_cut_holds_nothing_the_plain_search_finds(n, pooled, fewer):
    """Every board of the tree at depth 4 (all of them, no prune), searched on its own with
    the cuts (doomed, and the pooled test) and with no prune at all: the same cheapest cost at most the
    optimum and the same number of solutions at it, board by board; where a cut cuts a board or
    drops a child, the plain search finds nothing there either."""
    from workbench.puzzles.squares.dfs import _dfs, _kernel_rules, _rules

    pl = Placements.build(n)
    arrays, bound = pl.arrays, PUBLISHED[n]
    plain_rules = _kernel_rules(_rules(pl, True, bounded=False))
    cut_rules = _kernel_rules(_rules(pl, True, pooled=pooled))
    boards = np.zeros((100000, 4), np.int64)
    _, found, _, _, _ = _dfs(arrays, np.zeros(0, np.int64), 4, bound, *plain_rules,
                            np.full(1, bound, np.int64), np.inf, boards)
    assert 50 < found < len(boards)
    none = np.zeros((0, pl.pstart.shape[0]), np.int64)
    counts, positions = 0, np.zeros(2, np.int64)
    for prefix in boards[:found]:
        a = _dfs(arrays, prefix, 0, bound, *cut_rules, np.full(1, bound, np.int64), np.inf, none)
        b = _dfs(arrays, prefix, 0, bound, *plain_rules, np.full(1, bound, np.int64), np.inf, none)
        assert (a[1], a[1] and a[0]) == (b[1], b[1] and b[0])
        counts += b[1]
        positions += (a[4], b[4])
    assert counts == CHAFFIN_COUNTS[n - 1]        # the boards cover the whole tree
    assert positions[0] < positions[1] / fewer    # and the cuts cut many of them


def test_the_pooled_test_keeps_a_child_exactly_when_no_pooled_size_cuts_it():
    """drop_pooled spreads its sizes one at a time, only while a child is left: the children it
    keeps are those no pooled size proves dead, each size spread on its own (pooled_cut), in their
    order. Every child of every board doomed leaves at depth 6 of n = 14's tree, at the optimum."""
    from workbench.puzzles.squares.cuts import MOST_POOLED, drop_pooled, pooled_cut, pooled_depths, spread
    from workbench.puzzles.squares.dfs import _dfs, _kernel_rules, _rules
    from workbench.puzzles.squares.kernel import added, put

    n, d, sizes = 14, 6, 3
    pl = Placements.build(n)
    arrays, bound, lines = pl.arrays, PUBLISHED[n], pl.side + 1
    boards = np.zeros((20000, d), np.int64)
    _, found, _, _, _ = _dfs(arrays, np.zeros(0, np.int64), d, bound, *_kernel_rules(_rules(pl, True, pooled=0)),
                            np.full(1, bound, np.int64), np.inf, boards)
    depth, um, lm = np.empty(MOST_POOLED, np.int64), np.empty((2, lines), np.uint64), np.empty((2, lines), np.int64)
    dropped = kept = later = 0
    for prefix in boards[:found]:
        rows, cols, cost = np.zeros(lines, np.uint64), np.zeros(lines, np.uint64), 0
        for k in prefix:
            cost += added(rows, cols, pl.px[k], pl.py[k], pl.ps[k])
            put(rows, cols, pl.px[k], pl.py[k], pl.ps[k])
        held = np.array([[int(w).bit_count() for w in rows], [int(w).bit_count() for w in cols], [0] * lines])
        most = bound - cost
        children = [(k, a) for k in range(pl.pstart[d], pl.pend[d])
                    if 0 < (a := added(rows, cols, pl.px[k], pl.py[k], pl.ps[k])) <= most]
        if not children:                      # (the search tests only boards with children)
            continue
        spreads = []
        for e in depth[:pooled_depths(arrays, d, -1, sizes, depth)]:
            u, v = um.copy(), lm.copy()
            spreads.append((u, v, spread(rows, cols, arrays, e, most, held, held[2], u, v), pl.ps[pl.pstart[e]]))
        cuts = [[pooled_cut(rows, cols, spread_u, pl.px[k], pl.py[k], pl.ps[k], a, most) for spread_u in spreads]
                for k, a in children]
        expected = [child for child, cut in zip(children, cuts, strict=True) if not any(cut)]
        later += sum(any(cut) and not cut[0] for cut in cuts)      # kept by the first size, not the rest
        cand, cadd = np.array([k for k, _ in children] + [0], np.int64), np.array([a for _, a in children] + [0])
        left = drop_pooled(rows, cols, arrays, d, most, held, -1, (sizes, depth, um, lm), (cand, cadd), len(children))
        assert list(zip(cand[:left], cadd[:left], strict=True)) == expected
        dropped, kept = dropped + len(children) - left, kept + left
    assert found > 1000 and dropped > 1000 and kept > 100 and later > 100


def test_a_given_bound_replaces_the_heuristics():
    """--bound B: boards of fewer than B matches are searched for, with no heuristics (so the
    journal's key does not depend on them): B = a(n) + 1 finds and proves a(n), B = a(n) proves
    that nothing is cheaper, without a witness."""
    found = native(12, bound=PUBLISHED[12] + 1)
    assert found.status == Status.OPTIMAL and found.objective == PUBLISHED[12]
    assert "from --bound" in found.message and PUZZLE.check(12, found.solution, {}).objective == PUBLISHED[12]
    none = native(12, bound=PUBLISHED[12])
    assert none.status == Status.INFEASIBLE and f"no board of fewer than {PUBLISHED[12]} matches" in none.message
