"""How a split search runs (threads or a cluster, its time limit, its journal), made in one place
from a native run's Options."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...models.core import Options

JOURNALS = "WORKBENCH_JOURNALS"      # environment variable: where journals go (default runs/journals)


def journals() -> Path:
    """Where journals go: $WORKBENCH_JOURNALS, read at each use (tests and workers point it elsewhere)."""
    return Path(os.environ.get(JOURNALS, "runs/journals"))


@dataclass
class Settings:
    """How a split search runs: where, for how long, with which journal."""

    threads: int = 2
    time_limit: float | None = None
    cluster: str | None = None      # None: threads; local:K, tcp://HOST:PORT or a scheduler file
    journal: bool = True
    fresh: bool = False             # forget the journal and start over
    quiet: bool = False
    runs: Path = field(default_factory=journals)

    @classmethod
    def of(cls, options: Options, time_limit: float | None = None) -> Settings:
        """A native run's options as the task layer takes them; `time_limit`: what the search has
        left for its tasks (None: no limit of their own)."""
        return cls(options.threads, time_limit, options.cluster, fresh=options.fresh, quiet=options.quiet)
