"""MiniZinc (minizinc-python + the `minizinc` executable): `minizinc:ID` for every solver it reports."""
from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import os
import shutil
import subprocess
import tempfile
import time
import warnings
from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..models.core import Count, HittingSet, LinearModel, MaxSatModel, as_linear
from ..models.mzn import to_minizinc
from ..userfile.flatzinc import GECODE_LITERAL, MiniZincFile, plain, unbounded_ints
from .base import (
    DOUBLE_EXACT,
    Enumerator,
    Incumbent,
    Options,
    Report,
    Result,
    SolutionCount,
    Status,
    Unavailable,
    UnsupportedModel,
    clean_number,
)

COMPLETE_SHARE = 1 / 3     # of the time limit: a user's model's complete search before its neighbourhoods (_phases)
INSTALL = "apt-get install minizinc (Gecode only), or the MiniZinc bundle for HiGHS, Chuffed, COIN-BC, CP-SAT"


@lru_cache(maxsize=1)
def discover() -> dict[str, dict]:
    """Short name (last part of the id, e.g. gecode) -> the solver's entry in `minizinc --solvers-json`."""
    exe = shutil.which("minizinc")
    if exe is None:
        return {}
    out = subprocess.run([exe, "--solvers-json"], capture_output=True, text=True, timeout=30)
    entries = json.loads(out.stdout or "[]")
    return {e["id"].split(".")[-1]: e for e in entries}


def _integer_range(entry: dict) -> tuple[int, str]:
    """How far a solver's integers hold exactly: Gecode and Chuffed 32 bits (Gecode's FlatZinc
    reader refuses a larger literal), OR-Tools 64, the MIP solvers' doubles 2^53."""
    short = entry["id"].split(".")[-1]
    if short in ("gecode", "chuffed"):
        return 2 ** 31 - 2, f"{short}'s integers are 32-bit (to 2^31 - 2)"
    if "or-tools" in entry["id"] or "cp-sat" in entry["id"]:
        return 2 ** 63 - 1, f"{short}'s integers are 64-bit"
    return DOUBLE_EXACT, f"{short} computes in doubles, exact to 2^53"


def _refuse_wide(lm: LinearModel, limit: int, arithmetic: str) -> None:
    """Gecode's FlatZinc reader takes no integer literal past its range, and MiniZinc writes each
    domain and the objective's bounds as one: a model that reaches past it is refused by name (it
    failed with a syntax error)."""
    wide = next((v for v in lm.vars if v.integer and limit < max(abs(v.lb), abs(v.ub)) < math.inf), None)
    if wide is not None:
        raise UnsupportedModel(f"{arithmetic}; {wide.name} has [{clean_number(wide.lb)}, {clean_number(wide.ub)}]")
    reach = abs(lm.constant) + sum(abs(c) * max(abs(lm.vars[j].lb), abs(lm.vars[j].ub)) for j, c in lm.objective)
    if limit < reach < math.inf:
        raise UnsupportedModel(f"{arithmetic}; the objective reaches {clean_number(reach)}")


def why_unusable(entry: dict) -> str | None:
    """Cheap reasons a configured solver cannot run here; the rest is found by trying."""
    if entry.get("isGUIApplication"):
        return "it is a GUI application"
    if entry.get("id", "").endswith(".scip"):
        return scip_library()[1]
    if entry.get("requiredFlags"):
        return f"needs {' '.join(entry['requiredFlags'])} pointing at the vendor's library"
    exe = entry.get("executable")
    if exe and not os.path.exists(exe):
        return f"executable {exe} is missing"
    return None


@lru_cache(maxsize=1)
def scip_library() -> tuple[str | None, str | None]:
    """The SCIP library PySCIPOpt bundles, if this MiniZinc's SCIP plugin loads it: (path, None);
    else (None, why not). Found by trying, on a two-variable model."""
    import importlib.util

    spec = importlib.util.find_spec("pyscipopt")
    libs = sorted(Path(spec.origin).parent.parent.glob("pyscipopt.libs/libscip*.so*")) \
        if spec and spec.origin else []
    if not libs:
        return None, "no SCIP library found (PySCIPOpt's wheel bundles one: pip install pyscipopt)"
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "probe.mzn"
        model.write_text("var 0..3: x; var 0..3: y; constraint x + y >= 3; solve minimize 2*x + y;\n")
        try:
            out = subprocess.run(["minizinc", "--solver", "scip", "--scip-dll", str(libs[0]), str(model)],
                                 capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, f"minizinc could not be run with SCIP ({e})"
    said = (out.stdout + out.stderr).strip()
    if "x = 3" in said or "x = 0" in said:
        return str(libs[0]), None
    error = said.splitlines()[0] if said else f"exit {out.returncode}"
    return None, (f"this MiniZinc's SCIP plugin cannot load the SCIP that PySCIPOpt bundles ({libs[0].name}): "
                  f"{error} (the plugin wants SCIP 7's API); use the `scip` backend")


def _probe(short: str) -> str | None:
    """Solve a one-variable model: the only sure test that a configured solver loads."""
    from ..models.core import HittingSet
    from .runner import run

    result = run(f"minizinc:{short}", HittingSet(1, [(0,)]), Options(time_limit=20, threads=1))
    if result.status == Status.OPTIMAL and result.objective == 1:
        return None
    return (result.message or str(result.status)).strip().splitlines()[-1][:160] or "failed a trivial model"


class MiniZinc(Enumerator):
    name = "minizinc"
    kinds = (HittingSet, LinearModel, MaxSatModel, MiniZincFile)
    install = INSTALL
    exports = ("mzn",)
    default_sub = "gecode"
    options_via = "command"
    unbounded: list[str] | None = None     # prepare(): the file's integers without bounds, on a 32-bit solver

    @classmethod
    def subsolvers(cls, probe: bool = False) -> dict[str, str | None]:
        """Every solver minizinc reports, with why it cannot run (a cheap reason, then a probe)."""
        return {short: why_unusable(entry) or (_probe(short) if probe else None)
                for short, entry in sorted(discover().items())}

    def exact_integers(self) -> tuple[int, str]:
        return _integer_range(discover()[self.sub or ""])

    def prepare(self, model: Any) -> None:
        """Which integers a MiniZinc file leaves without bounds, where the solver's integers are
        32-bit: it holds them to +-(2^31 - 2) and proves its optimum, or unsatisfiability, only within
        that box (`var int: x; x >= 3; maximize x` came back "optimal 2147483646")."""
        self.unbounded = None
        entry = discover().get(self.sub or "")
        if isinstance(model, MiniZincFile) and entry and _integer_range(entry)[0] < 2 ** 32:
            self.unbounded = unbounded_ints(model, entry["id"])

    def version(self) -> str:
        if shutil.which("minizinc") is None:
            raise Unavailable(f"the minizinc executable is not on PATH ({INSTALL})")
        drv = subprocess.run(["minizinc", "--version"], capture_output=True, text=True).stdout.split()
        driver = next((w for w in drv if w[:1].isdigit()), "?").rstrip(",")
        entry = discover().get(self.sub or "")
        if entry is None:
            raise Unavailable(f"minizinc has no solver '{self.sub}' (known: {', '.join(sorted(discover()))})")
        reason = why_unusable(entry)
        if reason:
            raise Unavailable(f"minizinc:{self.sub} cannot run here: {reason}; {INSTALL}")
        return f"{entry['name']} {entry.get('version', '?')} via minizinc {driver}"

    def _settings(self, entry: dict, options: Options, t0: float) -> dict[str, Any]:
        """minizinc-python's solve arguments: threads and seed where the solver takes them, the time
        left, and the user's own flags (`--option minizinc:gecode:FLAG=VALUE`)."""
        kwargs: dict[str, Any] = dict(processes=int(options.threads) if "-p" in entry.get("stdFlags", []) else None,
                                      random_seed=int(options.seed) if "-r" in entry.get("stdFlags", []) else None,
                                      verbose=bool(options.verbose), intermediate_solutions=True)
        if options.time_limit is not None:
            kwargs["time_limit"] = timedelta(seconds=options.remaining(t0))
        for key, value in options.own(self.name).items():     # flags of `minizinc --solver ...`
            kwargs[key if key.startswith("-") else f"--{key}"] = True if value is True else str(value)
        if self.sub == "scip" and scip_library()[0]:
            kwargs["--scip-dll"] = scip_library()[0]
        return kwargs

    def run(self, model: Any, options: Options, report: Report, counting: Count | None) -> Result:
        try:
            import minizinc
            from minizinc.error import MiniZincWarning
        except ImportError as e:
            raise Unavailable("minizinc-python is not installed (pip install minizinc)") from e
        entry = discover()[self.sub or ""]
        warnings.filterwarnings("ignore", category=MiniZincWarning)
        if isinstance(model, MiniZincFile):
            if counting:
                raise UnsupportedModel("counting a MiniZinc file's solutions is not offered")
            instance = minizinc.Instance(minizinc.Solver.lookup(entry["id"]), minizinc.Model(model.files()))
            result = _as_written(model, instance, self._settings(entry, options, time.perf_counter()), report)
            return _within_box(result, self.unbounded, self.sub or "")
        t0 = time.perf_counter()
        try:
            phases = [to_minizinc(m, satisfy=counting is not None) for m in _phases(model, options)]
        except ValueError as e:           # what MiniZinc's integer model cannot say: continuous variables, ...
            raise UnsupportedModel(str(e)) from None
        has_objective = not counting and (not isinstance(model, LinearModel) or bool(model.objective))
        lm = as_linear(model)
        _refuse_wide(lm, *_integer_range(entry))
        counted = SolutionCount(lm.project, len(lm.vars), counting.show, report) if counting else None
        t1 = time.perf_counter()
        final = best = None
        for i, (text, data) in enumerate(phases):
            kwargs = self._settings(entry, options, t0)
            if i == 0 and len(phases) > 1:
                kwargs["time_limit"] = timedelta(seconds=min(kwargs["time_limit"].total_seconds(),
                                                             COMPLETE_SHARE * float(options.time_limit or 0)))
            if counting:
                del kwargs["intermediate_solutions"]
                kwargs["all_solutions"] = True
            final, found = _run_text(entry, text, data, kwargs, report, counted, has_objective)
            if found is not None and (best is None or _better(found[0], best[0], lm.is_maximise)):
                best = found
            if final is not None and final.status in (minizinc.Status.OPTIMAL_SOLUTION,
                                                      minizinc.Status.UNSATISFIABLE, minizinc.Status.ERROR):
                break
        t2 = time.perf_counter()
        timings: dict[str, Any] = dict(build_seconds=t1 - t0, solve_seconds=t2 - t1,
                                       message=str(final.status) if final else "")
        bound = None
        if final is not None and final.statistics.get("objectiveBound") is not None:
            bound = float(final.statistics["objectiveBound"])
        if counted is not None:
            return counted.result(final is not None and final.status in (minizinc.Status.ALL_SOLUTIONS,
                                                                         minizinc.Status.UNSATISFIABLE), **timings)
        status = final.status if final is not None else minizinc.Status.UNKNOWN
        if status == minizinc.Status.UNSATISFIABLE:
            return Result(Status.INFEASIBLE, **timings)
        if status == minizinc.Status.ERROR:
            return Result(Status.ERROR, **timings)
        if best is None:
            return Result(Status.UNKNOWN, bound=bound, **timings)
        objective, values = best
        if status == minizinc.Status.OPTIMAL_SOLUTION or (not has_objective and status.has_solution()):
            return Result(Status.OPTIMAL, objective, objective, values, **timings)
        return Result(Status.FEASIBLE, objective, bound, values, **timings)


def _phases(model: Any, options: Options) -> list[Any]:
    """The models run in turn: a user's model with no search of its own (`neighbourhoods`) first
    gets a complete search for COMPLETE_SHARE of the time, which proves a small model at once, then
    the large neighbourhoods for the rest, which find good solutions on a hard one but never end
    (so never without a time limit); any other model, once as it is."""
    if not (isinstance(model, LinearModel) and model.neighbourhoods and model.objective):
        return [model]
    complete = dataclasses.replace(model, neighbourhoods=False)
    return [complete, model] if options.time_limit is not None else [complete]


def _better(a: float | None, b: float | None, maximise: bool) -> bool:
    return a is not None and (b is None or (a > b if maximise else a < b))


def _run_text(entry: dict, text: str, data: str, kwargs: dict[str, Any], report: Report,
              counted: SolutionCount | None, has_objective: bool) -> tuple[Any, tuple[float | None, list[int]] | None]:
    """One MiniZinc run of a model and its data, written to a folder of their own."""
    import minizinc

    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, "model.mzn"), os.path.join(tmp, "data.dzn")]
        for path, content in zip(paths, (text, data)):
            with open(path, "w") as f:
                f.write(content)
        instance = minizinc.Instance(minizinc.Solver.lookup(entry["id"]), minizinc.Model(paths))
        return asyncio.run(_stream(instance, kwargs, report, counted, has_objective))


async def _stream(instance: Any, kwargs: dict[str, Any], report: Report, counted: SolutionCount | None,
                  has_objective: bool) -> tuple[Any, tuple[float | None, list[int]] | None]:
    """Follow the solver's solutions as they come, passing each incumbent on to the parent."""
    final = best = None
    async for res in instance.solutions(**kwargs):
        final = res
        if res.solution is None:
            continue
        values = [int(v) for v in res.solution.x]
        if counted is not None:
            counted.add(values.__getitem__)
            continue
        objective = float(res.objective) if has_objective and res.objective is not None else None
        best = (objective, values)
        report(Incumbent(objective, None, values))
    return final, best


def _within_box(result: Result, unbounded: list[str] | None, solver: str) -> Result:
    """A proof made inside the solver's integer box is no proof for a file with unbounded integers:
    its optimum is a feasible solution, its unsatisfiability unknown."""
    if not unbounded or result.status not in (Status.OPTIMAL, Status.INFEASIBLE):
        return result
    if result.status == Status.OPTIMAL and result.objective is None:     # a satisfy model's solution holds
        return result
    said = (f"{len(unbounded)} integer variable(s) without bounds ({', '.join(unbounded[:3])}), which {solver} "
            f"holds to +-(2^31 - 2): its {result.status.value} holds within that box only, not proven for the file")
    if result.status == Status.INFEASIBLE:
        return dataclasses.replace(result, status=Status.UNKNOWN, message=f"{result.message}; {said}")
    return dataclasses.replace(result, status=Status.FEASIBLE, bound=None, message=f"{result.message}; {said}")


def _as_written(mzn: MiniZincFile, instance: Any, kwargs: dict[str, Any], report: Report) -> Result:
    """The user's file unchanged: its own search annotations and output; MiniZinc's status read
    honestly (optimal only where it proved the optimum, or found a solution of a satisfaction
    model; a time-out with a solution is feasible). The solution: the output variables by name."""
    import minizinc

    t0 = time.perf_counter()
    best: tuple[float | None, dict[str, Any]] | None = None
    final = None

    async def follow() -> None:
        nonlocal best, final
        async for res in instance.solutions(**kwargs):
            final = res
            if res.solution is not None:
                values = {name: plain(getattr(res.solution, name)) for name in mzn.outputs
                          if hasattr(res.solution, name)}
                objective = float(res.objective) if mzn.has_objective and res.objective is not None else None
                best = (objective, values)
                report(Incumbent(objective, None, values))

    try:
        asyncio.run(follow())
    except minizinc.MiniZincError as e:
        said = " ".join(str(e).split())[:300]
        if GECODE_LITERAL in said:
            said = f"an integer past the solver's 32 bits (2^31 - 2) ({said})"
        unsupported = any(w in said.lower() for w in ("not supported", "unsupported", "cannot handle", "32 bits"))
        return Result(Status.UNSUPPORTED if unsupported else Status.ERROR, message=f"MiniZinc: {said}",
                      solve_seconds=time.perf_counter() - t0)
    timings: dict[str, Any] = dict(solve_seconds=time.perf_counter() - t0)
    status = final.status if final is not None else minizinc.Status.UNKNOWN
    bound = final.statistics.get("objectiveBound") if final is not None else None
    timings["message"] = f"MiniZinc: {status.name}"
    if status == minizinc.Status.UNSATISFIABLE:
        return Result(Status.INFEASIBLE, **timings)
    if status == minizinc.Status.ERROR:
        return Result(Status.ERROR, **timings)
    if best is None:
        return Result(Status.UNKNOWN, **timings)
    objective, values = best
    if status in (minizinc.Status.OPTIMAL_SOLUTION, minizinc.Status.ALL_SOLUTIONS) or not mzn.has_objective:
        return Result(Status.OPTIMAL, objective, objective, values, **timings)
    return Result(Status.FEASIBLE, objective, None if bound is None else float(bound), values, **timings)
