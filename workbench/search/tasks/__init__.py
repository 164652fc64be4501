"""One task layer for every exhaustive search: split, run on every core or on a Dask cluster,
journal each finished task, reduce.

A search is cut into many small, picklable task descriptors (many more than workers, so that the
tail never leaves cores idle). A kernel runs one task and returns an Outcome; the outcomes reduce
with Outcome.merge (the best value with its witness, exact sums of counts and positions). A task
may hand part of its work back (Outcome.parts: a search that caps its tasks' positions does), and
the parts run as new tasks, so that one giant subtree never holds up the end of a run. Each
finished task, with the parts it handed back, is committed to a SQLite journal as it arrives, so
a killed run resumes where it stopped, with the same final answer and the same counters as an
uninterrupted one.

Executors: local threads (the numba kernels release the GIL), or Dask distributed (`local:K` for a
LocalCluster of K worker processes, `tcp://HOST:PORT` or a scheduler file for a real cluster). Both
are driven through the concurrent.futures interface, with a bounded window of tasks in flight. The
journal, not Dask, is the record of what is done.

One concept a module: split (a search cut into tasks, run and reduced), window (the loop that keeps
workers busy), executor (threads or Dask), settings (how a run goes, from a native run's Options),
progress (what it shows), address (--cluster); the journal is search/journal.py, what `journals` reads of
it search/survey.py.
"""
from __future__ import annotations

from ...errors import SchedulerUnreachable as SchedulerUnreachable
from ..journal import Journal as Journal
from ..journal import JournalBroken as JournalBroken
from ..journal import JournalBusy as JournalBusy
from ..journal import JournalLog as JournalLog
from ..journal import journal_log as journal_log
from ..journal import remove_finished as remove_finished
from ..survey import copy_journal as copy_journal
from ..survey import survey as survey
from .address import cluster_address as cluster_address
from .executor import executor as executor
from .executor import fan_out as fan_out
from .settings import JOURNALS as JOURNALS
from .settings import Settings as Settings
from .settings import journals as journals
from .split import Split as Split
from .split import code_version as code_version
from .split import run as run
from .window import Job as Job
from .window import window as window
