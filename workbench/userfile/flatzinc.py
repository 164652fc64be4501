"""MiniZinc's route: MiniZinc's own linear library flattens the model (with its data) to linear
FlatZinc, read here into a LinearModel that the MIP backends take too; a solution is checked by
MiniZinc, on the original file with the output variables fixed to the solution's values."""
from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

from ..models.core import LinearModel
from ..puzzles.base import BadInput, Verdict
from ..solvers.base import clean_number
from .checking import NO_CHECKER

FZN_VAR = re.compile(r"^var\s+(?:(bool)|(-?\d+)\s*\.\.\s*(-?\d+)|(int|float))\s*:\s*(\w+)(.*);$")
FZN_ARRAY = re.compile(r"^array\s*\[[^]]*\]\s*of\s+(var\s+)?\w+(?:\s*\.\.\s*-?\d+)?\s*:\s*(\w+)(.*?)=\s*\[(.*)\];$")
FZN_CONSTRAINT = re.compile(r"^constraint\s+(\w+)\((.*)$")
FZN_SOLVE = re.compile(r"^solve\b.*?\b(minimize|maximize|satisfy)\s*(\w*)\s*;$")


class CompileCut(Exception):
    """The time limit ran out while MiniZinc compiled the file: no model, no backend run."""


def read_minizinc(path: Path, data: Path | None,
                  time_limit: float | None = None) -> tuple[LinearModel, list[str], dict[str, list[int]]]:
    """MiniZinc's linear library flattens the model to linear FlatZinc, read here into a LinearModel;
    the compilation is part of the run, so `time_limit` bounds it (CompileCut)."""
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
    return _flatzinc(text, path.stem)


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


def check_minizinc(path: Path, data: Path | None, flat: LinearModel, outputs: dict[str, list[int]],
                   values: list[float]) -> Verdict:
    """The flattened rows first, then MiniZinc solving the original file with the output variables
    fixed to the solution's values (it recomputes the objective)."""
    bad = [v.name for v, x in zip(flat.vars, values) if not v.lb <= x <= v.ub]
    bad += [r.name or f"row {i}" for i, r in enumerate(flat.rows)
            if not _holds(sum(c * values[v] for v, c in r.terms), r.lo, r.hi)]
    if bad:
        return Verdict(False, f"{NO_CHECKER}; the flattened file's {', '.join(bad[:3])} fail(s)")
    flat_objective = flat.constant + sum(c * values[v] for v, c in flat.objective)
    fixed = " ".join(f"{name} = {_mzn_value(values, idx)};" for name, idx in outputs.items())
    cmd = ["minizinc", "--solver", "gecode", "--output-mode", "json", "--output-objective", str(path),
           *([str(data)] if data else []), "-D", fixed]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    found = re.search(r"\{.*?\}", out.stdout, re.S)
    if "UNSATISFIABLE" in out.stdout or not found:
        return Verdict(False, f"{NO_CHECKER}; MiniZinc rejects the solution on the file "
                              f"({(out.stdout + out.stderr).strip().splitlines()[-1:]})")
    objective = json.loads(found.group(0)).get("_objective", flat_objective)
    return Verdict(True, f"{NO_CHECKER}; MiniZinc accepts the solution on the file; objective recomputed "
                         f"by MiniZinc: {clean_number(objective)}", float(objective))


def _holds(activity: float, lo: float | None, hi: float | None) -> bool:
    return (lo is None or activity >= lo - 1e-6) and (hi is None or activity <= hi + 1e-6)


def _mzn_value(values: list[float], idx: list[int]) -> str:
    return str(values[idx[0]]) if len(idx) == 1 else "[" + ",".join(str(values[i]) for i in idx) + "]"
