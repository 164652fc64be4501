"""--option BACKEND:NAME=VALUE: a backend's own settings passed through, checked before any work.

A backend whose library lists its options (HiGHS, CP-SAT, SCIP: `options_via = "library"`) has each
name checked against that list and each value typed by the option's own type; the list is read in a
child process, since solver libraries must not meet in one process (runner.py). A backend that drives
a command (CBC, glpsol, lp_solve, MiniZinc: `"command"`) gets each option on that command line as
given (NAME alone, or NAME=true, is a bare flag); the others take none.
"""
from __future__ import annotations

import difflib
import json
import subprocess
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from ..errors import BadInput
from . import backend, backend_class, split_name
from .base import Unavailable

TRUE, FALSE = ("true", "on", "yes", "1"), ("false", "off", "no", "0")


def parse(specs: Iterable[str]) -> dict[str, dict[str, Any]]:
    """`--option` texts as backend -> name -> typed value; BadInput (one line) for a bad one."""
    given: dict[str, dict[str, Any]] = {}
    for spec in specs:
        head, eq, value = spec.partition("=")
        base, colon, name = head.partition(":")
        if not (base and colon and name):
            raise BadInput(f"--option {spec}: wants BACKEND:NAME=VALUE, e.g. highs:mip_rel_gap=0")
        given.setdefault(base, {})[name] = value if eq else None
    return checked(given)


def backend_options(given: Mapping[str, Mapping[str, Any]] | Iterable[str] | None) -> dict[str, dict[str, Any]]:
    """Backend options as the API takes them ({"highs": {"mip_rel_gap": 0}}, or --option texts),
    checked and typed."""
    if not given:
        return {}
    return checked(given) if isinstance(given, Mapping) else parse(given)


def checked(given: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Options by backend (values as text, None for a bare flag, or already typed), each checked
    against its backend and typed; BadInput naming the first bad one."""
    out: dict[str, dict[str, Any]] = {}
    for name, options in given.items():
        base = split_name(name)[0]
        via = backend_class(base).options_via              # UnknownSolver for a name not in the registry
        if via is None:
            raise BadInput(f"--option {name}:...: {base} takes no options of its own")
        types = option_types(base) if via == "library" else None
        out[base] = {key: _typed(base, key, value, types) for key, value in options.items()}
    return out


def _typed(base: str, key: str, value: Any, types: dict[str, Any] | None) -> Any:
    where = f"--option {base}:{key}"
    if types is None:                                      # a command's flag: as given
        if any(c.isspace() for c in key):
            raise BadInput(f"{where}: an option name without spaces, please")
        if value is None or value is True or str(value).lower() == "true":
            return True
        if any(c.isspace() for c in str(value)) or not str(value):
            raise BadInput(f"{where}={value}: a command-line value without spaces, please")
        return _guess(str(value))
    if key not in types:
        near = difflib.get_close_matches(key, list(types), 3)
        raise BadInput(f"{where}: {base} has no option '{key}'"
                       + (f" (did you mean {', '.join(near)}?)" if near else ""))
    kind = types[key]
    text = "true" if value is None else str(value).strip()
    try:
        if isinstance(kind, list):                         # an enum: one of its names
            if text not in kind:
                raise ValueError(f"one of {', '.join(kind)}")
            return text
        if kind == "bool":
            if isinstance(value, bool) or text.lower() in TRUE + FALSE:
                return value if isinstance(value, bool) else text.lower() in TRUE
            raise ValueError("true or false")
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        return text
    except ValueError as e:
        raise BadInput(f"{where}={value}: {base} wants {kind if isinstance(kind, str) else 'a name'} "
                       f"({e})") from None


def _guess(text: str) -> Any:
    """A command-line value as the number it reads as, else the text (for the record)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@cache
def option_types(base: str) -> dict[str, Any]:
    """The library's own option names and types ("bool", "int", "float", "str", or an enum's
    names), read in a child process."""
    try:
        done = subprocess.run([sys.executable, "-m", "workbench.solvers.tuning", base], capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Unavailable(f"{base}'s option names could not be read ({e})") from None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        why = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise Unavailable(f"{base}'s option names could not be read: {why}")
    types: dict[str, Any] = json.loads(lines[-1])       # the library may print a banner first
    return types


def as_record(options: Mapping[str, Any]) -> str:
    """The options as the `options` column holds them: a JSON object, {} for none."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))


def as_flags(base: str, options: Mapping[str, Any]) -> list[str]:
    """The command-line words that pass these options again (for a row's command)."""
    words = []
    for key, value in options.items():
        bare = value is True and backend_class(base).options_via == "command"
        text = json.dumps(value) if isinstance(value, bool) else str(value)
        words += ["--option", f"{base}:{key}" if bare else f"{base}:{key}={text}"]
    return words


if __name__ == "__main__":
    print(json.dumps(backend(sys.argv[1]).option_types()))
