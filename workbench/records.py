"""The one schema of a stored run: a frozen, typed Record, and the Status it carries.

A results table's row, a `solve --json` record and a bench row are three spellings of one Record:
every writer makes a Record and every reader takes one, so no module parses "True" or "optimal"
out of CSV text again. The ground floor: it imports nothing of the project but its errors."""
from __future__ import annotations

import enum
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .errors import BadInput, BadRow


class Status(str, enum.Enum):
    OPTIMAL = "optimal"        # proven: gap 0
    COMPLETE = "complete"      # a count: every solution was enumerated, so the count is exact
    FEASIBLE = "feasible"      # a solution, not proven optimal (time limit, or the backend cannot prove)
    INFEASIBLE = "infeasible"  # proven: no solution
    UNKNOWN = "unknown"        # stopped before finding anything
    UNSUPPORTED = "unsupported"  # the backend cannot take this model (continuous variables, say); see message
    ERROR = "error"            # the backend failed; see Result.message

    def __str__(self) -> str:
        return self.value

    @property
    def answered(self) -> bool:
        """Whether the backend gave an answer at all (it neither failed nor refused the model)."""
        return self not in (Status.ERROR, Status.UNSUPPORTED)

    @property
    def proves(self) -> bool:
        """A proof: the optimum, a complete count, or that there is no solution."""
        return self in (Status.OPTIMAL, Status.COMPLETE, Status.INFEASIBLE)

    @property
    def has_solution(self) -> bool:
        """A status under which a run carries a solution (or a count's examples)."""
        return self in (Status.OPTIMAL, Status.COMPLETE, Status.FEASIBLE)

    @classmethod
    def parse(cls, text: str) -> Status:
        """The status a record names; BadRow for any other word (a row edited by hand, say)."""
        try:
            return cls(text)
        except ValueError:
            raise BadRow(f"unknown status {str(text)[:40]!r} (known: {', '.join(s.value for s in cls)})") from None


Number = int | float

COLUMNS = ["puzzle", "variant", "n", "formulation", "solver", "setting", "status", "objective", "bound", "proven",
           "verified", "count", "seconds", "published", "published_status", "match", "solver_version",
           "time_limit", "threads", "timestamp", "message", "solution", "command"]
# The order of results/bench.csv's header, so that a bench file of its own (`-o`) lines up with it.
BENCH_COLUMNS = ["label", "puzzle", "n", "solver", "formulation", "time_limit", "threads", "status", "value",
                 "bound", "proven", "verified", "seconds", "solver_version", "published", "match", "timestamp",
                 "solve_seconds", "count", "certificate", "check_seconds", "proof_bytes", "positions", "machine"]


def setting_text(setting: Mapping[str, Any]) -> str:
    """A setting as a table's key writes it: sorted compact JSON, '' for none."""
    return json.dumps(dict(sorted(setting.items())), separators=(",", ":")) if setting else ""


def key(puzzle: str, variant: str, n: int | None, formulation: str, solver: str,
        setting: Mapping[str, Any]) -> tuple[str, ...]:
    """A table row's identity: a rerun of `table` skips a finished row with the same key."""
    return (puzzle, variant, "" if n is None else str(n), formulation, solver, setting_text(setting))


@dataclass(frozen=True)
class Record:
    """A stored run, typed. `solution` is the board (a count's: its examples), parsed JSON."""

    puzzle: str
    status: Status
    n: int | None = None
    variant: str = ""
    formulation: str = ""
    solver: str = ""
    setting: dict[str, Any] = field(default_factory=dict)     # options away from their defaults
    objective: Number | None = None
    bound: Number | None = None
    proven: bool = False
    verified: bool = False
    count: int | None = None
    seconds: float | None = None
    published: int | None = None
    published_status: str = ""
    match: str = ""
    solver_version: str = ""
    time_limit: float | None = None
    threads: int | None = None
    seed: int | None = None
    timestamp: str = ""
    message: str = ""
    solution: Any = None
    command: str = ""
    positions: int | None = None
    generate_seconds: float = 0.0
    build_seconds: float = 0.0
    solve_seconds: float = 0.0
    compile_seconds: float = 0.0     # numba's first compile of a native search (0: its cache was warm)
    params: dict[str, Any] = field(default_factory=dict)       # the run's settings and the puzzle's changed options
    racers: list[dict[str, Any]] | None = None
    certificate: dict[str, Any] | None = None
    check: str | None = None
    model: str | None = None                                   # a model file's run: its path
    recomputed_objective: Number | None = None
    claims: bool = True          # False: a bare solution, which claims nothing about itself

    @property
    def key(self) -> tuple[str, ...]:
        return key(self.puzzle, self.variant, self.n, self.formulation, self.solver, self.setting)

    @property
    def proved(self) -> bool:
        """Finished and proven: a proof whose answer stands (an optimum with a verified board)."""
        return self.status.proves and (self.verified or self.status != Status.OPTIMAL)

    @property
    def has_solution(self) -> bool:
        """A solution the checker verified."""
        return self.status.has_solution and self.verified

    @property
    def finished(self) -> bool:
        """The row answers its N (a proof, or a verified solution): a rerun of `table` skips it."""
        return self.status.proves or self.has_solution

    @property
    def value(self) -> Number | None:
        """The answer: the objective, else the count."""
        return self.objective if self.objective is not None else self.count

    # -- a results table's row ---------------------------------------------------------------
    def to_row(self) -> dict[str, str]:
        """The row `table` appends: every column as text."""
        row = {c: _text(getattr(self, c)) for c in COLUMNS if c not in ("setting", "solution")}
        row["setting"] = setting_text(self.setting)
        row["solution"] = "" if self.solution is None else json.dumps(self.solution, separators=(",", ":"))
        return row

    @classmethod
    def from_row(cls, row: Mapping[str, str], where: str = "") -> Record:
        """A table's row, typed; BadRow naming `where` (file:line) and the column for a field that
        cannot be read."""
        read = _Reader(row, where)
        return cls(puzzle=read.text("puzzle"), status=read.status(), n=read.integer("n"), variant=read.text("variant"),
                   formulation=read.text("formulation"), solver=read.text("solver"), setting=read.setting(),
                   objective=read.number("objective"), bound=read.number("bound"), proven=read.flag("proven"),
                   verified=read.flag("verified"), count=read.integer("count"), seconds=read.number("seconds"),
                   published=read.integer("published"), published_status=read.text("published_status"),
                   match=read.text("match"), solver_version=read.text("solver_version"),
                   time_limit=read.number("time_limit"), threads=read.integer("threads"),
                   timestamp=read.text("timestamp"), message=read.text("message"), solution=read.json("solution"),
                   command=read.text("command"), positions=read.integer("positions"),
                   solve_seconds=read.number("solve_seconds") or 0.0)

    # -- a JSON record (`solve --json`, `verify`) --------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The record `solve --json` prints and `verify` reads back."""
        out = {f.name: getattr(self, f.name) for f in fields(self)
               if f.name not in ("time_limit", "threads", "seed", "timestamp", "command", "model",
                                 "recomputed_objective", "claims")}
        out["status"] = str(self.status)
        out["setting"] = setting_text(self.setting)
        out["published_status"] = self.published_status or None
        if self.model is not None:
            out.update(model=self.model, recomputed_objective=self.recomputed_objective)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "") -> Record:
        """A JSON record, typed as a row is (BadRow for a field of the wrong type); a bare solution
        (not an object with a solution) is a record that claims nothing: status unknown, no puzzle."""
        if not isinstance(data, dict) or "solution" not in data:
            return cls(puzzle="", status=Status.UNKNOWN, solution=data, claims=False)
        params = data.get("params", {})
        if not isinstance(params, dict):
            raise BadRow(f"{where}: params is not an object")
        if not isinstance(data.get("puzzle", ""), str):
            raise BadRow(f"{where}: puzzle is {data['puzzle']!r}, not a puzzle's name")
        text = {k: _json_text(data.get(k), k, where) for k in COLUMNS if k not in ("solution", "time_limit", "threads")}
        text.update(time_limit=_json_text(params.get("time_limit"), "time_limit", where),
                    threads=_json_text(params.get("threads"), "threads", where), solution="")
        typed = cls.from_row({**text, "status": text["status"] or "unknown"}, where)
        return replace(typed, solution=data["solution"], params=params, n=_json_int(data.get("n"), "n", where),
                       positions=_json_int(data.get("positions"), "positions", where),
                       claims=data.get("status") is not None)

    # -- the bench's row ----------------------------------------------------------------------
    def bench_row(self, label: str, machine: str) -> dict[str, Any]:
        """The row `workbench bench` appends to results/bench.csv."""
        cert = self.certificate or {}
        row: dict[str, Any] = {c: _text(getattr(self, c, None)) for c in BENCH_COLUMNS}
        row.update(label=label, machine=machine, value=_text(self.value), certificate=cert.get("verdict", ""),
                   proof_bytes=cert.get("proof_bytes", ""),
                   check_seconds=round(cert["check_seconds"] + cert["drup_seconds"], 3) if cert else "")
        return row

    @classmethod
    def from_bench_row(cls, row: Mapping[str, str], where: str = "") -> tuple[str, str, Record]:
        """A bench row: its label, its machine and its run."""
        record = cls.from_row({**row, "objective": "" if row.get("count") else row.get("value", "")}, where)
        return row.get("label", ""), row.get("machine", ""), record


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _json_text(value: Any, name: str, where: str) -> str:
    """A JSON field as a row's text, refusing what a row could not say (a list for a number, say)."""
    if value is None:
        return ""
    if isinstance(value, (dict, list)) and name != "setting":
        raise BadRow(f"{where}: {name} is {json.dumps(value)[:40]}, not a {'word' if name == 'status' else 'value'}")
    if isinstance(value, bool) and name not in ("proven", "verified"):
        raise BadRow(f"{where}: {name} is {value!r}, not a number")
    if name == "setting" and isinstance(value, dict):
        return setting_text(value)
    return str(value)


def _json_int(value: Any, name: str, where: str) -> int | None:
    if value is None or isinstance(value, int) and not isinstance(value, bool):
        return value
    raise BadRow(f"{where}: {name} is {value!r}, not an integer")


class _Reader:
    """One row's fields as types, each refusal one line naming the row and the column."""

    def __init__(self, row: Mapping[str, str], where: str) -> None:
        self.row, self.where = row, where

    def _refuse(self, name: str, what: str) -> BadRow:
        return BadRow(f"{self.where + ': ' if self.where else ''}{name} is {self.text(name)[:40]!r}, not {what}")

    def text(self, name: str) -> str:
        value = self.row.get(name)
        return "" if value is None else str(value)

    def status(self) -> Status:
        try:
            return Status.parse(self.text("status") or "error")
        except BadRow as e:
            raise BadRow(f"{self.where + ': ' if self.where else ''}{e}") from None

    def integer(self, name: str) -> int | None:
        text = self.text(name).strip()
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            pass
        try:
            number = float(text)            # "5.0": an integer written by a float column
        except ValueError:
            number = math.nan
        if not number.is_integer():
            raise self._refuse(name, "an integer")
        return int(number)

    def number(self, name: str) -> Number | None:
        text = self.text(name).strip()
        if not text:
            return None
        try:
            value = int(text) if text.lstrip("-").isdigit() else float(text)
        except ValueError:
            raise self._refuse(name, "a number") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise self._refuse(name, "a finite number")
        return value

    def flag(self, name: str) -> bool:
        text = self.text(name)
        if text not in ("", "True", "False", "true", "false"):
            raise self._refuse(name, "True or False")
        return text in ("True", "true")

    def json(self, name: str) -> Any:
        text = self.text(name)
        if not text:
            return None
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            raise self._refuse(name, "JSON") from None

    def setting(self) -> dict[str, Any]:
        value = self.json("setting")
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self._refuse("setting", "an object")
        return value


def read_json(file: Path) -> Record:
    """A JSON record file (`solve --json`'s, or a bare solution), typed; BadInput for a file that
    cannot be read or is not JSON, BadRow for a field of the wrong type."""
    try:
        data = json.loads(file.read_bytes())
    except FileNotFoundError:
        raise BadInput(f"no such file: {file}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        raise BadInput(f"{file} is not JSON ({str(e).splitlines()[0]})") from None
    except OSError as e:
        raise BadInput(f"cannot read {file}: {e.strerror or e}") from None
    return Record.from_json(data, str(file))
