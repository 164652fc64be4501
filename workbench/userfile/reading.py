"""Reading a model file exactly as it is written, and making it the workbench's model kind.

LP and MPS are read by HiGHS (in a child process, which hands the numbers back as JSON: highspy and
OR-Tools must not share one process), WCNF by the parser below. The numbers are kept as the file
gives them: continuous columns, fractional and infinite bounds, the objective's constant. What the
workbench's models cannot say (quadratic terms, semi-continuous columns, SOS sets, indicator or
general constraints) is refused, by name, never dropped. `parse` is also what the check calls: it
reads the file again, so a solution is judged by the file, not by the converted model.
"""
from __future__ import annotations

import gzip
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..errors import BadInput
from ..models.core import LinearModel, MaxSatModel

KINDS = {".lp": "lp", ".mps": "mps", ".wcnf": "wcnf", ".mzn": "mzn"}
COMPRESSED = ".gz"                 # .lp.gz, .mps.gz (how MIPLIB ships), .wcnf.gz
INFINITE = 1e20                    # HiGHS's own infinite_bound: a bound this large is no bound


def kind_of(path: Path) -> str:
    """lp, mps, wcnf or mzn, from the name (a .gz suffix read through); BadInput otherwise."""
    suffixes = [s.lower() for s in path.suffixes]
    inner = suffixes[-2] if suffixes[-1:] == [COMPRESSED] and len(suffixes) > 1 else suffixes[-1] if suffixes else ""
    kind = KINDS.get(inner)
    if kind is None or (kind == "mzn" and suffixes[-1] == COMPRESSED):
        raise BadInput(f"--model {path}: unknown kind (known: {', '.join(KINDS)}, and .lp.gz, .mps.gz, .wcnf.gz)")
    return kind


@dataclass
class LinearFile:
    """An LP or MPS file as HiGHS reads it: columns, rows and objective, numbers untouched."""

    sense: str
    offset: float
    names: list[str]
    lower: list[float]
    upper: list[float]
    integer: list[bool]
    cost: list[float]
    row_names: list[str]
    row_lower: list[float]
    row_upper: list[float]
    rows: list[list[tuple[int, float]]]


@dataclass
class WcnfFile:
    """A WCNF file: hard clauses, soft clauses with their weights as written (fractional, negative;
    an integer weight as a Python int, exact past 2^53, where a float would merge 2^60 and 2^60 + 100)."""

    n_vars: int
    hard: list[list[int]] = field(default_factory=list)
    soft: list[tuple[list[int], int | float]] = field(default_factory=list)


def lines_of(path: Path) -> Iterator[str]:
    """The file's lines, decompressed where it is gzipped."""
    opener = gzip.open if path.suffix.lower() == COMPRESSED else open
    try:
        with opener(path, "rt", errors="replace") as f:
            yield from f
    except (OSError, EOFError) as e:
        raise BadInput(f"--model {path}: cannot be read ({e})") from None


def parse(path: Path, kind: str) -> tuple[LinearFile | WcnfFile, list[str]]:
    """The file's content and any warnings (one line each); BadInput for what cannot be read or
    what the workbench cannot represent exactly."""
    if kind == "wcnf":
        return parse_wcnf(path), []
    refusal, warnings = scan(path, kind)
    if refusal:
        raise BadInput(f"--model {path}: it holds {refusal}, which the workbench's linear models cannot "
                       "represent (refused rather than dropped)")
    with tempfile.TemporaryDirectory() as tmp:
        readable = path
        if path.suffix.lower() == COMPRESSED:      # HiGHS reads plain files: a decompressed copy
            readable = Path(tmp) / f"model.{kind}"
            with gzip.open(path, "rb") as packed, open(readable, "wb") as plain:
                shutil.copyfileobj(packed, plain)
        answer = Path(tmp) / "model.json"
        out = subprocess.run([sys.executable, "-m", "workbench.userfile.reading", str(readable), str(answer)],
                             capture_output=True, text=True, timeout=3600)
        if out.returncode != 0 or not answer.exists():
            said = out.stderr.strip().splitlines()
            raise BadInput(f"--model {path}: {said[-1] if said else f'HiGHS cannot read it as {kind.upper()}'}")
        data = json.loads(answer.read_text())
    data["rows"] = [[(int(j), float(c)) for j, c in row] for row in data["rows"]]
    return LinearFile(**data), warnings


# -- what HiGHS would read past: refused by name before it reads ------------------------------------

MPS_SECTIONS = {"NAME", "OBJSENSE", "OBJSENS", "OBJNAME", "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "ENDATA"}
MPS_MEANING = {"QUADOBJ": "a quadratic objective", "QMATRIX": "a quadratic objective",
               "QSECTION": "quadratic constraints", "QCMATRIX": "quadratic constraints",
               "CSECTION": "cone constraints", "SOS": "SOS sets", "INDICATORS": "indicator constraints",
               "GENCONS": "general constraints", "PWLOBJ": "a piecewise-linear objective"}
LP_SECTIONS = {"sos": "SOS sets", "sos1": "SOS sets", "sos2": "SOS sets", "semi-continuous": "semi-continuous columns",
               "semi": "semi-continuous columns", "semis": "semi-continuous columns",
               "general constraints": "general constraints", "genconstrs": "general constraints",
               "pwlobj": "a piecewise-linear objective", "lazy constraints": "lazy constraints",
               "user cuts": "user cuts"}
SENSE_COMMENT = re.compile(r"^\*\s*SENSE\s*:\s*(\w+)", re.I)


def scan(path: Path, kind: str) -> tuple[str | None, list[str]]:
    """(what the file holds that must be refused, or None; warnings). A PuLP-written MPS keeps a
    maximisation only as a `*SENSE:Maximize` comment, which MPS readers ignore: said, not guessed."""
    sense_comment, objsense = None, False
    for line in lines_of(path):
        if kind == "lp":
            text = line.split("\\", 1)[0].strip().lower()
            if "[" in text:
                return "quadratic terms ([ ... ])", []
            if "->" in text:
                return "indicator constraints (->)", []
            if text.rstrip(":") in LP_SECTIONS:
                return LP_SECTIONS[text.rstrip(":")], []
            continue
        found = SENSE_COMMENT.match(line)
        if found:
            sense_comment = found.group(1)
        if not line.strip() or line[0] in " \t*":
            continue
        section = line.split()[0].upper()
        objsense = objsense or section.startswith("OBJSENS")
        if section not in MPS_SECTIONS:
            return f"an MPS section {section}" + (f" ({MPS_MEANING[section]})" if section in MPS_MEANING else ""), []
    if sense_comment and sense_comment.lower().startswith("max") and not objsense:
        return None, [f"warning: {path.name}: its sense is only in a comment (*SENSE:{sense_comment}), which MPS "
                      "readers ignore: solved as a minimisation, as the MPS standard says (add an OBJSENSE "
                      "section to maximise)"]
    return None, []


# -- WCNF ------------------------------------------------------------------------------------------

SPARSE, DENSE = 8, 2 ** 20    # a file may number up to this many variables a literal, or this many in all


def parse_wcnf(path: Path) -> WcnfFile:
    """Old (`p wcnf NV NC TOP`: weight TOP is hard) and new (`h` for hard) WCNF; weights as
    written, fractional or negative."""
    found = WcnfFile(0)
    top = math.inf
    occurrences = 0
    for number, line in enumerate(lines_of(path), 1):
        parts = line.split()
        if not parts or parts[0] in ("c", "%"):
            continue
        try:
            if parts[0] == "p":
                if parts[1:2] != ["wcnf"]:
                    raise ValueError("the header is not `p wcnf`")
                top = _weight(parts[4]) if len(parts) > 4 else math.inf
                continue
            if parts[-1] != "0":
                raise ValueError("a clause ends in 0")
            weight = math.inf if parts[0] == "h" else _weight(parts[0])
            if parts[0] != "h" and not math.isfinite(weight):
                raise ValueError(f"weight {parts[0]}")
            literals = [_integer(x) for x in parts[1:-1]]
        except (ValueError, IndexError) as e:
            raise BadInput(f"--model {path}: not a WCNF file (line {number}: {e})") from None
        if 0 in literals:
            raise BadInput(f"--model {path}: not a WCNF file (line {number}: 0 inside a clause)")
        found.n_vars = max([found.n_vars, *(abs(x) for x in literals)])
        occurrences += len(literals)
        if weight >= top:
            found.hard.append(literals)
        elif weight:
            found.soft.append((literals, weight))
    if found.n_vars > max(SPARSE * occurrences, DENSE):
        raise BadInput(f"--model {path}: variable {found.n_vars} in a file of {occurrences} literals: a value is kept "
                       "per variable, so number them densely")
    return found


INTEGER = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _integer(text: str) -> int:
    """An integer in ASCII digits only: Python's int() also takes `1_000` and other scripts' digits."""
    if not INTEGER.fullmatch(text):
        raise ValueError(f"{text!r} is not an integer")
    return int(text)


def _weight(text: str) -> int | float:
    """An integer as written exactly (int), a decimal (1.5, 1e3) as a float; nothing else."""
    if INTEGER.fullmatch(text):
        return int(text)
    if not DECIMAL.fullmatch(text):
        raise ValueError(f"weight {text!r} is not a number")
    number = float(text)
    return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number


# -- the workbench's model kinds, exactly ----------------------------------------------------------

def linear_model(lf: LinearFile, name: str) -> LinearModel:
    """Every number as the file has it; an integer column's bounds are its domain's (ceil of the
    lower, floor of the upper: 0 <= x <= 2.7 is 0..2), which is what the file means, not rounding."""
    model = LinearModel(sense="max" if lf.sense == "max" else "min", constant=lf.offset, name=name)
    for j, column in enumerate(lf.names):
        lo, hi = lf.lower[j], lf.upper[j]
        if lf.integer[j]:
            lo, hi = (math.ceil(lo) if math.isfinite(lo) else lo), (math.floor(hi) if math.isfinite(hi) else hi)
        model.add_var(column, lo, hi, lf.integer[j])
    model.objective = [(j, c) for j, c in enumerate(lf.cost) if c]
    for i, terms in enumerate(lf.rows):
        lo, hi = lf.row_lower[i], lf.row_upper[i]
        model.add_row(terms, lo if math.isfinite(lo) else None, hi if math.isfinite(hi) else None, lf.row_names[i])
    return model


def maxsat_model(wf: WcnfFile, name: str) -> MaxSatModel:
    """A negative weight w on clause C: paying w when C is false is paying w, then -w back when C
    holds; `a` below may be true only while C is false, so the soft unit [a] of weight -w pays
    exactly when C holds, and w goes to the offset."""
    model = MaxSatModel(wf.n_vars, [list(c) for c in wf.hard], decode_vars=wf.n_vars, name=name)
    for clause, weight in wf.soft:
        if weight > 0:
            model.soft.append((list(clause), weight))
            continue
        model.n_vars += 1
        a = model.n_vars
        model.hard += [[-a, -lit] for lit in clause]
        model.soft.append(([a], -weight))
        model.offset += weight
    return model


# -- the child process that reads LP and MPS with HiGHS ----------------------------------------------

def _finite_or_inf(x: float) -> float:
    return x if abs(x) < INFINITE else math.copysign(math.inf, x)


def _highs_read(path: str) -> LinearFile:
    """HiGHS's reading of the file, refused (SystemExit with the reason) where HiGHS holds something
    a LinearModel cannot (a Hessian, semi-continuous or semi-integer columns) or only warned. Its
    log is read for warnings too: a repeated MPS entry is a warning there (the first kept, the rest
    ignored) while the status says kOk, where glpsol refuses the file."""
    import highspy

    from ..solvers.highs import quiet_highs

    h = quiet_highs(highspy)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "read.log"
        for option, setting in (("log_to_console", False), ("log_file", str(log)), ("output_flag", True)):
            h.setOptionValue(option, setting)
        status = h.readModel(path)
        h.setOptionValue("output_flag", False)
        said = log.read_text(errors="replace").splitlines() if log.exists() else []
    warning = next((line.strip() for line in said if line.startswith("WARNING")), None)
    if status == highspy.HighsStatus.kError:
        raise SystemExit(f"HiGHS cannot read it as {Path(path).suffix[1:].upper()}")
    if status == highspy.HighsStatus.kWarning or warning:
        raise SystemExit(f"HiGHS reads it only with a warning ({warning or 'a repeated or out-of-place entry, say'}); "
                         "refused rather than guessed")
    if h.getModel().hessian_.dim_ > 0:
        raise SystemExit("it holds a quadratic objective, which the workbench's linear models cannot represent "
                         "(refused rather than dropped)")
    lp = h.getLp()
    n = lp.num_col_
    kinds = list(lp.integrality_) or [highspy.HighsVarType.kContinuous] * n
    names = list(lp.col_names_) or [f"c{j}" for j in range(n)]
    odd = [names[j] for j, k in enumerate(kinds)
           if k not in (highspy.HighsVarType.kContinuous, highspy.HighsVarType.kInteger)]
    if odd:
        raise SystemExit(f"it holds semi-continuous or semi-integer columns ({', '.join(odd[:3])}), which the "
                         "workbench's models cannot represent (refused rather than dropped)")
    rows: list[list[tuple[int, float]]] = [[] for _ in range(lp.num_row_)]
    a = lp.a_matrix_
    # each attribute read copies the whole array out of HiGHS: read each once, not once an entry
    start, index, value = list(a.start_), [int(i) for i in a.index_], [float(v) for v in a.value_]
    if a.format_ == highspy.MatrixFormat.kColwise:
        for j in range(n):
            for k in range(start[j], start[j + 1]):
                rows[index[k]].append((j, value[k]))
    else:
        for i in range(lp.num_row_):
            rows[i] = [(index[k], value[k]) for k in range(start[i], start[i + 1])]
    cost = [float(c) for c in lp.col_cost_]      # (a row's coefficient that large HiGHS refuses to read)
    huge = [j for j, c in enumerate(cost) if not abs(c) < INFINITE]
    if huge:
        raise SystemExit(f"its objective coefficient of {names[huge[0]]} is {cost[huge[0]]:g} (HiGHS reads "
                         f"{INFINITE:g} or more as infinite): no solver can take it, refused")
    return LinearFile(
        sense="max" if lp.sense_ == highspy.ObjSense.kMaximize else "min", offset=float(lp.offset_),
        names=names, lower=[_finite_or_inf(x) for x in lp.col_lower_], upper=[_finite_or_inf(x) for x in lp.col_upper_],
        integer=[k == highspy.HighsVarType.kInteger for k in kinds], cost=cost,
        row_names=list(lp.row_names_) or [f"r{i}" for i in range(lp.num_row_)],
        row_lower=[_finite_or_inf(x) for x in lp.row_lower_], row_upper=[_finite_or_inf(x) for x in lp.row_upper_],
        rows=rows)


if __name__ == "__main__":
    try:
        found = _highs_read(sys.argv[1])
    except SystemExit as e:
        sys.stderr.write(f"{e}\n")
        sys.exit(1)
    Path(sys.argv[2]).write_text(json.dumps(asdict(found)))
