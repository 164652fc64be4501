"""The work a split run has left: its own tasks priced at their mean, a handed-back part at the
finished parts' with the parts it will hand back in turn, shared by the progress line and `journals`."""
from __future__ import annotations

import random

import pytest

from workbench.search.forecast import Forecast, Tally, forecast
from workbench.search.outcome import Outcome
from workbench.search.tasks.progress import TaskProgress


def test_a_handed_back_part_is_priced_at_the_finished_parts_with_the_parts_it_will_hand_back():
    """100 own tasks of 1,000 positions done, 2 of them cut at their cap, each handing back 2
    parts; 2 parts done of 10^6 positions, one handing back 1 more. The 3 parts left, each
    handing back 1/2 a part on average, are 6 parts of 10^6 (the mean task, 3 x 20,588, would say
    minutes where it is hours). With no part done yet, the parts count as mean tasks and the
    estimate says it is a floor; the progress line says so too."""
    own = Tally(100, 100_000, 100 * 1e6, handed=4)
    parts = Tally().plus(10**6, 1).plus(10**6)
    ahead = forecast(own, 100, parts, 5)
    assert ahead is not None and (ahead.positions, ahead.floor) == (pytest.approx(6e6), False)
    assert forecast(own, 100, Tally(), 4) == Forecast(4000, 0.0, True)
    progress = TaskProgress(100, 4, quiet=True, done=(own, Tally()))
    progress.update(100, Outcome(positions=10**6), Outcome(), handed=1)
    progress.started -= 10
    assert progress.eta() == "at least 40 s left"       # 4 parts left, m = 1 so far: 4 x 10^6 at 10^5 a second
    progress.update(101, Outcome(positions=10**6), Outcome())
    assert progress.eta().startswith("about ") and progress.done == 102 and progress.tasks == 105


def test_the_forecast_of_a_run_with_handed_back_parts_is_right_within_its_roughness():
    """A simulated run: 2,000 own tasks (lognormal positions), 1% of them cut at their cap and
    handing back 2 parts; a part is 100 times heavier and hands back 3 parts with chance 0.2.
    Read once the own tasks and 40 parts are done, over 300 runs: the forecasts sum to within a
    factor of 2 of the truths (they err high: see forecast) and the margin covers the truth in
    over 80% of runs; pricing a part at the mean task says under a tenth."""
    forecasts, truths, mean_task, covered = [], [], [], 0
    for run_seed in range(300):
        draw = random.Random(run_seed)
        own = Tally()
        for _ in range(2000):
            own = own.plus(int(draw.lognormvariate(7, 1)), 2 if draw.random() < 0.01 else 0)
        pending, parts = own.handed, Tally()
        while pending and parts.done < 40:
            pending -= 1
            handed = 3 if draw.random() < 0.2 else 0
            parts, pending = parts.plus(int(100 * draw.lognormvariate(7, 1)), handed), pending + handed
        truth, left = 0, pending
        while left:
            left -= 1
            truth += int(100 * draw.lognormvariate(7, 1))
            left += 3 if draw.random() < 0.2 else 0
        ahead = forecast(own, 2000, parts, parts.done + pending)
        assert ahead is not None
        forecasts.append(ahead.positions)
        truths.append(truth)
        mean_task.append(pending * (own.positions + parts.positions) / (own.done + parts.done))
        covered += abs(ahead.positions - truth) <= 2 * ahead.error
    assert 0.5 < sum(forecasts) / sum(truths) < 2 and covered / 300 > 0.8
    assert sum(mean_task) / sum(truths) < 0.1


def test_a_resumed_runs_time_left_is_the_mean_task_of_every_run_at_its_own_speed():
    """100 tasks done before, of 10,000 positions each; this run's first task, 1,000 positions in
    10 s: the 99 left take about 99 x 9,911 / 100 s (its own count of one task would say 990 s)."""
    progress = TaskProgress(200, 0, quiet=True, done=(Tally(100, 100 * 10_000), Tally()))
    progress.update(150, Outcome(positions=1_000), Outcome())
    progress.started -= 10
    seconds = float(progress.eta().split()[1].replace(",", ""))
    assert seconds == pytest.approx(99 * 1_001_000 / 101 / 100, rel=0.01)
