"""The task layer: threads and Dask give the same outcome, a journal makes a killed run resume to
exactly the uninterrupted counters, and one journal has one user at a time."""
from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from task_toys import PRIMES, capped_primes_in, primes_in, ranges

from workbench.search.forecast import Tally
from workbench.search.journal import Row
from workbench.search.outcome import Outcome
from workbench.search.survey import RECENT, JournalState, Pace, _pace
from workbench.search.tasks import (
    Job,
    Journal,
    JournalBroken,
    JournalBusy,
    Settings,
    Split,
    copy_journal,
    executor,
    fan_out,
    journal_log,
    remove_finished,
    run,
    survey,
    window,
)

HERE = Path(__file__).resolve().parent


def task_rows(path: Path) -> list[dict]:
    """The task rows of a journal, as their JSON says."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        bodies = [json.loads(body) for (body,) in db.execute("SELECT body FROM rows ORDER BY seq")]
    return [body for body in bodies if body["kind"] == "task"]


def split(pause: float = 0.0, top: int = 20000) -> Split:
    return Split("primes", {"top": top}, ranges(top, 250, pause), primes_in, maximise=True, codec=PRIMES)


def divided_split(pause: float = 0.0, top: int = 20000) -> Split:
    """Ranges of 2000 numbers capped at 300: each hands back two ranges of 850, which hand back two
    of 275 each: 7 tasks a range."""
    tasks = [(lo, hi, pause, 300) for lo, hi, _ in ranges(top, 2000)]
    return Split("capped primes", {"top": top}, tasks, capped_primes_in, maximise=True, codec=PRIMES)


def test_threads_reduce_to_the_exact_answer(tmp_path):
    out = run(split(), Settings(threads=2, runs=tmp_path))
    assert (out.best, out.witness, out.count, out.positions, out.complete) == (19997, 19997, 1, 20000, True)


def test_parts_handed_back_run_as_new_tasks_and_the_counters_stay_exact(tmp_path):
    out = run(divided_split(), Settings(threads=2, runs=tmp_path))
    assert (out.best, out.witness, out.count, out.positions, out.complete) == (19997, 19997, 1, 20000, True)
    assert out.tasks == 10 * 7


def test_a_finished_search_leaves_no_journal_and_fresh_forgets_a_partial_one(tmp_path):
    run(split(), Settings(threads=2, runs=tmp_path))
    assert not list(tmp_path.iterdir())                    # neither the database nor its lock file
    run(split(0.05), Settings(threads=2, time_limit=0.5, runs=tmp_path))
    journal = Journal(tmp_path, split(0.05).key)
    assert journal.read().rows
    journal.close()
    journal = Journal(tmp_path, split(0.05).key, fresh=True)
    assert not journal.read().rows
    journal.close()


def test_a_journal_gives_back_a_witness_with_its_types(tmp_path):
    """A board found by a journaled task comes back as the search made it (squares' Placements, not
    dicts): a resumed a(36) whose 629 was found on another machine once failed to write its row.
    Its value is the checker's: a row that says more than its board is worth is refused."""
    from workbench.puzzles.squares.dfs import codec
    from workbench.puzzles.squares.model import Placement

    found = Outcome(10, [Placement(2, 0, 0), Placement(1, 0, 0)], 1, 52121584, True, 1)
    key = {"search": "witness", "tasks": 2}
    journal = Journal(tmp_path, key, codec=codec(2, None))
    journal.task_done(0, found, 1.5)
    journal.close()
    journal = Journal(tmp_path, key, codec=codec(2, None))
    (row,) = journal.read().rows.values()
    assert row.outcome == found and isinstance(row.outcome.witness[0], Placement)
    journal.task_done(1, Outcome(9, [Placement(2, 0, 0), Placement(1, 0, 0)], 1, 5, True, 1), 1.0)
    with pytest.raises(JournalBroken, match="row 2: task 1: its witness is worth 10 by the checker, the row says 9"):
        journal.read()
    journal.close()


def test_inside_a_journal_log_a_finished_journal_waits_for_the_answer(tmp_path):
    """A run that fails after its search (making its answer) keeps the finished journal, and the
    rerun answers from it without searching; it says what it resumed, and the journal goes only
    when the answer's keeper calls remove_finished."""
    with pytest.raises(RuntimeError), journal_log():
        run(split(), Settings(threads=2, runs=tmp_path))
        raise RuntimeError("the answer could not be made")
    assert len(list(tmp_path.glob("*.sqlite"))) == 1
    with journal_log() as log:
        began = time.perf_counter()
        again = run(split(0.5), Settings(threads=2, runs=tmp_path))    # the same key: pauses are not part of it
        assert time.perf_counter() - began < 2.0                      # 80 tasks of 0.5 s each: not run again
    assert (again.best, again.positions, again.complete) == (19997, 20000, True)
    assert len(log.notes) == 1 and log.notes[0].startswith("resumed from its journal: 80 of 80 tasks were done")
    assert len(list(tmp_path.glob("*.sqlite"))) == 1 and len(log.finished) == 1
    remove_finished(log.finished)
    assert not list(tmp_path.iterdir())


def test_a_time_limit_leaves_an_honest_partial_outcome_and_a_resumable_journal(tmp_path):
    part = run(split(0.05), Settings(threads=2, time_limit=0.5, runs=tmp_path))
    assert not part.complete and part.positions < 20000
    rest = run(split(0.05), Settings(threads=2, runs=tmp_path))
    assert rest.complete and (rest.count, rest.positions) == (1, 20000)


def test_a_resumed_run_reports_its_journals_best_before_its_first_task(tmp_path):
    """The best of the tasks done by earlier runs is reported as soon as the journal is read: a run
    killed before any task of its own ends (a short time limit) still keeps it."""
    part = run(split(0.05), Settings(threads=2, time_limit=0.5, runs=tmp_path))
    assert part.best is not None and part.best < 19997 and not part.complete
    reported = []
    again = run(split(0.05), Settings(threads=2, time_limit=0, runs=tmp_path), on_better=reported.append)
    assert [(o.best, o.witness) for o in reported] == [(part.best, part.witness)]
    assert (again.best, again.positions, again.complete) == (part.best, part.positions, False)


def test_journals_reads_a_partial_run_and_its_copy_resumes_to_the_exact_counters(tmp_path, capsys):
    """`workbench journals` reports a run stopped by its time limit as its journal holds it (tasks
    done, positions of those tasks, the key), says whether a run holds it, and `--copy-to` writes a
    consistent copy that resumes elsewhere to exactly the uninterrupted answer and positions, the
    original untouched; a copy over a journal in use is refused."""
    from workbench.cli import main

    here, there = tmp_path / "here", tmp_path / "there"
    part = run(divided_split(0.05), Settings(threads=2, time_limit=0.6, runs=here))
    (state,) = survey(here)
    done, handed_back = len(task_rows(state.path)), sum(len(row["parts"]) for row in task_rows(state.path))
    assert not part.complete and 0 < state.done == done < state.total == 10 + handed_back
    assert state.positions <= part.positions and state.best is not None and state.best <= part.best
    own = [row["positions"] for row in task_rows(state.path) if row["task"] < 10]
    assert (state.own.done, state.own.positions, state.handed.done) == (len(own), sum(own), done - len(own))
    if len(own) > 1:
        assert state.own.spread == pytest.approx(statistics.stdev(own))
    assert (state.key["top"], state.key["search"], state.running) == (20000, "capped primes", False)
    assert main(["journals", "--dir", str(here), "--copy-to", str(there)]) == 0
    shown = capsys.readouterr().out
    assert f"{done} of {10 + handed_back} tasks done" in shown and f"{state.positions:,} positions" in shown
    assert "idle" in shown and str(there) in shown and ("two standard errors" in shown) == (done > 1)
    (copied,) = survey(there)
    assert (copied.done, copied.positions, copied.key) == (state.done, state.positions, state.key)
    assert [p.name for p in there.iterdir()] == [state.path.name]      # one file: nothing to forget
    rest = run(divided_split(), Settings(threads=2, runs=there))
    assert (rest.best, rest.count, rest.positions, rest.complete) == (19997, 1, 20000, True)
    assert survey(here)[0].done == done                   # the original, as it was
    held = Journal(here, divided_split().key)
    try:
        assert survey(here)[0].running
        with pytest.raises(JournalBusy):
            copy_journal(there / state.path.name, here)
    finally:
        held.close()
    old = Journal(tmp_path / "old", {"search": "squares", "tasks": 511, "code": "0" * 16})
    old.task_done(3, Outcome(positions=7), 1.0)
    old.close()
    assert main(["journals", "--dir", str(tmp_path / "old")]) == 0
    shown = capsys.readouterr().out
    assert "1 of 511 tasks done, 7 positions" in shown and "made by other code (package hash 0000" in shown
    assert main(["journals", "--dir", str(tmp_path / "nowhere")]) == 2
    assert main(["journals", "--dir", str(here), "--copy-to", str(here)]) == 2


def test_journals_names_a_damaged_journal_and_exits_2(tmp_path, capsys):
    from workbench.cli import main

    run(divided_split(0.05), Settings(threads=2, time_limit=0.3, runs=tmp_path))
    (state,) = survey(tmp_path)
    state.path.write_bytes(state.path.read_bytes()[:100] + b"\0" * 4000)
    assert main(["journals", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"the journal {state.path} cannot be read" in err and "--fresh" in err
    with pytest.raises(JournalBroken, match="cannot be read"):       # and a rerun stops before it runs a task
        run(divided_split(), Settings(threads=2, runs=tmp_path))
    assert run(divided_split(), Settings(threads=2, runs=tmp_path, fresh=True)).best == 19997


def working(task: tuple[int, int, float], stop_at: float) -> Outcome:
    """primes_in, then `pause` seconds of work (CPU time of this thread) and as long asleep."""
    lo, hi, pause = task
    out = primes_in((lo, hi, 0.0), stop_at)
    began = time.thread_time()
    while time.thread_time() - began < pause:
        pass
    time.sleep(pause)
    return out


def test_a_journal_times_each_task_by_its_own_work_not_its_wait(tmp_path):
    """Tasks of 0.1 s of work and 0.1 s asleep, on 2 threads that share one GIL, wait in a window
    of 8 before they start: the journal's seconds are each task's own CPU time (about 0.1 s), not
    the 0.2 s or more from its start to its end, nor its wait in the window. (So a run stopped for
    a measurement, or sharing its cores, does not swell the task-hours its projections are made from.)"""
    work = Split("primes", {"top": 20000}, ranges(20000, 250, 0.1), working, maximise=True, codec=PRIMES)
    run(work, Settings(threads=2, time_limit=1.5, runs=tmp_path))
    seconds = [row["seconds"] for row in task_rows(next(tmp_path.glob("*.sqlite")))]
    assert len(seconds) >= 4 and all(0.095 < s < 0.18 for s in seconds), seconds


def finished_row(task: int, end: datetime, seconds: float, positions: int) -> Row:
    return Row(task, Outcome(positions=positions), {}, seconds, None, end.isoformat(), "c0ffee", "here")


def test_the_recent_pace_is_the_tasks_own_speed_and_how_many_ran_at_once():
    """Two workers, each finishing a 60 s task of 6,000 positions a minute, the run stopped 5 h
    halfway through the latest RECENT tasks: 100 positions a task-second and 2 tasks at once (the
    whole span would say 0.2), whatever the rows before them were timed by; one task at a time, 1."""
    start = datetime(2026, 11, 28, 1, 0)
    half = RECENT // 4
    minutes = [*range(1, half + 1), *range(300 + half + 1, 300 + 2 * half + 1)]
    rows = [finished_row(2 * i + w, start + timedelta(minutes=m, seconds=w), 60, 6000)
            for i, m in enumerate(minutes) for w in (0, 1)]
    old = [finished_row(RECENT + i, start - timedelta(hours=1, minutes=i), 600, 6000) for i in range(RECENT)]
    for pace in (_pace(rows), _pace(rows + old)):
        assert pace.rate == 100.0 and pace.workers == pytest.approx(2.0, abs=0.01)
    assert _pace(rows[::2]).workers == 1.0
    assert _pace(rows[:1]) == Pace(100.0, None)


def test_journals_projects_the_work_left_from_the_positions_at_the_recent_speed(tmp_path):
    """Rows made on a machine (or code) ten times slower count for their positions, not their time:
    half the tasks done, the other half's positions go at the recent rows' speed, on their workers."""
    start = datetime(2026, 11, 28, 1, 0)
    slow = [finished_row(i, start + timedelta(minutes=i), 600, 6000) for i in range(RECENT)]
    fast = [finished_row(RECENT + i, start + timedelta(hours=30, minutes=i), 60, 6000) for i in range(RECENT)]
    rows = slow + fast
    state = JournalState(tmp_path, {"tasks": 4 * RECENT}, Tally(len(rows), 6000 * len(rows)), Tally(), 0, None,
                         sum(r.seconds for r in rows), None, False, _pace(rows))
    assert state.seconds_left == pytest.approx(2 * RECENT * 60)
    assert state.hours_left == pytest.approx(2 * RECENT * 60 / 3600)


def test_the_margin_of_the_work_left_covers_the_truth_as_two_standard_errors_should(tmp_path):
    """Heavy-tailed tasks (lognormal positions, 20,000 of them), done in a shuffled order: at half
    and at four fifths done, the projection of the positions left is within its margin in about
    95% of 200 orders (forgetting the sample is drawn without replacement says 100%; taking the
    tasks left for the whole says 34% at four fifths)."""
    draw = random.Random(7)
    tasks = [int(draw.lognormvariate(7, 1.5)) for _ in range(20_000)]
    for done in (10_000, 16_000):
        covered = 0
        for order in range(200):
            sample = random.Random(order).sample(tasks, done)
            own = Tally(done, sum(sample), float(sum(x * x for x in sample)))
            state = JournalState(tmp_path, {"tasks": len(tasks)}, own, Tally(), 0, None, 0.0, None, False,
                                 Pace(1.0, 1.0))
            assert state.seconds_left is not None and state.margin is not None
            covered += abs(state.seconds_left - (sum(tasks) - sum(sample))) <= state.margin
        assert 0.9 <= covered / 200 <= 0.99


def test_the_margin_covers_the_speed_of_the_recent_tasks_too(tmp_path):
    """Tasks whose speeds differ (each its own lognormal positions a second), done in a shuffled
    order: the task-seconds left are within the margin in about 95% of 200 orders, at half and at
    four fifths done (the positions' error alone covers about 65%)."""
    draw = np.random.default_rng(7)
    positions = draw.lognormal(7, 1.5, 20_000).astype(int) + 1
    seconds = positions / (100 * draw.lognormal(0, 0.6, positions.size))
    start = datetime(2026, 11, 28, 1, 0)
    for done in (10_000, 16_000):
        covered = 0
        for order in range(200):
            tasks = np.random.default_rng(order).permutation(positions.size)
            sample = positions[tasks[:done]]
            recent = [finished_row(int(i), start + timedelta(seconds=k), float(seconds[i]), int(positions[i]))
                      for k, i in enumerate(tasks[done - RECENT:done])]
            own = Tally(done, int(sample.sum()), float((sample.astype(float) ** 2).sum()))
            state = JournalState(tmp_path, {"tasks": positions.size}, own, Tally(), 0, None, 0.0, None, False,
                                 _pace(recent))
            assert state.seconds_left is not None and state.margin is not None
            covered += abs(state.seconds_left - seconds[tasks[done:]].sum()) <= state.margin
        assert 0.9 <= covered / 200 <= 0.99


def test_the_windowed_loop_keeps_its_slots_and_lets_a_wide_job_wait_for_room():
    """Jobs of 1 and 2 slots on a window of 2: never more than 2 slots held at once, the wide job
    runs alone, between() runs while jobs run, and every result reaches done() under its name."""
    sizes = [1, 1, 2, 1, 2, 1, 1]
    held: list[int] = []
    results: dict[int, int] = {}
    ticks = []

    def take(free: int, running: list[tuple[int, float]]) -> Job | None:
        i = len(results) + len(running)          # the next job: those handed out are done or running
        if i == len(sizes) or (running and sizes[i] > free):
            return None
        held.append(sum(sizes[j] for j, _ in running) + sizes[i])
        return Job(i, sizes[i], lambda x: (time.sleep(0.05), x * x)[1], (i,))

    def done(name: int, value: int, began: float) -> None:
        results[name] = value

    with executor(Settings(threads=2)) as (pool, workers):
        window(pool, workers, take, done, lambda: ticks.append(1))
    assert results == {i: i * i for i in range(len(sizes))}
    assert max(held) == 2 and held.count(2) >= 3 and ticks     # each 2-slot job held the window alone
    with fan_out(3) as each:
        assert list(each(lambda x: x + 1, range(5))) == [1, 2, 3, 4, 5]


def test_one_journal_one_user(tmp_path):
    key = split().key
    held = Journal(tmp_path, key)
    with pytest.raises(JournalBusy):
        Journal(tmp_path, key)
    held.close()
    Journal(tmp_path, key).close()


@pytest.mark.parametrize("make, enough, tasks", [("split", 25, 80), ("divided_split", 25, 70)])
def test_sigkill_halfway_then_resume_gives_exactly_the_uninterrupted_counters(tmp_path, make, enough, tasks):
    """Killed with about a third of its tasks committed (divided_split: with the parts they handed
    back), then run again: exactly the counters of an uninterrupted run."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path; import test_tasks as t; "
            "from workbench.search.tasks import Settings, run; "
            f"run(t.{make}(0.1), Settings(threads=2, runs=Path(sys.argv[2]), quiet=True))")
    child = subprocess.Popen([sys.executable, "-c", code, str(HERE), str(tmp_path)])
    journal = None
    for _ in range(300):            # until `enough` tasks are committed
        time.sleep(0.1)
        journal = next(tmp_path.glob("*.sqlite"), None)
        try:
            if journal and len(task_rows(journal)) >= enough:
                break
        except sqlite3.OperationalError:        # the file exists, its table not yet
            pass
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    done = len(task_rows(journal))
    assert enough <= done < tasks
    resumed = run(globals()[make](0.1), Settings(threads=2, runs=tmp_path))
    assert resumed.complete and (resumed.count, resumed.positions, resumed.best) == (1, 20000,
                                                                                     19997)


@pytest.fixture
def importable(monkeypatch):
    """Dask's worker processes must import the kernel's module."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))


def test_a_local_dask_cluster_gives_what_threads_give(tmp_path, importable):
    threads = run(split(), Settings(threads=2, journal=False))
    dask = run(split(), Settings(cluster="local:2", runs=tmp_path))
    assert (dask.best, dask.count, dask.positions, dask.complete) == (threads.best, threads.count,
                                                                       threads.positions, True)


def test_a_scheduler_and_two_workers_started_by_hand(tmp_path, importable):
    scheduler_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "distributed.cli.dask_"]
    started = [subprocess.Popen(dask[:2] + ["distributed.cli.dask_scheduler", "--scheduler-file", str(scheduler_file),
                                            "--port", "0", "--dashboard-address", ":0"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        for _ in range(200):
            if scheduler_file.is_file():
                break
            time.sleep(0.1)
        started += [subprocess.Popen(dask[:2] + ["distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file),
                                                 "--nthreads", "1", "--no-dashboard"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
        out = run(split(), Settings(cluster=str(scheduler_file), runs=tmp_path))
        assert (out.count, out.positions, out.complete) == (1, 20000, True)
    finally:
        for process in started:
            process.kill()
            process.wait()


def _journal_progress(folder: Path) -> tuple[int, int]:
    """(tasks committed, tasks in all) of the one journal in `folder`, (0, 1) before it exists."""
    path = next(folder.glob("*.sqlite"), None)
    if path is None:
        return 0, 1
    try:
        db = sqlite3.connect(path)
        key = json.loads(db.execute("SELECT key FROM search").fetchone()[0])
        return len(task_rows(path)), key["tasks"]
    except (sqlite3.Error, TypeError):         # created but not yet written
        return 0, 1


def killed_a_third_of_the_way_then_rerun(arguments: list[str], journals: Path) -> dict:
    """Run the command, SIGKILL it (and its worker) once a third of its tasks are journaled, check
    that it stopped partway, then rerun it to the end: the rerun's JSON record."""
    env = dict(os.environ, WORKBENCH_JOURNALS=str(journals))
    command = [sys.executable, "-m", "workbench", *arguments, "--json", "--time-limit", "900"]
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    for _ in range(6000):
        time.sleep(0.05)
        done, total = _journal_progress(journals)
        if done >= max(1, total // 3) or child.poll() is not None:
            break
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    done, total = _journal_progress(journals)
    assert 0 < done < total
    return json.loads(subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout)


def test_stones_a4_killed_halfway_resumes_to_the_uninterrupted_positions(tmp_path):
    """`solve stones --n 4 --target 38 --all` killed with SIGKILL partway, then rerun: 38, its 4
    optimal boards and exactly 806,732 positions, the counts of an uninterrupted run (the search
    without a target, 61,834,132 positions, is the heavy case below)."""
    record = killed_a_third_of_the_way_then_rerun(["solve", "stones", "--n", "4", "--target", "38", "--all"],
                                                  tmp_path)
    assert (record["objective"], record["status"], record["verified"]) == (38, "optimal", True)
    assert record["message"].startswith("806,732 positions"), record["message"]
    assert "4 optimal boards up to symmetry" in record["message"], record["message"]
    assert re.search(r"resumed from its journal: [1-9]\d* of \d+ tasks were done by earlier runs", record["message"])
    assert not list(tmp_path.glob("*.sqlite"))            # finished: the journal is gone


def test_stones_tasks_capped_at_any_size_add_up_to_the_uncapped_search(tmp_path):
    """Tasks that hand the rest of their work back after a few positions, again and again: the same
    answer and exactly the same positions as the uncapped search."""
    from workbench.puzzles.stones.search import search

    whole = search(3, Settings(threads=2, journal=False, quiet=True))
    assert (whole.best, whole.positions, whole.complete) == (28, 192651, True)
    for cap in (2000, 300):
        capped = search(3, Settings(threads=2, journal=False, quiet=True), split_after=cap)
        assert (capped.best, capped.positions, capped.complete) == (28, 192651, True)
        assert capped.tasks > 2 * whole.tasks


@pytest.mark.heavy
def test_stones_a4_with_capped_tasks_stopped_by_its_time_limit_resumes_exactly(tmp_path):
    """a(4) with tasks capped at 1e5 positions, stopped by a time limit with handed-back parts in
    its journal, then run again: 38 with exactly 61,834,132 positions."""
    from workbench.puzzles.stones.search import search

    search(3, Settings(threads=2, journal=False, quiet=True), split_after=300)     # compiled before the clock runs
    part = search(4, Settings(threads=2, time_limit=6, runs=tmp_path, quiet=True), split_after=100_000)
    assert not part.complete
    assert sum(len(row["parts"]) for row in task_rows(next(tmp_path.glob("*.sqlite")))) > 0
    rest = search(4, Settings(threads=2, runs=tmp_path, quiet=True), split_after=100_000)
    assert (rest.best, rest.positions, rest.complete) == (38, 61834132, True)


def test_percolation_transfer_count_killed_halfway_resumes_to_the_published_count(tmp_path):
    """`count percolation --n 8 --formulation transfer` killed partway, then rerun: A146971(8) exactly."""
    record = killed_a_third_of_the_way_then_rerun(["count", "percolation", "--n", "8", "--formulation", "transfer"],
                                                  tmp_path)
    assert (record["count"], record["status"], record["match"]) == (7006916, "complete", "yes")


def test_stones_on_a_local_dask_cluster_gives_the_answer_and_counters_of_threads(tmp_path):
    from workbench.puzzles.stones.search import search

    threads = search(3, Settings(threads=2, journal=False, quiet=True))
    dask = search(3, Settings(cluster="local:2", runs=tmp_path, quiet=True), split_after=2000)   # parts too
    assert threads.best == 28 and dask.tasks > threads.tasks
    assert (dask.best, dask.positions, dask.complete) == (threads.best, threads.positions, True)


def test_squares_all_killed_halfway_resumes_to_the_uninterrupted_count(tmp_path):
    """`solve squares --n 24 --all` killed partway, then rerun: 6 optimal solutions of 340 matches
    and exactly 2,157,875 positions, what an uninterrupted run gives (on 1 or 2 threads alike; one size
    pooled, the default at n = 24; 1,013,080 with --pooled 3, 6,291,299 with --pooled 0)."""
    record = killed_a_third_of_the_way_then_rerun(["solve", "squares", "--n", "24", "--solver", "search", "--all"],
                                                  tmp_path)
    assert (record["objective"], record["count"], record["status"], record["verified"]) == (340, 6, "optimal", True)
    assert "2,157,875 positions searched" in record["message"], record["message"]


def test_squares_on_a_local_dask_cluster_counts_what_threads_count(tmp_path):
    from workbench.puzzles.squares.dfs import exact
    from workbench.search.deadline import NEVER

    threads = exact(20, 0, 264, True, NEVER, Settings(threads=2, journal=False, quiet=True))
    dask = exact(20, 0, 264, True, NEVER, Settings(cluster="local:2", runs=tmp_path, quiet=True))
    assert (threads.best, threads.count, threads.complete) == (264, 7, True)
    assert (dask.best, dask.count, dask.positions, dask.complete) == (264, 7, threads.positions, True)


def test_a_squares_journal_moved_to_another_folder_resumes_to_the_uninterrupted_count(tmp_path, capsys):
    """A journal is found by its key alone, which holds the search, the board, the bound being
    proved and the code version, and no path or host name: a partial run of `--all` at n = 24
    stopped by its time limit, its journal moved to another folder (another machine would do the
    same), resumes there to exactly the uninterrupted answer and positions."""
    import socket

    from workbench.puzzles.squares.dfs import Placements, exact, search
    from workbench.search.deadline import NEVER, Deadline

    search(Placements.build(8), 69, counting=True)          # compiled before any clock runs
    whole = exact(24, 0, 340, True, NEVER, Settings(threads=2, journal=False, quiet=True))
    here, there = tmp_path / "here", tmp_path / "there"
    for seconds in (0.3, 0.6, 1.2, 2.4):
        part = exact(24, 0, 340, True, Deadline.after(seconds), Settings(threads=2, runs=here, quiet=True))
        done, total = _journal_progress(here)
        if not part.complete and done > 0:
            break
    assert not part.complete and 0 < done < total
    path = next(here.glob("*.sqlite"))
    key = sqlite3.connect(path).execute("SELECT key FROM search").fetchone()[0]
    assert json.loads(key)["threshold"] == 340 and json.loads(key)["board"] == [24, 0]
    assert str(tmp_path) not in key and socket.gethostname() not in key
    from workbench.cli import main
    assert main(["journals", "--dir", str(here)]) == 0
    assert "resumes from this checkout" in capsys.readouterr().out
    there.mkdir()
    for file in here.glob("*.sqlite*"):
        file.rename(there / file.name)
    rest = exact(24, 0, 340, True, NEVER, Settings(threads=2, runs=there, quiet=True))
    assert (rest.best, rest.count, rest.positions, rest.complete) == (340, 6, whole.positions, True)
    assert whole.count == 6 and not list(there.glob("*.sqlite"))


def test_a_native_runs_options_become_the_task_layers_settings_in_one_place():
    """Settings.of is the one translation the searches use (stones, squares, percolation transfer)."""
    from workbench.solvers.base import Options

    options = Options(time_limit=9.0, threads=3, cluster="local:2", fresh=True, quiet=True)
    assert Settings.of(options, 5.0) == Settings(3, 5.0, "local:2", fresh=True, quiet=True)
    assert Settings.of(options).time_limit is None and Settings.of(Options()).cluster is None
