"""The user's own model file, run on every backend that takes its kind, without a puzzle package.

LP and MPS are read by HiGHS (in a child process: highspy and OR-Tools must not share one), WCNF by
python-sat, MiniZinc (with its data file) is compiled by MiniZinc's own linear library to FlatZinc
and read from there, so that the MIP backends take it too. No puzzle checker runs; instead every
solution is checked against the file itself: each row, bound and clause, and the objective
recomputed from the file (a MiniZinc solution by MiniZinc, on the original file with the solution's
output variables fixed).
"""
from __future__ import annotations

import json
import pickle
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .models.core import LinearModel, MaxSatModel
from .puzzles.base import BadInput, Verdict
from .solvers import BACKENDS, backend_class, canonical, installed, require, split_name
from .solvers.base import Options, Result, Status, clean_number
from .solvers.runner import run as run_backend

KINDS = {".lp": "lp", ".mps": "mps", ".wcnf": "wcnf", ".mzn": "mzn"}
NO_CHECKER = "no puzzle checker ran"


@dataclass
class ModelFile:
    path: Path
    kind: str                                  # lp, mps, wcnf or mzn
    model: LinearModel | MaxSatModel           # what the backends get
    names: list[str]                           # the model's own variables, by the file's names
    data: Path | None = None
    outputs: dict[str, list[int]] = field(default_factory=dict)   # MiniZinc: output name -> variables

    @property
    def sense(self) -> str:
        return self.model.sense

    @property
    def label(self) -> str:
        return f"model:{self.path.name}"


class CompileCut(Exception):
    """The time limit ran out while MiniZinc compiled the file: no model, no backend run."""


def read(path: str | Path, data: str | Path | None = None, time_limit: float | None = None) -> ModelFile:
    """The file as a model kind of the workbench; bad or unreadable files are BadInput. MiniZinc's
    compilation is part of the run: `time_limit` bounds it (CompileCut)."""
    path = Path(path)
    kind = KINDS.get(path.suffix.lower())
    if kind is None:
        raise BadInput(f"--model {path}: unknown kind (known: {', '.join(KINDS)})")
    if not path.is_file():
        raise BadInput(f"--model {path}: no such file")
    if data is not None and (kind != "mzn" or not Path(data).is_file()):
        raise BadInput(f"--data {data}: " + ("only a MiniZinc model takes a data file" if kind != "mzn"
                                             else "no such file"))
    if kind == "wcnf":
        return _read_wcnf(path)
    found = _read_minizinc(path, Path(data) if data else None, time_limit) if kind == "mzn" else \
        _read_by_highs(path, kind)
    # A user's model comes with no search of its own for a CP backend; the one it would get, a complete
    # search without a relaxation, finds 31 on Enigma 144 N = 6 in 300 s where neighbourhoods find the
    # optimum 29 at once (docs/backends.md). The price: such a run proves no optimum.
    assert isinstance(found.model, LinearModel)
    found.model.neighbourhoods = True
    return found


def _read_wcnf(path: Path) -> ModelFile:
    from pysat.formula import WCNF

    try:
        wcnf = WCNF(from_file=str(path))
    except Exception as e:
        raise BadInput(f"--model {path}: not a WCNF file ({e})") from None
    model = MaxSatModel(wcnf.nv, [list(c) for c in wcnf.hard], [(list(c), int(w)) for c, w in
                                                               zip(wcnf.soft, wcnf.wght)],
                        decode_vars=wcnf.nv, name=path.stem)
    return ModelFile(path, "wcnf", model, [str(v + 1) for v in range(wcnf.nv)])


def _read_by_highs(path: Path, kind: str) -> ModelFile:
    """HiGHS reads LP and MPS; it runs in a child process, which hands the model back pickled."""
    with tempfile.TemporaryDirectory() as tmp:
        answer = Path(tmp) / "model.pickle"
        out = subprocess.run([sys.executable, "-m", "workbench.usermodel", str(path), str(answer)],
                             capture_output=True, text=True, timeout=600)
        if out.returncode != 0 or not answer.exists():
            said = out.stderr.strip().splitlines()
            raise BadInput(f"--model {path}: HiGHS cannot read it as {kind.upper()} ({said[-1] if said else '?'})")
        model, names = pickle.loads(answer.read_bytes())
    return ModelFile(path, kind, model, names)


def _highs_to_linear(path: str) -> tuple[LinearModel, list[str]]:
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if h.readModel(path) != highspy.HighsStatus.kOk:
        raise SystemExit("HiGHS could not read the file")
    lp = h.getLp()
    model = LinearModel(sense="max" if lp.sense_ == highspy.ObjSense.kMaximize else "min",
                        constant=float(lp.offset_), name=Path(path).stem)
    integral = list(lp.integrality_) or [highspy.HighsVarType.kContinuous] * lp.num_col_
    names = list(lp.col_names_) or [f"c{j}" for j in range(lp.num_col_)]
    for j in range(lp.num_col_):
        lo, hi = lp.col_lower_[j], lp.col_upper_[j]
        if abs(lo) > 1e15 or abs(hi) > 1e15:
            raise SystemExit(f"variable {names[j]} has an infinite bound; the workbench's models need finite ones")
        whole = integral[j] == highspy.HighsVarType.kInteger
        model.add_var(names[j], round(lo), round(hi), whole)
        if lp.col_cost_[j]:
            model.objective.append((j, float(lp.col_cost_[j])))
    a = lp.a_matrix_
    rows: list[list[tuple[int, float]]] = [[] for _ in range(lp.num_row_)]
    if a.format_ == highspy.MatrixFormat.kColwise:
        for j in range(lp.num_col_):
            for k in range(a.start_[j], a.start_[j + 1]):
                rows[a.index_[k]].append((j, float(a.value_[k])))
    else:
        for i in range(lp.num_row_):
            rows[i] = [(a.index_[k], float(a.value_[k])) for k in range(a.start_[i], a.start_[i + 1])]
    row_names = list(lp.row_names_) or [f"r{i}" for i in range(lp.num_row_)]
    for i in range(lp.num_row_):
        lo, hi = lp.row_lower_[i], lp.row_upper_[i]
        model.add_row(rows[i], None if lo < -1e30 else float(lo), None if hi > 1e30 else float(hi), row_names[i])
    return model, names


FZN_VAR = re.compile(r"^var\s+(?:(bool)|(-?\d+)\s*\.\.\s*(-?\d+)|(int|float))\s*:\s*(\w+)(.*);$")
FZN_ARRAY = re.compile(r"^array\s*\[[^]]*\]\s*of\s+(var\s+)?\w+(?:\s*\.\.\s*-?\d+)?\s*:\s*(\w+)(.*?)=\s*\[(.*)\];$")
FZN_CONSTRAINT = re.compile(r"^constraint\s+(\w+)\((.*)$")
FZN_SOLVE = re.compile(r"^solve\b.*?\b(minimize|maximize|satisfy)\s*(\w*)\s*;$")


def _read_minizinc(path: Path, data: Path | None, time_limit: float | None) -> ModelFile:
    """MiniZinc's linear library flattens the model to linear FlatZinc, read here into a LinearModel."""
    with tempfile.TemporaryDirectory() as tmp:
        fzn, ozn = Path(tmp) / "model.fzn", Path(tmp) / "model.ozn"
        cmd = ["minizinc", "-c", "-G", "linear", str(path), *([str(data)] if data else []),
               "--fzn", str(fzn), "--ozn", str(ozn)]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=time_limit)
        except OSError as e:
            raise BadInput(f"--model {path}: MiniZinc cannot run ({e})") from None
        except subprocess.TimeoutExpired:
            raise CompileCut(f"{path.name}: status unknown: the time limit ({time_limit:g} s) was reached while "
                             f"MiniZinc compiled it; no backend ran") from None
        if out.returncode != 0 or not fzn.exists():
            said = [x.replace("Error: ", "").strip() for x in out.stderr.splitlines() if x.startswith("Error")]
            raise BadInput(f"--model {path}: MiniZinc cannot compile it ({said[0] if said else out.returncode})")
        text = fzn.read_text()
    model, names, outputs = _flatzinc(text, path.stem)
    return ModelFile(path, "mzn", model, names, data, outputs)


def _flatzinc(text: str, name: str) -> tuple[LinearModel, list[str], dict[str, list[int]]]:
    """Linear FlatZinc (int_lin_le, int_lin_eq, int_le, int_eq, bounded variables) as a LinearModel."""
    model = LinearModel(name=name)
    index: dict[str, int] = {}
    consts: dict[str, list[int]] = {}
    arrays: dict[str, list[str]] = {}
    outputs: dict[str, list[int]] = {}

    def term(x: str) -> int | str:
        x = x.strip()
        return int(x) if re.fullmatch(r"-?\d+", x) else ({"true": 1, "false": 0}.get(x, x))

    def items(x: str) -> list[int | str]:
        x = x.strip()
        if x.startswith("["):
            return [term(t) for t in x[1:-1].split(",") if t.strip()]
        return list(consts[x]) if x in consts else list(arrays[x])

    def linear(coefs: list[int | str], xs: list[int | str]) -> tuple[list[tuple[int, float]], float]:
        terms, shift = [], 0.0
        for c, v in zip(coefs, xs):
            if isinstance(v, int):
                shift += float(c) * v
            else:
                terms.append((index[v], float(c)))
        return terms, shift

    for line in (x.strip() for x in text.splitlines()):
        if not line:
            continue
        if (var := FZN_VAR.match(line)) is not None:
            boolean, lo, hi, unbounded, vname, rest = var.groups()
            if unbounded:
                raise BadInput(f"MiniZinc variable {vname} has no finite domain after flattening")
            index[vname] = model.add_var(vname, 0 if boolean else int(lo), 1 if boolean else int(hi))
            if "output_var" in rest:
                outputs[vname] = [index[vname]]
            if "=" in rest.split("::")[0] or re.search(r"=\s*-?\w+\s*$", rest):
                value = term(rest.rsplit("=", 1)[1])
                model.add_row([(index[vname], 1.0)] if isinstance(value, int) else
                              [(index[vname], 1.0), (index[str(value)], -1.0)],
                              lo=value if isinstance(value, int) else 0, hi=value if isinstance(value, int) else 0)
        elif (arr := FZN_ARRAY.match(line)) is not None:
            is_var, aname, rest, body = arr.groups()
            elems = [term(t) for t in body.split(",") if t.strip()]
            if is_var:      # a fixed element becomes a variable fixed to its value
                names = []
                for e in elems:
                    if isinstance(e, int):
                        fixed = f"_fixed{len(model.vars)}"
                        index[fixed] = model.add_var(fixed, e, e)
                        e = fixed
                    names.append(e)
                arrays[aname] = names
                if "output_array" in rest:
                    outputs[aname] = [index[str(e)] for e in arrays[aname]]
            else:
                consts[aname] = [int(e) for e in elems]
        elif (con := FZN_CONSTRAINT.match(line)) is not None:
            pred, args_text = con.groups()
            args = _split_args(args_text)        # up to the call's closing parenthesis
            if pred in ("int_lin_le", "int_lin_eq", "bool_lin_le", "bool_lin_eq"):
                terms, shift = linear(items(args[0]), items(args[1]))
                rhs = float(term(args[2])) - shift  # type: ignore[arg-type]
                model.add_row(terms, lo=rhs if pred.endswith("eq") else None, hi=rhs)
            elif pred in ("int_le", "int_eq", "bool_le", "bool_eq", "bool2int"):
                a, b = term(args[0]), term(args[1])
                terms, shift = linear([1, -1], [a, b])
                model.add_row(terms, lo=-shift if pred.endswith(("eq", "int")) else None, hi=-shift)
            else:
                raise BadInput(f"MiniZinc's linear library left a {pred} constraint, which the FlatZinc "
                               "reader does not take")
        elif (solve := FZN_SOLVE.match(line)) is not None:
            goal, target = solve.groups()
            if goal != "satisfy":
                model.sense = "max" if goal == "maximize" else "min"
                model.objective = [(index[target], 1.0)]
        elif line.split()[0] in ("var", "array", "constraint", "solve"):
            raise BadInput(f"a FlatZinc line the reader does not take: {line[:80]}")
    return model, [v.name for v in model.vars], outputs


def _split_args(text: str) -> list[str]:
    """A call's arguments, split at top-level commas, up to its closing parenthesis (annotations
    after it are left out); lists in brackets stay whole."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "(["
        depth -= ch in ")]"
        if depth < 0:
            break
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:i])
    return [p.strip() for p in parts]


# -- checking a solution against the file ----------------------------------------------------

def check(mf: ModelFile, values: list[int]) -> Verdict:
    """The solution against the file: every row/bound/clause holds; the objective recomputed."""
    if mf.kind == "wcnf":
        assert isinstance(mf.model, MaxSatModel)
        true = {v + 1 for v, x in enumerate(values) if x}

        def sat(clause: list[int]) -> bool:
            return any((lit > 0) == (abs(lit) in true) for lit in clause)

        broken = sum(1 for c in mf.model.hard if not sat(c))
        if broken:
            return Verdict(False, f"{NO_CHECKER}; {broken} hard clause(s) of the file fail")
        cost = mf.model.offset + sum(w for c, w in mf.model.soft if not sat(c))
        return Verdict(True, f"{NO_CHECKER}; every hard clause of the file holds; cost recomputed from the "
                             f"file: {cost}", cost)
    assert isinstance(mf.model, LinearModel)
    m = mf.model
    bad = [v.name for v, x in zip(m.vars, values) if not v.lb <= x <= v.ub]
    bad += [r.name or f"row {i}" for i, r in enumerate(m.rows)
            if not _holds(sum(c * values[v] for v, c in r.terms), r.lo, r.hi)]
    if bad:
        return Verdict(False, f"{NO_CHECKER}; the file's {', '.join(bad[:3])} fail(s)")
    objective = m.constant + sum(c * values[v] for v, c in m.objective)
    if mf.kind == "mzn":
        return _check_by_minizinc(mf, values, objective)
    return Verdict(True, f"{NO_CHECKER}; every row and bound of the file holds; objective recomputed from "
                         f"the file: {clean_number(objective)}", objective)


def _holds(activity: float, lo: float | None, hi: float | None) -> bool:
    return (lo is None or activity >= lo - 1e-6) and (hi is None or activity <= hi + 1e-6)


def _check_by_minizinc(mf: ModelFile, values: list[int], flat_objective: float) -> Verdict:
    """MiniZinc solves the original file with the output variables fixed to the solution's values."""
    fixed = " ".join(f"{name} = {_mzn_value(values, idx)};" for name, idx in mf.outputs.items())
    cmd = ["minizinc", "--solver", "gecode", "--output-mode", "json", "--output-objective", str(mf.path),
           *([str(mf.data)] if mf.data else []), "-D", fixed]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    found = re.search(r"\{.*?\}", out.stdout, re.S)
    if "UNSATISFIABLE" in out.stdout or not found:
        return Verdict(False, f"{NO_CHECKER}; MiniZinc rejects the solution on the file "
                              f"({(out.stdout + out.stderr).strip().splitlines()[-1:]})")
    objective = json.loads(found.group(0)).get("_objective", flat_objective)
    return Verdict(True, f"{NO_CHECKER}; MiniZinc accepts the solution on the file; objective recomputed "
                         f"by MiniZinc: {clean_number(objective)}", float(objective))


def _mzn_value(values: list[int], idx: list[int]) -> str:
    return str(values[idx[0]]) if len(idx) == 1 else "[" + ",".join(str(values[i]) for i in idx) + "]"


# -- runs -------------------------------------------------------------------------------------

@dataclass
class FileRun:
    """A run of a model file: the fields of pipeline.Run that the tables and the views read."""

    file: ModelFile
    result: Result
    verdict: Verdict | None
    n: None = None
    counting: bool = False

    @property
    def verified(self) -> bool:
        return self.verdict is not None and self.verdict.ok

    @property
    def value(self) -> float | int | None:
        return clean_number(self.result.objective)

    def record(self) -> dict[str, Any]:
        r = self.result
        return {"puzzle": self.file.label, "n": None, "variant": self.file.kind, "formulation": self.file.kind,
                "setting": "", "solver": r.solver, "status": str(r.status), "objective": self.value,
                "bound": clean_number(r.bound), "proven": r.proven, "verified": self.verified, "count": None,
                "positions": None, "seconds": round(r.total_seconds, 3), "generate_seconds": 0.0,
                "build_seconds": round(r.build_seconds, 3), "solve_seconds": round(r.solve_seconds, 3),
                "solver_version": r.solver_version, "params": dict(r.params),
                "racers": None if r.racers is None else [asdict(racer) for racer in r.racers], "certificate": None,
                "published": None,
                "published_status": None, "match": "", "check": None if self.verdict is None else self.verdict.message,
                "message": r.message, "solution": r.solution, "model": str(self.file.path),
                "recomputed_objective": None if self.verdict is None else clean_number(self.verdict.objective)}


def backends_for(mf: ModelFile, solvers: list[str] | None = None) -> list[str]:
    """The backends named, else every single backend installed here that takes the file's kind."""
    if solvers:
        chosen = [canonical(s) for s in solvers]
        for s in chosen:
            if type(mf.model) not in backend_class(split_name(s)[0]).kinds:
                raise BadInput(f"{s} does not take a {mf.kind} model ({type(mf.model).__name__})")
        return chosen
    here = set(installed(type(mf.model)))
    return [canonical(b) for b in BACKENDS if canonical(b) in here]


def solve(mf: ModelFile, solver: str, options: Options) -> FileRun:
    result = run_backend(solver, mf.model, options)
    verdict = None
    if result.values is not None and result.status in (Status.OPTIMAL, Status.FEASIBLE):
        values = list(result.values)
        verdict = check(mf, values)
        if verdict.ok and verdict.objective is not None and result.objective is not None \
                and abs(verdict.objective - result.objective) > 1e-6:
            verdict = Verdict(False, f"the backend reports objective {clean_number(result.objective)} but the file "
                                     f"gives {clean_number(verdict.objective)}")
        if verdict.ok:
            result.solution = _named(mf, values)
        else:
            result.message = f"the file rejects the solution: {verdict.message}"
            result.status, result.objective = Status.ERROR, None
    elif result.objective is not None and result.status != Status.ERROR:
        result.objective, result.status = None, Status.UNKNOWN
    return FileRun(mf, result, verdict)


def _named(mf: ModelFile, values: list[int]) -> Any:
    """The solution as the file names it: MiniZinc's output variables, else every variable."""
    if mf.outputs:
        return {name: values[idx[0]] if len(idx) == 1 else [values[i] for i in idx] for name, idx in mf.outputs.items()}
    if mf.kind == "wcnf":
        return [v + 1 if x else -(v + 1) for v, x in enumerate(values[:len(mf.names)])]
    return dict(zip(mf.names, values))


# -- the command line's solve, compare and bench with --model ----------------------------------

def command(args: Any, name: str, ui: Any) -> int:
    """`solve`, `compare` or `bench` with --model FILE: the file on the backends named, else on every
    backend here that takes its kind. `ui` is the command line module (its consoles), handed in
    so that this module does not import it."""
    from . import api, checks, frames, tables

    cli = ui
    puzzle_bits = [flag for flag, given in (("puzzle", getattr(args, "puzzle", None)),
                                            ("--n", getattr(args, "n", None)),
                                            ("--formulation", getattr(args, "formulation", None))) if given]
    if puzzle_bits:
        raise BadInput(f"--model takes no {' or '.join(puzzle_bits)}: the file is the whole model")
    named = getattr(args, "solver", None)
    if isinstance(named, str):
        named = [named]
    if getattr(args, "solvers", None):
        named = [s.strip() for s in args.solvers.split(",") if s.strip()]
    if name == "solve" and not named:
        raise BadInput("solve --model needs --solver (compare --model runs every backend that takes it)")
    try:
        mf = read(args.model, args.data, args.time_limit)
    except CompileCut as e:      # a run that reached its time limit: its status, not an error
        print(json.dumps({"model": str(args.model), "status": "unknown", "message": str(e)})
              if getattr(args, "json", False) else e)
        return 0
    solvers = backends_for(mf, named)
    if not solvers:
        raise BadInput(f"no backend here takes a {mf.kind} model")
    for solver in solvers:
        require(solver)
    output = Path(args.output) if getattr(args, "output", None) else \
        Path(getattr(args, "results_dir", "results")) / f"compare-model-{mf.path.stem}.csv"
    if name != "solve":      # the one output check `table` makes, before the first backend runs
        from .bench import COLUMNS as BENCH_COLUMNS
        checks.table_file(output, BENCH_COLUMNS if name == "bench" else tables.COLUMNS)
    options = Options(time_limit=args.time_limit, threads=args.threads, seed=getattr(args, "seed", 0),
                      verbose=getattr(args, "verbose", False))
    runs = []
    for solver in solvers:
        if name != "solve":
            cli.err.print(f"running {solver} ...")
        run = solve(mf, solver, options)
        runs.append(run)
        if name == "compare":
            tables.append_row(output, tables.row_from_record(run.record()))
        elif name == "bench":
            from .bench import COLUMNS, _row
            from .puzzles.base import BenchCase

            case = BenchCase(mf.label, None, solver, float(args.time_limit), label=f"model {mf.path.name}")
            tables.append_row(output, _row(case, run), COLUMNS)   # type: ignore[arg-type]
    if name == "solve" and getattr(args, "json", False):
        print(json.dumps(runs[0].record(), default=str))
        return 0 if runs[0].result.status != Status.ERROR else 1
    title = f"{mf.path.name} ({mf.kind}, {len(mf.names)} variables), time limit {args.time_limit} s"
    cli.out.print(frames.rich_table(frames.comparison(runs), title))
    for run in runs:
        cli.out.print(f"{run.result.solver}: {run.verdict.message if run.verdict else run.result.message or '-'}",
                      markup=False)
    issues = api.disagreements(runs, mf.sense)      # type: ignore[arg-type]
    for issue in issues:
        cli.out.print(f"[red]DISAGREEMENT[/]: {issue}")
    if name != "solve":
        cli.out.print(f"no disagreement between backends; rows appended to {output}" if not issues else
                      f"rows appended to {output}")
    return 1 if issues else 0


if __name__ == "__main__":        # the child process that reads LP and MPS with HiGHS
    try:
        found = _highs_to_linear(sys.argv[1])
    except SystemExit as e:
        sys.stderr.write(f"{e}\n")
        sys.exit(1)
    Path(sys.argv[2]).write_bytes(pickle.dumps(found))
