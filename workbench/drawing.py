"""PNG drawings: one figure helper, so every puzzle gets the same set-up, framing and clean-up."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def figure(path: str, size: tuple[float, float], panels: int = 1, dpi: int = 120) -> Iterator[list[Any]]:
    """Axes to draw on, one per panel; on leaving, they lose their frames and the PNG is written.
    matplotlib is imported here so that runs without drawings never load it."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, panels, figsize=size, squeeze=False)
    try:
        yield list(axes[0])
        for ax in axes[0]:
            ax.set_aspect("equal")
            ax.axis("off")
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
    finally:
        plt.close(fig)
