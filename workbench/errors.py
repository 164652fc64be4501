"""Every error the workbench raises on purpose, under one WorkbenchError: the ground floor, importing
nothing of the project, so that any layer can raise them and a caller can catch them all at once.

The modules that raise them re-export them under their old names (puzzles.base.BadInput, ...). The
command line prints a WorkbenchError as one line and exits with its `exit_status` (2: bad input)."""
from __future__ import annotations

from typing import Any


class WorkbenchError(Exception):
    """An error the workbench raised on purpose: its message is the one line the user sees."""

    exit_status = 2         # the command line's exit status for it


class BadInput(WorkbenchError):
    """User error: the CLI prints the message on one line and exits with status 2."""


class UnknownSolver(WorkbenchError, ValueError):
    """A backend name not in the registry (a ValueError too, as it was first)."""


class Unavailable(WorkbenchError):
    """The backend cannot run here (library or executable missing); the message says how to get it."""


class UnsupportedModel(WorkbenchError):
    """The backend does not take this model kind."""


class JournalBusy(WorkbenchError):
    """Another process holds this search's journal."""


class JournalBroken(WorkbenchError):
    """A journal that cannot be read or is not trusted: the message names it and the way out (--fresh)."""


class SchedulerUnreachable(WorkbenchError):
    """The --cluster scheduler did not answer: the run ends with an error naming it."""


class Refused(WorkbenchError):
    """A search that cannot answer this request (say, n beyond its range): the run's error message."""


class RowNotStored(WorkbenchError):
    """A table's run answered, but its row could not be written (a full disk, a file made
    unwritable meanwhile): its answer went to on_row first and its search's journal is kept, so a
    rerun stores it in seconds. `runs`: the table's runs so far (pipeline.Run), this one last;
    `exit_status`: 1 for a failing disk, 2 for a file that is no longer a workbench table (bad input,
    as ever)."""

    def __init__(self, message: str, runs: list[Any], exit_status: int = 1) -> None:
        super().__init__(message)
        self.runs, self.exit_status = runs, exit_status


class BadRow(WorkbenchError, ValueError):
    """A results row that cannot be read back (edited by hand, say): a rerun recomputes its N."""


class NotOurs(BadInput):
    """A file the workbench did not write (its header is not a table's): it is never changed."""


class BrokenStore(WorkbenchError):
    """The hunt's store is not a store (garbage, or edited into something else): it is left as it is."""


class CompileCut(WorkbenchError):
    """The time limit ran out while MiniZinc compiled the file: no model, no backend run."""


class NotLinear(WorkbenchError):
    """MiniZinc's linear library cannot flatten the file, or left what the FlatZinc reader does not
    take (float variables, say): the linear backends cannot take it (status unsupported)."""
