"""What the hunt runs next: its jobs (beam runs, exhaustive endings, sweeps), the records so far,
and the plan that picks each job from them (Plan)."""
from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from .beam import LEXICOGRAPHIC, random_weights, to_sequence
from .lookahead import LOOKAHEAD_WIDTH, ONE_WORTH, WORTHS, loose_ones
from .sweep import SWEEP_LOOKAHEAD, SWEEP_SHARE, SWEEP_WIDTH, SWEPT_BY_DEFAULT


@dataclass
class Records:
    """The best board per number of ones used (value, board), kept by the hunt's driver."""

    nmax: int
    value: list[int] = field(default_factory=list)
    board: list[list[list[int]] | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.value = [1] * (self.nmax + 1)
        self.board = [None] * (self.nmax + 1)

    def best(self, n: int) -> tuple[int, list[list[int]] | None]:
        """The best board using at most n ones."""
        u = max(range(n + 1), key=lambda i: (self.value[i], -i))
        return self.value[u], self.board[u]

    def offer(self, ones: int, value: int, board: list[list[int]]) -> bool:
        """Keep the board if it beats the one held for its ones count; True if it does."""
        if ones > self.nmax or value <= self.value[ones]:
            return False
        self.value[ones], self.board[ones] = value, board
        return True


@dataclass(frozen=True)
class Restart:
    """One beam run of the hunt, picklable so that the task layer can run it on any worker. `start`
    is a placement sequence (empty: every first move); `origin` says where it comes from (log).
    With `worth` > 0 it is a lookahead beam (that worth per one in hand) and `weights` and `horizon`
    are unused."""

    nmax: int
    width: int
    weights: tuple[float, ...]
    seed: int
    filter: str = "near"
    horizon: int = 1 << 20
    start: tuple[int, ...] = ()
    origin: str = ""
    ones: int = 0             # the ones count it serves (its log line reports that count's best)
    worth: float = 0.0
    threads: int = 1          # a lookahead beam's threads (they score its children)
    swept: bool = False       # a lookahead finishing a board of a class sweep (its time is the sweep's)


@dataclass(frozen=True)
class Ending:
    """The exhaustive ending of a board (finish), as a job of the hunt."""

    n: int
    board: list[list[int]]
    seconds: float
    origin: str = "exhaustive ending"


@dataclass(frozen=True)
class Sweep:
    """The ranking half of a class sweep (sweep_order) as a job of the hunt; the hunt then finishes
    each board it returns with a lookahead beam, one job each."""

    ones: int
    seed: int
    filter: str = "near"
    threads: int = 1
    width: int = SWEEP_WIDTH
    origin: str = "class sweep"


Job = Restart | Ending | Sweep


def kind(job: Job) -> str:
    """Whose share of the worker time a job spends."""
    if isinstance(job, Sweep) or (isinstance(job, Restart) and job.swept):
        return "sweep"
    if isinstance(job, Restart):
        return "lookahead" if job.worth else "counting"
    return "ending"


def book(totals: dict[str, float], job: Job, seconds: float) -> None:
    """Add a job's wall time, times the threads it holds, to its kind's worker-seconds (endings are
    not counted)."""
    if (what := kind(job)) in totals:
        totals[what] += seconds * (1 if isinstance(job, Ending) else job.threads)


Found = dict[int, tuple[int, list[list[int]]]]     # ones used -> (value, board)
Ranked = list[tuple[int, ...]]                      # a sweep's boards to finish, as placement sequences


class Plan:
    """What the hunt runs next. Fresh runs: the first lexicographic, then random weights, widths
    doubling from 10^4 up to `width`. Re-runs from a best board's first M numbers, M descending from
    just below it after each improvement, then at random; half of them keep the board's ones but
    one that touches no number yet. With nmax > n the re-runs take the ones counts n..nmax in turn,
    so that one hunt serves a whole table. Each new best board gets an exhaustive ending (finish).
    A class sweep for n ones (sweep_order, then a lookahead beam from each board it ranks) holds
    `sweep` of the worker time while it has work."""

    def __init__(self, n: int, nmax: int, width: int, filt: str, seed: int, limit: float,
                 lookahead_width: int = LOOKAHEAD_WIDTH, lookahead_threads: int = 1,
                 sweep: float = SWEEP_SHARE) -> None:
        self.n, self.nmax, self.width, self.filter, self.limit = n, nmax, width, filt, limit
        self.lookahead_width, self.lookahead_threads, self.sweep = lookahead_width, lookahead_threads, sweep
        self.rng = np.random.default_rng(seed)
        self.records = Records(nmax)
        self.runs = self.fresh = self.counting = self.looks = 0
        self.spent = {"counting": 0.0, "lookahead": 0.0, "sweep": 0.0}   # worker-seconds of ended jobs, by kind
        self.unswept = [n] if sweep > 0 and n >= 6 else []   # counts still to rank (n: its class holds a one)
        self.ranking = False                                  # a sweep's ranking job is out
        self.to_finish: list[tuple[int, int, int, tuple[int, ...]]] = []   # (ones, place, of, start) from sweeps
        self.cut = dict.fromkeys(range(n, nmax + 1), 0)       # per count: the descent's next prefix length
        self.finished = dict.fromkeys(range(n, nmax + 1), 0)  # per count: the best value given an ending

    def absorb(self, found: Found) -> list[tuple[int, int, list[list[int]]]]:
        """Keep the boards that beat the records; returns them, and restarts the descent of each
        count whose best board improved."""
        old = {u: self.records.best(u)[0] for u in self.cut}
        better = [(u, v, b) for u, (v, b) in sorted(found.items()) if self.records.offer(u, v, b)]
        for u in self.cut:
            if self.records.best(u)[0] > old[u]:
                self.cut[u] = self.records.best(u)[0] - 3
        return better

    def best(self) -> tuple[int, list[list[int]] | None]:
        return self.records.best(self.n)

    def ranked(self, u: int, order: Ranked) -> None:
        """A sweep's ranking came back: its boards wait to be finished, best first."""
        self.ranking = False
        self.to_finish += [(u, place, len(order), start) for place, start in enumerate(order)]

    def due(self, load: dict[str, float]) -> str:
        """The kind of job whose share of the worker time is the most behind (ties: sweep, then
        lookahead, then counting). Sweeps hold `sweep` of it while they have work; lookahead and
        counting beams split the rest evenly: a lookahead beam holds every thread for minutes and a
        counting beam takes seconds, so alternating jobs would leave counting beams almost none
        (with 12 ones they found better boards for 10..12 ones than the lookaheads)."""
        sweeping = self.sweep if self.to_finish or (self.unswept and not self.ranking) else 0.0
        looking = (1 - sweeping) / 2 if self.lookahead_width else 0.0
        share = {"sweep": sweeping, "lookahead": looking, "counting": 1 - sweeping - looking}
        return min((what for what in share if share[what] > 0), key=lambda what: load[what] / share[what])

    def sweep_job(self) -> Job:
        """The next board a sweep ranked, finished by a lookahead beam on one thread; else the next
        count's ranking, on every thread."""
        if self.to_finish:
            u, place, of, start = self.to_finish.pop(0)
            return Restart(u, SWEEP_LOOKAHEAD, (), int(self.rng.integers(1 << 31)), self.filter, start=start,
                           origin=f" (class sweep for {u} ones, board {place + 1} of {of})",
                           ones=u, worth=ONE_WORTH, swept=True)
        self.ranking = True
        return Sweep(self.unswept.pop(0), int(self.rng.integers(1 << 31)), self.filter, self.lookahead_threads,
                     min(self.width, SWEEP_WIDTH))

    def next_job(self, left: float, running: Iterable[tuple[Job, float]] = ()) -> Job:
        """The next job; the running jobs (each with when it began) count so far beside `spent`."""
        for u in self.cut:
            best, board = self.records.best(u)
            if board is not None and best > self.finished[u] and best >= 10:
                self.finished[u] = best
                share = 0.1 * self.limit / len(self.cut)     # a tenth of the time, spread over the counts
                return Ending(u, board, min(30.0, share, left), f"exhaustive ending ({u} ones)")
        self.runs += 1
        r = self.rng
        u = self.n + self.runs % len(self.cut)
        best, board = self.records.best(u)
        load, now = dict(self.spent), time.monotonic()
        for held, began in running:
            book(load, held, now - began)
        due = self.due(load) if self.counting else "counting"      # the first run counts
        if due == "sweep":
            return self.sweep_job()
        if due == "lookahead":
            return self.lookahead_job(u, best, board)
        self.counting += 1
        first = self.counting == 1
        weights = LEXICOGRAPHIC if first else random_weights(r)
        horizon = 1 << 20 if first or r.random() < 0.5 else int(r.integers(15, 36))
        wide = min(self.width, 10000 << self.fresh)
        job = Restart(self.nmax, wide, tuple(map(float, weights)), int(r.integers(1 << 31)), self.filter, horizon)
        if board is None or best < 12 or (self.cut[u] < best // 6 and self.counting % 2):
            self.fresh += 1
            return job
        if self.cut[u] >= best // 6:
            cut = self.cut[u]
            self.cut[u] -= max(2, best // 20)
        else:
            cut = int(r.integers(best // 6, best - 3))
        kept: frozenset[tuple[int, int]] = frozenset()
        if r.random() < 0.5:
            loose = sorted(loose_ones(board, cut))
            if loose:
                drop = loose[int(r.integers(len(loose)))]
                kept = frozenset((a, b) for a, b, v in board if v == 1 and (a, b) != drop)
        try:
            start = tuple(to_sequence(board, cut, kept))
        except ValueError:                    # a board from finish() too large for the grid
            self.fresh += 1
            return job
        focus = f" ({u} ones)" if self.nmax > self.n else ""
        return replace(job, start=start, origin=f" from {cut}{' keeping ones' if kept else ''}{focus}", ones=u)

    def lookahead_job(self, u: int, best: int, board: list[list[int]] | None) -> Restart:
        """A lookahead beam on `lookahead_threads` threads, widths doubling from
        `lookahead_width` (to 8 times it), with the worth of a one ONE_WORTH, then drawn from WORTHS; every second
        one re-runs the best board for u ones from a random cut."""
        r = self.rng
        self.looks += 1
        width = self.lookahead_width << min(3, self.looks // 2)
        worth = ONE_WORTH if self.looks == 1 else float(r.uniform(*WORTHS))
        job = Restart(self.nmax, width, (), int(r.integers(1 << 31)), self.filter, origin=" (lookahead)",
                      worth=worth, threads=self.lookahead_threads)
        if board is None or best < 12 or self.looks % 2:
            return job
        cut = int(r.integers(best // 6, best - 3))
        try:
            start = tuple(to_sequence(board, cut))
        except ValueError:
            return job
        return replace(job, start=start, origin=f" (lookahead) from {cut} ({u} ones)", ones=u)


@dataclass(frozen=True)
class HuntOptions:
    """How a hunt runs: where (threads, or a Dask cluster), its seed, the widest beam, the filter
    for new ones, the most ones its beams track (default n), the first lookahead width (0: none),
    the class sweeps' share of the worker time (0: none)."""

    threads: int = 1
    seed: int = 0
    width: int = 200000
    filter: str = "near"
    nmax: int | None = None
    cluster: str | None = None
    lookahead: int = LOOKAHEAD_WIDTH
    sweep: float | None = None

    def sweep_share(self, n: int) -> float:
        """The class sweep's share of the worker time: as given, else SWEEP_SHARE for the counts
        where a sweep is measured to help."""
        return self.sweep if self.sweep is not None else SWEEP_SHARE if n in SWEPT_BY_DEFAULT else 0.0
