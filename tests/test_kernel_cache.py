"""Numba's disk cache keyed by the source (kernel_cache.py): a kernel whose callee in another file
changed runs the new callee, where numba's own cache would load the old machine code."""
import os
import subprocess
import sys
from pathlib import Path

from workbench import kernel_cache

CALLER = """from numba import njit
from .callee import step

@njit(cache=True)
def total():
    return step() + 1
"""
RUN = """import importlib.util, sys
spec = importlib.util.spec_from_file_location("kernel_cache", {module!r})
kc = importlib.util.module_from_spec(spec); spec.loader.exec_module(kc)
kc.use_keyed_cache(kc.Path({root!r}), package=kc.Path({package!r}))
sys.path.insert(0, {parent!r})
from pkg.caller import total
print(total())
"""


def run_total(tmp_path: Path, keyed: bool) -> int:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    if not keyed:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "plain")        # numba's own invalidation alone
    script = RUN.format(module=str(Path(kernel_cache.__file__)), root=str(tmp_path / "keyed"),
                        package=str(tmp_path / "pkg"), parent=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def write_package(tmp_path: Path, step: int) -> None:
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "caller.py").write_text(CALLER)
    (tmp_path / "pkg" / "callee.py").write_text(f"from numba import njit\n\n@njit(cache=True)\ndef step():\n"
                                                f"    return {step}\n")


def test_an_edited_callee_in_another_file_is_compiled_anew_where_numbas_own_cache_runs_the_old(tmp_path):
    write_package(tmp_path, 1)
    assert run_total(tmp_path, keyed=True) == 2 == run_total(tmp_path, keyed=False)
    write_package(tmp_path, 41)
    assert run_total(tmp_path, keyed=False) == 2          # stale: the caller's file did not change
    assert run_total(tmp_path, keyed=True) == 42
    assert len(list((tmp_path / "keyed").iterdir())) == 2  # one folder per source state


def test_the_digest_follows_every_source_file_and_a_users_folder_is_kept(tmp_path, monkeypatch):
    write_package(tmp_path, 1)
    before = kernel_cache.source_digest(tmp_path / "pkg")
    assert kernel_cache.source_digest(tmp_path / "pkg") == before
    (tmp_path / "pkg" / "callee.py").write_text((tmp_path / "pkg" / "callee.py").read_text() + "# a comment\n")
    assert kernel_cache.source_digest(tmp_path / "pkg") != before
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert kernel_cache.use_keyed_cache(tmp_path / "keyed") is None
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")


def test_folders_of_other_source_states_unused_for_two_weeks_are_removed(tmp_path):
    old, recent = tmp_path / "keyed" / "old", tmp_path / "keyed" / "recent"
    old.mkdir(parents=True)
    recent.mkdir()
    os.utime(old, (0, 0))
    write_package(tmp_path, 1)
    folder = kernel_cache.keyed_folder(tmp_path / "keyed", package=tmp_path / "pkg")
    assert folder.parent == tmp_path / "keyed" and folder.name == kernel_cache.source_digest(tmp_path / "pkg")
    assert sorted(p.name for p in (tmp_path / "keyed").iterdir()) == ["recent"]    # numba makes `folder`
    folder.mkdir()
    os.utime(folder, (0, 0))
    assert kernel_cache.keyed_folder(tmp_path / "keyed", package=tmp_path / "pkg") == folder
    assert folder.stat().st_mtime > 0                      # in use again: touched, kept


def test_an_unwritable_root_leaves_numba_its_own_places(tmp_path, monkeypatch):
    """Numba pointed at a folder it cannot write fails at the first cached kernel: such a root is
    refused, and NUMBA_CACHE_DIR stays unset."""
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert kernel_cache.use_keyed_cache(blocked / "numba") is None
    assert "NUMBA_CACHE_DIR" not in os.environ
