"""Interactive widgets for exploring the studies in JupyterLab (ipywidgets 8).

- `stepper(result)`: play / pause / slider / next over any solver result's `states`
  (`sliding_stepper`, `watersort_stepper`, `nonogram_stepper` for each puzzle);
- `SlidingBoard(start, goal, table=...)`: click tiles; minimum moves left after each move, hint;
- `WaterSortBoard(level)`: click two tubes to pour; optimal pours left or "now unsolvable", hint;
- `PoolSizeExplorer()`: notebook 04's pool-size estimate and interval, redrawn live.

Each widget also displays as a static PNG (and a text line) where there is no live kernel:
papermill reports, HTML, untrusted notebooks. All logic is in plain methods (`click`, `select`,
`pour`, `hint`, `step`, `update`) so it is tested without a browser.
"""

from .boards import SlidingBoard, WaterSortBoard
from .core import Panel, Stepper, figure_png, strip_indices
from .explore import PoolDraw, PoolSizeExplorer, describe, draw_estimates, draw_pool
from .steppers import (
    nonogram_stepper,
    result_moves,
    result_states,
    sliding_stepper,
    stepper,
    watersort_stepper,
)

__all__ = [
    "Panel",
    "PoolDraw",
    "PoolSizeExplorer",
    "SlidingBoard",
    "Stepper",
    "WaterSortBoard",
    "describe",
    "draw_estimates",
    "draw_pool",
    "figure_png",
    "nonogram_stepper",
    "result_moves",
    "result_states",
    "sliding_stepper",
    "stepper",
    "strip_indices",
    "watersort_stepper",
]
