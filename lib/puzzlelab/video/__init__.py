"""Reading slide puzzles out of screen recordings (the slide-puzzle write-up's OpenCV part).

`synthesize_recording` films the game model of `puzzlelab.game`; `extract_states` reads one
row per opening (picture, state) back out of a video; `extract_states_writeup` is the
write-up's method for comparison; `score_extraction` checks either against ground truth;
`degrade_recording` makes a recording look like a phone's (touch indicators, flicker,
notifications, letterboxing, half resolution, heavy compression, dropped frames);
`puzzlelab.patterns.write_samples` stores the readings as data/last_origin/samples.csv.
"""

from .annotate import annotate_frame, change_trace, decode_only, read_frame
from .degrade import KINDS, Degradation, degrade_frames, degrade_recording
from .evaluate import Accuracy, robustness, score_extraction
from .extract import Reading, extract_states, read_board
from .pictures import PICTURE_NAMES, load_pictures, tile_templates, validate_pictures
from .plots import (
    draw_change_traces,
    draw_frames,
    draw_pictures,
    draw_reader_view,
    draw_robustness,
    draw_tracked,
)
from .synth import board_rect, cached_recording, synthesize_recording
from .writeup import extract_states_writeup

__all__ = [
    "PICTURE_NAMES",
    "KINDS",
    "Accuracy",
    "Degradation",
    "Reading",
    "annotate_frame",
    "board_rect",
    "cached_recording",
    "change_trace",
    "decode_only",
    "degrade_frames",
    "degrade_recording",
    "draw_change_traces",
    "draw_frames",
    "draw_pictures",
    "draw_reader_view",
    "draw_robustness",
    "draw_tracked",
    "extract_states",
    "extract_states_writeup",
    "load_pictures",
    "read_board",
    "read_frame",
    "robustness",
    "score_extraction",
    "synthesize_recording",
    "tile_templates",
    "validate_pictures",
]
