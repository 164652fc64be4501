"""MiniZinc files. On MiniZinc's own solvers the file runs as written (solvers/minizinc.py takes a
`MiniZincFile`); for every other backend MiniZinc's linear library flattens it to linear FlatZinc,
read here into a LinearModel. Either way a solution is judged by MiniZinc on the ORIGINAL file:
`check_minizinc` adds one constraint per output variable (its value, by the model's own names:
bool as true/false, enums by name, sets as set literals) and asks Gecode, with a fresh compilation
of the model and its data, whether that is satisfiable and what the objective is.

Why constraints on the original file rather than `-D` of FlatZinc names: FlatZinc names
(X_INTRODUCED_5_) mean nothing to the model, and FlatZinc integers are not its bools, enums or
sets. A flattened solution is first mapped back to the model's names by MiniZinc's own output
mapping (the .ozn, through `minizinc --ozn-file`, in JSON); that mapping only renames, it judges
nothing: a wrong mapping yields values the original model then rejects. `constraint array1d(x) = [...]`
fixes an array of any dimension and index sets, which a data assignment (`x = [...]`) cannot.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import BadInput, CompileCut, NotLinear
from ..models.core import LinearModel
from ..puzzles.base import Verdict
from ..solvers.base import clean_number
from .checking import NO_CHECKER

FZN_VAR = re.compile(r"^var\s+(?:(bool)|(-?\d+)\s*\.\.\s*(-?\d+)|(int|float))\s*:\s*(\w+)(.*);$")
FZN_ARRAY = re.compile(r"^array\s*\[[^]]*\]\s*of\s+(var\s+)?(\w+)(?:\s*\.\.\s*-?\d+)?\s*:\s*(\w+)(.*?)=\s*\[(.*)\];$")
FZN_CONSTRAINT = re.compile(r"^constraint\s+(\w+)\((.*)$")
FZN_SOLVE = re.compile(r"^solve\b.*?\b(minimize|maximize|satisfy)\s*(\w*)\s*;$")
OUTPUT_ARRAY = re.compile(r"output_array\(\[(.*?)\]\)")
INCLUDE = re.compile(r'\binclude\s*"([^"]*)"')
COMMENT_OR_STRING = re.compile(r'"(?:\\.|[^"\\])*"|%[^\n]*|/\*.*?\*/', re.S)
GECODE_LITERAL = "invalid integer literal"   # Gecode's FlatZinc reader on an integer past its 32 bits
CHECK_SECONDS = 120        # the check fixes every output variable: MiniZinc only propagates
FLOAT_TOLERANCE = 1e-6     # a float output may be off its value by this much, relative


@dataclass
class MiniZincFile:
    """The model (and data) file as written: what MiniZinc's own solvers get."""

    path: str
    data: str | None
    sense: str                  # min, max (satisfy reads as min: no objective)
    has_objective: bool
    outputs: list[str]          # the model's output variables, by its own names

    def files(self) -> list[str]:
        return [self.path, *([self.data] if self.data else [])]


@dataclass
class Flattened:
    """The file flattened to linear FlatZinc, with what maps a solution back to the model's names."""

    model: LinearModel
    outputs: dict[str, list[int]]      # FlatZinc output name -> the LinearModel's variables
    shapes: dict[str, str]             # FlatZinc output array -> its index sets (1..3,1..2)
    booleans: set[str]                 # FlatZinc outputs of type bool
    ozn: str                           # MiniZinc's output mapping, in JSON mode


def _first_error(said: str, fallback: str) -> str:
    errors = [x.replace("Error: ", "").strip() for x in said.splitlines() if x.startswith("Error")]
    return re.sub(r"\s+", " ", errors[0]) if errors else fallback


def refuse_outside_includes(path: Path, data: Path | None) -> None:
    """An `include` of a file outside the model's folder (an absolute path, or `..`) is refused
    before MiniZinc runs: a model file is untrusted and must not make MiniZinc read other files.
    Local includes are followed; a name found nowhere in the folder is the standard library's."""
    folder = path.resolve().parent
    todo, seen = [p for p in (path, data) if p is not None], set()
    while todo:
        current = todo.pop()
        if current.resolve() in seen:
            continue
        seen.add(current.resolve())
        try:
            text = current.read_text(errors="replace")
        except OSError as e:
            raise BadInput(f"--model {path}: {current} cannot be read ({e})") from None
        code = COMMENT_OR_STRING.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " ", text)
        for name in INCLUDE.findall(code):
            target = (folder / name).resolve()
            if Path(name).is_absolute() or ".." in Path(name).parts or not target.is_relative_to(folder):
                raise BadInput(f"--model {path}: {current.name} includes \"{name}\", outside the model's "
                               "folder (refused: only the folder's own files and MiniZinc's library)")
            if target.is_file():
                todo.append(target)


def minizinc_file(path: Path, data: Path | None) -> MiniZincFile:
    """The file as written, checked with its data by MiniZinc (a bad model or missing data is
    BadInput), and what its interface says: the sense and the output variables."""
    refuse_outside_includes(path, data)
    files = [str(path), *([str(data)] if data else [])]
    try:
        check = subprocess.run(["minizinc", "--instance-check-only", *files], capture_output=True, text=True,
                               timeout=600)
        face = subprocess.run(["minizinc", "--model-interface-only", *files], capture_output=True, text=True,
                              timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BadInput(f"--model {path}: MiniZinc cannot run ({e})") from None
    if check.returncode != 0 or face.returncode != 0:
        raise BadInput(f"--model {path}: MiniZinc cannot compile it "
                       f"({_first_error(check.stderr + face.stderr, f'exit {check.returncode or face.returncode}')})")
    interface = json.loads(face.stdout)
    method = interface.get("method", "sat")
    return MiniZincFile(str(path), str(data) if data else None, "max" if method == "max" else "min",
                        method != "sat", list(interface.get("output", {})))


def flatten(mzn: MiniZincFile, time_limit: float | None = None) -> Flattened:
    """MiniZinc's linear library flattens the file to linear FlatZinc, read here into a LinearModel;
    the compilation is part of the run, so `time_limit` bounds it (CompileCut). What the linear
    route cannot take is NotLinear."""
    try:
        out, text, mapping = _compile(mzn, ["-G", "linear", "--output-mode", "json", "--output-objective"], time_limit)
    except OSError as e:
        raise BadInput(f"--model {mzn.path}: MiniZinc cannot run ({e})") from None
    except subprocess.TimeoutExpired:
        raise CompileCut(f"{Path(mzn.path).name}: status unknown: the time limit ({time_limit:g} s) was "
                         "reached while MiniZinc compiled it; no backend ran") from None
    if out.returncode != 0 or text is None or mapping is None:
        why = _first_error(out.stderr, f"exit {out.returncode}")
        raise NotLinear(f"MiniZinc's linear library cannot flatten it ({why})")
    try:
        return _flatzinc(text, Path(mzn.path).stem, mapping)
    except BadInput as e:
        raise NotLinear(str(e)) from None
    except (ValueError, KeyError) as e:      # a float constant or variable, say: the reader takes integers only
        raise NotLinear(f"the linear FlatZinc has what the reader (integers only) does not take ({e})") from None


def unbounded_ints(mzn: MiniZincFile, solver_id: str, time_limit: float = CHECK_SECONDS) -> list[str] | None:
    """The integer variables that the solver's own FlatZinc of the file declares without a domain
    (`var int: x`); None where MiniZinc cannot compile it in time (the run will say why)."""
    try:
        text = _compile(mzn, ["--solver", solver_id], time_limit)[1]
    except (OSError, subprocess.TimeoutExpired):
        return None
    return None if text is None else re.findall(r"^var\s+int\s*:\s*(\w+)", text, re.M)


def _compile(mzn: MiniZincFile, flags: list[str], time_limit: float | None
             ) -> tuple[subprocess.CompletedProcess, str | None, str | None]:
    """`minizinc -c` of the file with `flags`: its run, and the FlatZinc and output mapping it wrote
    (None where it wrote none)."""
    with tempfile.TemporaryDirectory() as tmp:
        fzn, ozn = Path(tmp) / "model.fzn", Path(tmp) / "model.ozn"
        cmd = ["minizinc", "-c", *flags, *mzn.files(), "--fzn", str(fzn), "--ozn", str(ozn)]
        out = run_whole(cmd, time_limit)
        return (out, fzn.read_text() if fzn.exists() else None, ozn.read_text() if ozn.exists() else None)


def _flatzinc(text: str, name: str, ozn: str) -> Flattened:
    """Linear FlatZinc (int_lin_le, int_lin_eq, int_le, int_eq, bounded variables) as a LinearModel."""
    model = LinearModel(name=name)
    index: dict[str, int] = {}
    consts: dict[str, list[int]] = {}
    arrays: dict[str, list[str]] = {}
    outputs: dict[str, list[int]] = {}
    shapes: dict[str, str] = {}
    booleans: set[str] = set()

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
                if boolean:
                    booleans.add(vname)
            if "=" in rest.split("::")[0] or re.search(r"=\s*-?\w+\s*$", rest):
                value = term(rest.rsplit("=", 1)[1])
                model.add_row([(index[vname], 1.0)] if isinstance(value, int) else
                              [(index[vname], 1.0), (index[str(value)], -1.0)],
                              lo=value if isinstance(value, int) else 0, hi=value if isinstance(value, int) else 0)
        elif (arr := FZN_ARRAY.match(line)) is not None:
            is_var, element, aname, rest, body = arr.groups()
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
                if (shape := OUTPUT_ARRAY.search(rest)) is not None:
                    outputs[aname] = [index[str(e)] for e in arrays[aname]]
                    shapes[aname] = shape.group(1)
                    if element == "bool":
                        booleans.add(aname)
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
    return Flattened(model, outputs, shapes, booleans, ozn)


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


def original_values(flat: Flattened, values: list[float]) -> dict[str, Any]:
    """A flattened solution by the model's own names and types, through MiniZinc's output mapping
    (`minizinc --ozn-file`, JSON mode); ValueError where it cannot be mapped."""
    lines = []
    for name, idx in flat.outputs.items():
        xs = [values[i] for i in idx]
        if any(abs(x - round(x)) > 1e-6 for x in xs):
            raise ValueError(f"{name} has a non-integer value in the flattened (all-integer) model")
        words = [("true" if round(x) else "false") if name in flat.booleans else str(round(x)) for x in xs]
        if name in flat.shapes:
            dims = flat.shapes[name]
            lines.append(f"{name} = array{dims.count(',') + 1}d({dims}, [{', '.join(words)}]);")
        else:
            lines.append(f"{name} = {words[0]};")
    with tempfile.TemporaryDirectory() as tmp:
        ozn = Path(tmp) / "model.ozn"
        ozn.write_text(flat.ozn)
        out = subprocess.run(["minizinc", "--ozn-file", str(ozn)], input="\n".join(lines) + "\n----------\n",
                             capture_output=True, text=True, timeout=CHECK_SECONDS)
    try:
        from minizinc.json import MZNJSONDecoder

        found = json.loads(out.stdout.split("----------")[0], cls=MZNJSONDecoder)
    except (ValueError, ImportError) as e:
        raise ValueError(f"MiniZinc's output mapping cannot read the solution "
                         f"({_first_error(out.stderr, type(e).__name__)})") from None
    return {k: plain(v) for k, v in found.items() if not k.startswith("_")}


def plain(value: Any) -> Any:
    """A MiniZinc value as plain Python that travels between processes: enum members by name."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return {plain(v) for v in value}
    if isinstance(value, range) or isinstance(value, (bool, int, float, str)):
        return value
    return getattr(value, "name", str(value))          # an enum member


def json_ready(value: Any) -> Any:
    """A plain MiniZinc value for JSON: sets as sorted lists."""
    if isinstance(value, (set, frozenset, range)):
        return sorted(value, key=str)
    return [json_ready(v) for v in value] if isinstance(value, list) else value


def mzn_literal(value: Any) -> str:
    """A plain value as MiniZinc writes it: bool true/false, enums by name, sets in braces."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = f"{value:.17g}"
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z]\w*", value):
        return value
    if isinstance(value, range):
        return f"{value.start}..{value.stop - 1}" if len(value) else "{}"
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted((mzn_literal(v) for v in value), key=lambda s: (len(s), s))) + "}"
    raise ValueError(f"a value MiniZinc cannot be given back: {value!r}")


def _leaves(value: Any) -> Iterable[Any]:
    for v in value:
        yield from (_leaves(v) if isinstance(v, list) else [v])


def fixing(name: str, value: Any, exact: bool = False) -> str:
    """The constraint that fixes an output variable to its value; floats within a tolerance unless
    `exact`."""
    leaves = list(_leaves(value)) if isinstance(value, list) else None
    if leaves is not None and any(isinstance(x, float) for x in leaves) and not exact:
        floats = ",".join(mzn_literal(float(x)) for x in leaves)
        return (f"constraint let {{ array[int] of float: v = [{floats}] }} in forall(i in index_set(v))"
                f"(abs(array1d({name})[i] - v[i]) <= {FLOAT_TOLERANCE} * max(1.0, abs(v[i])));")
    if leaves is not None:
        return f"constraint array1d({name}) = [{','.join(mzn_literal(x) for x in leaves)}];"
    if isinstance(value, float) and not exact:
        lit = mzn_literal(value)
        return f"constraint abs({name} - {lit}) <= {FLOAT_TOLERANCE} * max(1.0, abs({lit}));"
    return f"constraint {name} = {mzn_literal(value)};"


def check_minizinc(mzn: MiniZincFile, assignment: dict[str, Any]) -> Verdict:
    """MiniZinc (Gecode) on the original file and data with every output variable fixed to the
    solution's value: satisfiable or not, and the objective recomputed by MiniZinc. Floats are
    fixed exactly first, then, if that fails, within the tolerance: Gecode optimising a float
    objective inside a tolerance box searched for minutes (`maximize x + 2*y` over a float x)."""
    try:
        exact = "\n".join(fixing(name, value, exact=True) for name, value in assignment.items())
        tolerant = "\n".join(fixing(name, value) for name, value in assignment.items())
    except ValueError as e:
        return Verdict(False, f"{NO_CHECKER}; {e}")
    verdict = _check_fixed(mzn, exact)
    return verdict if verdict.ok or tolerant == exact else _check_fixed(mzn, tolerant)


def run_whole(cmd: list[str], timeout: float | None) -> subprocess.CompletedProcess:
    """subprocess.run, but a time-out kills what the command started too: killing the MiniZinc
    driver alone left its fzn-gecode running (two for 40 minutes, 5 GB each). Any other exception
    (Ctrl-C, which does not reach the command's own session) kills it too, as subprocess.run does."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(cmd, process.returncode, out, err)


def _check_fixed(mzn: MiniZincFile, fixed: str) -> Verdict:
    with tempfile.TemporaryDirectory() as tmp:
        check = Path(tmp) / "solution_check.mzn"
        check.write_text(fixed + "\n")
        cmd = ["minizinc", "--solver", "gecode", "--output-mode", "dzn", "--output-objective",
               *mzn.files(), str(check)]
        try:
            out = run_whole(cmd, CHECK_SECONDS)
        except subprocess.TimeoutExpired:
            return Verdict(False, f"{NO_CHECKER}; MiniZinc's check of the solution did not end in {CHECK_SECONDS} s")
    if "----------" not in out.stdout:
        said = (out.stdout + out.stderr).strip()
        if GECODE_LITERAL in said:
            return Verdict(False, f"{NO_CHECKER}; not checked: the checker, MiniZinc with Gecode, takes no integer "
                                  "past 2^31 - 2, and this solution has one")
        why = "=====UNSATISFIABLE=====" if "UNSATISFIABLE" in said else _first_error(said, said[-120:])
        return Verdict(False, f"{NO_CHECKER}; MiniZinc rejects the solution on the file ({why})")
    found = re.findall(r"^_objective = (.+);$", out.stdout, re.M)
    objective = float(found[-1]) if found else None
    return Verdict(True, f"{NO_CHECKER}; MiniZinc accepts the solution on the file" +
                   (f"; objective recomputed by MiniZinc: {clean_number(objective)}" if found else ""), objective)
