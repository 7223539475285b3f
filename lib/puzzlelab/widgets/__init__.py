"""Interactive widgets for exploring the studies in JupyterLab (ipywidgets 8).

- `stepper(result)`: play / pause / slider / next over any study's result, drawn by the
  step drawer its study registered (`plotting.draws_steps`);
- `SlidingBoard(start, goal, table=...)`: click tiles; minimum moves left after each move, hint;
- `WaterSortBoard(level)`: click two tubes to pour; optimal pours left or "now unsolvable", hint;
- `PoolSizeExplorer()`: notebook 04's pool-size estimate and interval, redrawn live.

Each widget also displays as a static PNG (and a text line) where there is no live kernel:
papermill reports, HTML, untrusted notebooks. All logic is in plain methods (`click`, `select`,
`pour`, `hint`, `step`, `update`) so it is tested without a browser.
"""

from .boards import SlidingBoard, WaterSortBoard
from .core import Stepper, figure_png, strip_indices
from .explore import PoolDraw, PoolSizeExplorer, describe, draw_estimates, draw_pool
from .steppers import describe_move, step_caption, stepper

__all__ = [
    "PoolDraw",
    "PoolSizeExplorer",
    "SlidingBoard",
    "Stepper",
    "WaterSortBoard",
    "describe",
    "describe_move",
    "draw_estimates",
    "draw_pool",
    "figure_png",
    "step_caption",
    "stepper",
    "strip_indices",
]
