"""The stones record hunt (record.py): the score's keys, the canonical Zobrist hash, the placement
filter against the published boards, short hunts whose boards replay through the checker."""
from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest
from conftest import published_values
from test_stones import BOARD_49

from workbench.pipeline import plan
from workbench.pipeline import solve as pipeline_solve
from workbench.puzzles.stones.check import check
from workbench.puzzles.stones.hunt.beam import (
    FILTERS,
    LEXICOGRAPHIC,
    ONE,
    REACH,
    beam,
    board_hash,
    published_boards,
    score_keys,
    to_board,
    to_sequence,
)
from workbench.puzzles.stones.hunt.lookahead import (
    ONE_WORTH,
    WORTHS,
    finish,
    lookahead,
    loose_ones,
    prefix,
)
from workbench.puzzles.stones.hunt.plan import HuntOptions, Plan, Restart, Sweep, book
from workbench.puzzles.stones.hunt.run import hunt, run_job, warm_up
from workbench.puzzles.stones.hunt.sweep import SWEEP_LOOKAHEAD, SWEEP_SHARE, V2_POSITIONS, fresh_class, sweep_order
from workbench.puzzles.stones.kernel import subtree
from workbench.solvers.base import Options

PUBLISHED = published_values("stones")
# the 2 between two ones on a diagonal; then 3 above the 2, beside the first one
DIAGONAL = [[0, 0, 1], [1, 1, 2], [2, 2, 1]]
WITH_3 = DIAGONAL + [[0, 1, 3]]


def test_score_keys_on_hand_made_boards():
    """Counted by hand. DIAGONAL: sum 3 on 4 cells, sum 2 on 2, sum 1 on 10 (cells touching a one only).
    WITH_3: sums 4, 5, 6 on 2, 1, 2 cells, sum 3 on 2, sum 2 on 1, sum 1 on 8."""
    assert score_keys(3, DIAGONAL) == (1, 1, 4 + 2, 10)      # a one in hand: cells at sum 2 count too
    assert score_keys(2, DIAGONAL) == (0, 1, 4, 10)          # none in hand: they do not
    assert score_keys(3, WITH_3) == (1, 3, 5 + 2, 8 + 1)


def _images(board: list[list[int]]) -> list[list[list[int]]]:
    out = []
    for o in range(8):
        moved = []
        for r, c, v in board:
            a, b = (c, r) if o & 1 else (r, c)
            moved.append([-a if o & 2 else a, -b if o & 4 else b, v])
        out.append(moved)
    return out


def test_zobrist_hash_is_canonical_under_the_8_symmetries():
    board = published_boards()[7]
    hashes = {board_hash(image) for image in _images(board)}
    assert len(hashes) == 1
    shifted = [[r + 5, c - 3, v] for r, c, v in board]
    assert board_hash(shifted) in hashes
    other = [t for t in board if t[2] <= 70]          # one number less: another board
    assert board_hash(other) not in hashes


def test_published_boards_replay_and_pass_the_near_filter():
    """The published boards are legal, each one after the first two goes in by the lazy rule (touching
    no number yet, one at a time), and the near filter admits it; the wide filter does not (n = 7)."""
    for n, board in published_boards().items():
        assert check(n, board).objective == PUBLISHED[n]
        seq = to_sequence(board, PUBLISHED[n])
        ones = [divmod(e - (1 << 14), 128) for e in seq if e >= 1 << 14]
        assert len(ones) == n
        for i, (r, c) in enumerate(ones[2:], 2):
            for a, b in ones[:i]:
                if abs(r - a) <= REACH and abs(c - b) <= REACH:
                    assert not FILTERS["near"][r - a + REACH, c - b + REACH]
    wide = FILTERS["wide"]
    board7 = published_boards()[7]
    ones = [(r, c) for r, c, v in board7 if v == 1]
    assert any(wide[a - r + REACH, b - c + REACH] for r, c in ones for a, b in ones
               if (a, b) != (r, c) and abs(a - r) <= REACH and abs(b - c) <= REACH and max(abs(a - r), abs(b - c)) > 2)


def test_beam_from_a_prefix_reproduces_a5():
    """Re-running the beam from the first 10 numbers of the seed's a(5) board reaches 49 (the
    post-processing step), and the board it reports replays legally."""
    found = {}
    beam(5, 10000, LEXICOGRAPHIC, 1, FILTERS["off"], to_sequence(BOARD_49, 10),
         on_record=lambda u, v, b: found.__setitem__(u, (v, b)))
    value, board = found[5]
    assert value == PUBLISHED[5] and check(5, board).objective == 49


def test_one_beam_gives_records_for_every_ones_count():
    """One run with up to 4 ones: the proven a(2), a(3), a(4) for 2, 3, 4 ones, each board verified;
    each level's kept boards are reported best first, each ending with the level's number."""
    found, levels = {}, []
    reached = beam(4, 30000, LEXICOGRAPHIC, 0, FILTERS["near"],
                   on_record=lambda u, v, b: found.__setitem__(u, (v, b)),
                   on_level=lambda k, scores, kept: levels.append((k, scores, kept)))
    assert reached == {2: 16, 3: 28, 4: 38}
    for u, (value, board) in found.items():
        assert check(u, board).objective == value == PUBLISHED[u]
    assert [k for k, *_ in levels] == list(range(3, 3 + len(levels))) and levels[-1][0] >= 38
    for k, scores, kept in levels:
        assert len(scores) == len(kept) <= 30000 and scores == sorted(scores, reverse=True)
        assert all(max(v for *_, v in to_board(seq)) == k for seq in kept)


@pytest.mark.parametrize("threads", [1, 2])
def test_hunt_reports_only_legal_improvements(threads):
    warm_up()                                  # compiled before the clock starts
    seen = []
    records, runs = hunt(6, 4, HuntOptions(threads=threads, width=2000), on_best=lambda v, b: seen.append((v, b)))
    assert runs >= 2 and seen
    values = [v for v, _ in seen]
    assert values == sorted(set(values)) and values[-1] == records.best(6)[0] >= 45
    assert all(check(6, b).objective == v for v, b in seen)


def test_exhaustive_ending_finishes_a_cut_board():
    """finish() on the seed's a(5) board cut back to 45 finds 49 again (its last 10 numbers searched)."""
    value, board = finish(5, prefix(BOARD_49, 45), 4)
    assert value == 49 and check(5, board).objective == 49


def test_rerun_keeping_the_ones_of_a_published_board():
    """The published n = 7 board cut at 50 with all its ones kept (one touches no number yet), and
    with that one back in hand: the beam's boards replay legally; with all kept it finds
    71 again."""
    board = published_boards()[7]
    loose = loose_ones(board, 50)
    ones = frozenset((r, c) for r, c, v in board if v == 1)
    assert len(loose) == 1 and loose < ones
    found = {}
    beam(7, 20000, LEXICOGRAPHIC, 0, FILTERS["near"], to_sequence(board, 50, ones),
         on_record=lambda u, v, b: found.__setitem__(u, (v, b)))
    assert found[7][0] == 71 and check(7, found[7][1]).objective == 71
    found.clear()
    beam(7, 2000, LEXICOGRAPHIC, 0, FILTERS["near"], to_sequence(board, 50, ones - loose),
         on_record=lambda u, v, b: found.__setitem__(u, (v, b)))
    assert found and all(check(u, b).objective == v for u, (v, b) in found.items())


def test_hunt_options_are_typed_and_checked():
    from workbench.puzzles.base import BadInput
    from workbench.puzzles.stones.puzzle import ONES_FILTERS, StonesParams
    assert set(ONES_FILTERS) == set(FILTERS)
    assert StonesParams.parse({"width": "5000", "filter": "off"}) == StonesParams(width=5000, filter="off")
    assert StonesParams.parse({"lookahead": "0"}).lookahead == 0 and StonesParams().lookahead == 300
    for bad in ({"filter": "square"}, {"width": "10"}, {"lookahead": "5"}):
        with pytest.raises(BadInput):
            StonesParams.parse(bad)


def test_hunt_runs_on_a_dask_cluster():
    """The hunt's beam runs go through the task layer's executor: on a local Dask cluster of two
    worker processes its boards replay legally too. (15 s: the clock counts the cluster's start,
    which took most of 8 s on a loaded machine.)"""
    warm_up()
    seen = []
    records, runs = hunt(6, 15, HuntOptions(cluster="local:2", width=2000), on_best=lambda v, b: seen.append((v, b)))
    assert runs >= 2 and seen and records.best(6)[0] >= 45
    assert all(check(6, b).objective == v for v, b in seen)


def test_hunt_stores_every_ones_count_and_resumes(tmp_path, monkeypatch):
    """A hunt with --nmax 7 stores a checked board, with its drawing, for each ones count up to 7
    as soon as it is found; a --resume run starts from the stored board and says so."""
    monkeypatch.setenv("WORKBENCH_JOURNALS", str(tmp_path))
    first = pipeline_solve(plan("stones", 6, "search", params={"nmax": 7, "width": 2000}),
                           Options(time_limit=4, threads=1))
    store = json.loads((tmp_path / "hunts" / "stones.json").read_text())
    assert {"6", "7"} <= set(store)
    for ones, entry in store.items():
        assert check(int(ones), entry["board"]).objective == entry["value"]
        assert (tmp_path / "hunts" / f"stones-{ones}-ones.txt").read_text().startswith("valid:")
    best6 = max(entry["value"] for ones, entry in store.items() if int(ones) <= 6)
    assert best6 >= first.result.objective
    again = pipeline_solve(plan("stones", 6, "search", params={"resume": True, "width": 2000}),
                           Options(time_limit=2, threads=1))
    assert again.verdict.ok and again.result.objective >= best6
    assert "resumed from a stored board" in again.result.message


def test_a_multi_count_hunt_plans_for_every_count():
    """With nmax > n the plan serves every count: an exhaustive ending for each count's best board
    first, then re-runs that take the counts in turn, each from that count's best board."""
    boards = published_boards()
    plan = Plan(6, 8, 20000, "near", 0, 600.0, sweep=0)
    plan.absorb({5: (49, BOARD_49), 7: (71, boards[7]), 8: (80, boards[8])})
    endings = [plan.next_job(600.0) for _ in range(3)]
    assert [(e.n, max(v for *_, v in e.board)) for e in endings] == [(6, 49), (7, 71), (8, 80)]
    counting = Plan(6, 8, 20000, "near", 0, 600.0, lookahead_width=0, sweep=0)
    assert not any(getattr(counting.next_job(600.0), "worth", 0) for _ in range(6))
    jobs = []
    for _ in range(40):             # lookaheads take 60 s, counting beams 5 s: the time splits evenly
        jobs.append(plan.next_job(600.0))
        book(plan.spent, jobs[-1], 60.0 if jobs[-1].worth else 5.0)
    assert abs(plan.spent["lookahead"] - plan.spent["counting"]) <= 60.0
    reruns = [job for job in jobs if isinstance(job, Restart) and not job.worth]
    assert len(reruns) in (35, 36) and {job.ones for job in reruns} == {6, 7, 8}
    looks = [job for job in jobs if isinstance(job, Restart) and job.worth]
    assert len(looks) in (4, 5) and all(WORTHS[0] <= job.worth <= WORTHS[1] and job.threads == 1 for job in looks)
    counting_job = next(job for job in reruns if job.threads == 1)
    assert plan.next_job(600.0, [(counting_job, time.monotonic() - 1e4)]).worth    # running beams count too
    shared = Plan(6, 8, 20000, "near", 0, 600.0, lookahead_threads=2, sweep=0)
    assert [job.threads for job in (shared.next_job(600.0) for _ in range(2))] == [1, 2]
    reruns += [job for job in looks if job.start]
    source = {6: BOARD_49, 7: boards[7], 8: boards[8]}
    for job in reruns:
        start = to_board(np.array(job.start))
        cut = max(v for *_, v in start)
        assert check(job.ones, start).ok and _numbers(start) == _numbers(prefix(source[job.ones], cut))


def _numbers(board):
    """The numbers 2.. of a board by their place relative to the 2."""
    r2, c2 = next((r, c) for r, c, v in board if v == 2)
    return {v: (r - r2, c - c2) for r, c, v in board if v >= 2}


def test_a_layout_of_ones_fixes_the_best_board():
    """The structural fact behind finish(): with the ones fixed, the exact kernel searches every
    placement of the numbers from the 2 on in well under a second; the published layouts give
    their boards' values back."""
    for n, board in published_boards().items():
        if n <= 8:
            out = subtree(n, [[r, c, v] for r, c, v in board if v <= 2], 10**7)
            assert out.complete and out.best == max(v for *_, v in board) and check(n, out.witness).ok


def test_an_exhaustive_ending_leaves_the_other_threads_free():
    """A hunt runs endings beside beams on other threads, so the kernel must not hold the GIL (when
    it did, a 2-thread hunt used one core): the main thread keeps running while an ending searches."""
    import threading
    import time

    subtree(5, prefix(BOARD_49, 10), 1)                  # compiled (or loaded) before the clock
    done = threading.Event()
    result = []
    ending = threading.Thread(target=lambda: (result.append(subtree(5, prefix(BOARD_49, 10), 2 * 10**6)), done.set()))
    began = last = time.perf_counter()
    longest = 0.0
    ending.start()
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    ending.join()
    assert not result[0].complete and result[0].positions >= 2 * 10**6     # it searched its whole budget
    assert longest < 0.3 * (last - began)                                   # never blocked for long


@pytest.mark.heavy
def test_lookahead_beam_finishes_the_seed_board_from_its_first_six_numbers():
    """The lookahead beam (each child scored by the exact best value with one more one) turns the
    first 6 numbers of the seed's a(5) = 49 board back into 49 at width 50, scoring on 2 threads;
    every board it reports replays legally."""
    found, levels = {}, []
    reached = lookahead(5, 50, 0, start=to_sequence(BOARD_49, 6),
                        on_record=lambda u, v, b: found.__setitem__(u, (v, b)), threads=2,
                        on_level=lambda k, potential, kept: levels.append((k, potential, kept)))
    assert reached[5] == 49 == PUBLISHED[5]
    for u, (value, board) in found.items():
        assert check(u, board).objective == value == reached[u]
    assert [k for k, *_ in levels] == list(range(7, 7 + len(levels)))      # each level reported, best first
    assert all(len(p) == len(kept) <= 50 and p == sorted(p, reverse=True) for _, p, kept in levels)
    assert max(p[0] for _, p, _ in levels if p) >= 49     # the witness of 49 was scored at its value


def test_a_beam_job_streams_its_boards_as_it_finds_them():
    """A job on threads hands each improvement to the hunt at once (a lookahead job takes minutes),
    improving per ones count, and ends with the same boards it returns."""
    streamed: list[tuple[int, int, list[list[int]]]] = []
    job = Restart(5, 20, (), 0, start=tuple(to_sequence(BOARD_49, 10)), worth=ONE_WORTH)
    found = run_job(job, math.inf, lambda u, v, b: streamed.append((u, v, b)))
    assert found and {u: (v, b) for u, v, b in streamed} == found
    for u in found:
        values = [v for w, v, _ in streamed if w == u]
        assert values == sorted(set(values))
    assert all(check(u, b).objective == v for u, v, b in streamed)


def test_a_hunt_sweeps_its_count_once_on_its_share_of_the_time():
    """A class sweep for the hunt's count: a ranking on every thread, then one lookahead job per
    ranked board, best first; while it has work it holds SWEEP_SHARE of the worker time, and after
    it the lookahead and counting beams split the time again. By default only n = 6 is swept."""
    assert [HuntOptions().sweep_share(n) for n in (5, 6, 7)] == [0, SWEEP_SHARE, 0]
    assert HuntOptions(sweep=0.25).sweep_share(7) == 0.25 and Plan(5, 7, 20000, "near", 0, 600.0).unswept == []
    plan = Plan(6, 7, 20000, "near", 0, 600.0, lookahead_threads=2, sweep=SWEEP_SHARE)
    first = plan.next_job(600.0)
    assert isinstance(first, Restart) and not first.worth and not first.swept      # the first run counts
    book(plan.spent, first, 5.0)
    rank = plan.next_job(600.0)
    assert isinstance(rank, Sweep) and (rank.ones, rank.threads, rank.width) == (6, 2, 20000)
    starts = [(100 + i,) for i in range(30)]
    jobs = [plan.next_job(600.0, [(rank, time.monotonic() - 50.0)])]   # while it ranks, no other sweep
    assert not isinstance(jobs[0], Sweep) and not jobs[0].swept
    book(plan.spent, rank, 50.0)
    plan.ranked(6, starts)
    while len(jobs) < 300:
        jobs.append(plan.next_job(600.0))
        if not plan.to_finish:
            break
        book(plan.spent, jobs[-1], 20.0 if jobs[-1].swept else 60.0 if jobs[-1].worth else 5.0)
    swept = [job for job in jobs if isinstance(job, Restart) and job.swept]
    assert [job.start for job in swept] == starts and {job.ones for job in swept} == {6}
    assert all(job.width == SWEEP_LOOKAHEAD and job.threads == 1 and job.worth for job in swept)
    total = sum(plan.spent.values())
    assert abs(plan.spent["sweep"] - SWEEP_SHARE * total) <= 60.0 + 20.0
    rest = [plan.next_job(600.0) for _ in range(10)]
    assert not any(isinstance(job, Sweep) or getattr(job, "swept", False) for job in rest)   # every count swept


@pytest.mark.heavy
def test_a_class_sweep_ranks_legal_boards_best_v2_first():
    """sweep_order on a narrow beam, its best 30 boards by v1 ranked by v2: each holds 3 ones for 6,
    its third spent on the number before its last, replays legally, and they come best v2 first
    (recomputed here: the kernel's budget-cut search is a function of the board)."""
    order = sweep_order(6, 0, FILTERS["near"], threads=2, width=300, ranked=30)
    assert len(order) == 30
    boards = [to_board(np.array(seq)) for seq in order]
    for seq, board in zip(order, boards):
        assert sum(1 for e in seq if e >= ONE) == 3 and seq[-3] >= ONE > seq[-2]
        assert check(6, board).ok
    v2 = [subtree(5, board, V2_POSITIONS).best for board in boards]
    assert v2 == sorted(v2, reverse=True)


@pytest.mark.heavy
def test_the_60_boards_prefix_is_in_its_fresh_class_and_finishes_to_60():
    """The sweep's two halves on the proven a(6) = 60 board: its prefix at 13 (3 ones, the third
    spent on 12) is among the boards a width-1e5 counting beam gives fresh_class, and it alone of
    its prefixes; a sweep's lookahead beam from it reaches 60 (docs/notes/stones-record.md)."""
    board = published_boards()[6]
    held = {board_hash(to_board(seq)) for seq in fresh_class(6, 100000, 0, FILTERS["near"])}
    assert [k for k in range(3, 60) if board_hash(prefix(board, k)) in held] == [13]
    reached = lookahead(6, SWEEP_LOOKAHEAD, 0, start=to_sequence(board, 13), threads=2)
    assert reached[6] == 60 == PUBLISHED[6]
