"""The address of a Dask cluster, as --cluster takes it."""
from __future__ import annotations

from pathlib import Path


def cluster_address(text: str) -> str:
    """The --cluster value, checked when it is read: local:K, tcp://HOST:PORT or a scheduler file."""
    import argparse
    import re

    kind, _, rest = text.partition(":")
    if kind == "local" and rest.isdigit() and 1 <= int(rest) <= 4096:
        return text
    address = re.fullmatch(r"(tcp|tls)://([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})", text)
    if address and 1 <= int(address.group(3)) <= 65535:
        return text
    if kind not in ("local", "tcp", "tls") and Path(text).is_file():
        return text
    raise argparse.ArgumentTypeError(f"--cluster is local:K, tcp://HOST:PORT or a scheduler file, got {text!r}")
