"""Faults during `table`: a full disk, SIGKILL of the parent or of its worker at random moments, two
writers on one file. Afterwards the table, rerun, holds every N exactly once and no torn row."""
from __future__ import annotations

import csv
import errno
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import children

from workbench import tables
from workbench.cli import main

PY = sys.executable
NS = range(1, 9)
TABLE = ["table", "enigma144", "--n", f"{NS[0]}..{NS[-1]}"]


def start(out: Path) -> subprocess.Popen:
    return subprocess.Popen([PY, "-m", "workbench", *TABLE, "-o", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def whole_rows(path: Path) -> list[dict[str, str]]:
    """Every line of the file, which must all be whole rows."""
    raw = path.read_bytes()
    assert raw.endswith(b"\n"), raw[-200:]
    lines = list(csv.reader(raw.decode().splitlines()))
    assert all(len(line) == len(lines[0]) for line in lines), "a torn row"
    return [dict(zip(lines[0], line)) for line in lines[1:]]


def rerun_holds_every_n_once(out: Path, ns: range = NS) -> None:
    table = [*TABLE[:3], f"{ns[0]}..{ns[-1]}"]
    p = subprocess.run([PY, "-m", "workbench", *table, "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = whole_rows(out)
    assert sorted(int(r["n"]) for r in rows) == list(ns)
    assert all(r["status"] == "optimal" and r["verified"] == "True" for r in rows)


def test_a_short_write_leaves_no_half_row(tmp_path, monkeypatch):
    """os.write writes part of a row, then the disk is full: the row is taken back whole."""
    out = tmp_path / "t.csv"
    assert main([*TABLE[:3], "1..2", "-o", str(out)]) == 0
    before = out.read_bytes()
    real_write = os.write

    def full_disk(fd: int, data) -> int:
        if os.readlink(f"/proc/self/fd/{fd}") != str(out):
            return real_write(fd, data)
        if len(data) > 10:
            return real_write(fd, bytes(data[:len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full_disk)
    row = tables.read_rows(out)[0]
    with pytest.raises(OSError):
        tables.append_row(out, {**row, "n": "3"})
    assert out.read_bytes() == before
    monkeypatch.setattr(os, "write", real_write)
    rerun_holds_every_n_once(out)


def test_a_torn_last_row_is_neither_done_nor_glued_to_the_next(tmp_path):
    out = tmp_path / "t.csv"
    assert main([*TABLE[:3], "1..3", "-o", str(out)]) == 0
    whole = out.read_bytes()
    out.write_bytes(whole[:whole.rstrip(b"\n").rfind(b"\n") + 40])     # N = 3 cut after 40 bytes
    assert sorted(r["n"] for r in tables.read_rows(out)) == ["1", "2"]
    rerun_holds_every_n_once(out)


@pytest.fixture
def tiny_disk(tmp_path):
    """A 64 KiB tmpfs, filled up to its last page (needs mount rights: root, or skipped)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_during_table(tiny_disk):
    filler = tiny_disk / "filler"
    filler.write_bytes(b"x" * (64 * 1024 - 4096))          # one page left for the table
    out, ns = tiny_disk / "t.csv", range(1, 11)             # more than a page of rows
    p = subprocess.run([PY, "-m", "workbench", *TABLE[:3], "1..10", "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 1 and "No space left" in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    stored = whole_rows(out)
    assert 0 < len(stored) < len(ns)
    filler.unlink()
    rerun_holds_every_n_once(out, ns)


def test_sigkill_of_the_parent_at_random_moments(tmp_path):
    out = tmp_path / "t.csv"
    moments = random.Random(17)
    for _ in range(3):
        p = start(out)
        time.sleep(moments.uniform(1.0, 4.0))
        p.kill()
        p.communicate()
    rerun_holds_every_n_once(out)


def test_sigkill_of_the_worker_at_random_moments(tmp_path):
    out = tmp_path / "t.csv"
    moments = random.Random(17)
    p = start(out)
    kills = 0
    while p.poll() is None and kills < 3:
        try:
            kids = children(p.pid)
        except FileNotFoundError:
            break
        if not kids:               # no worker yet (the parent is starting, or starts a new one)
            time.sleep(0.02)
            continue
        time.sleep(moments.uniform(0.0, 0.4))
        for child in kids:
            try:
                os.kill(child, signal.SIGKILL)
                kills += 1
            except ProcessLookupError:
                pass
    _, err = p.communicate()
    assert p.returncode == 0 and "Traceback" not in err, err
    assert kills > 0
    rerun_holds_every_n_once(out)


def test_two_writers_on_one_table(tmp_path):
    out = tmp_path / "t.csv"
    first, second = start(out), start(out)
    for p in (first, second):
        _, err = p.communicate()
        assert p.returncode == 0, err
    rows = whole_rows(out)
    assert sorted(int(r["n"]) for r in rows) == list(NS)
    rerun_holds_every_n_once(out)
