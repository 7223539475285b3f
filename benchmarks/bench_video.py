"""Reading puzzles out of a recording: our extractor vs plain decoding vs the write-up's method.

One 500-opening 1280x720 mp4v recording of the synthetic game (cached under cache/video).
Decode-only and our extractor run alternately, twice each, on the same file (best of two
kept, so a burst of load on the shared machine does not decide the ratio); the write-up's
baseline runs once. Prints accuracy against the ground truth and speed (wall and CPU).

    python benchmarks/bench_video.py [--openings 500] [--baseline-frames N] [--no-baseline]

Recorded 2026-11-22 on the shared 2-core machine (load ~4-6), 12,559 frames (419 s of video):

    method       wall s   cpu s   frames/s  vs decode (wall / cpu)  accuracy
    decode only    17.0    11.1      738       1.00 / 1.00
    ours           15.8    13.0      796       1.08 / 0.85          500/500 exact, 0 extra
    write-up     1440.6  1325.6        8.7     0.012 / 0.008        353 right, 147 missed
"""

from __future__ import annotations

import argparse

import cv2
import pandas as pd
from timing import timed

from puzzlelab.video import (
    cached_recording,
    extract_states,
    extract_states_writeup,
    load_pictures,
    score_extraction,
)


def decode_only(path) -> int:
    """Read every frame with cv2.VideoCapture and do nothing else; return the frame count."""
    cap = cv2.VideoCapture(str(path))
    n = 0
    while cap.read()[0]:
        n += 1
    cap.release()
    return n


def _table(rows: list[dict]) -> pd.DataFrame:
    """Rows of the comparison with throughput relative to decode-only."""
    out = pd.DataFrame(rows).set_index("method")
    out["frames/s"] = out["frames"] / out["wall s"]
    out["vs decode"] = out["frames/s"] / out.loc["decode only", "frames/s"]
    out["cpu vs decode"] = (out["frames"] / out["cpu s"]) / (
        out.loc["decode only", "frames"] / out.loc["decode only", "cpu s"]
    )
    return out.round(3)


def main() -> None:
    """Run the comparison and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openings", type=int, default=500)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--baseline-frames", type=int, default=None)
    ap.add_argument("--no-baseline", action="store_true")
    args = ap.parse_args()

    (video, truth), wall, _ = timed(
        lambda: cached_recording(args.openings, size=(args.width, args.height), progress=True)
    )
    n_frames = truth.attrs["n_frames"]
    print(
        f"recording: {video.name}, {n_frames} frames ({n_frames / 30:.0f} s), ready in {wall:.1f} s"
    )
    pictures = load_pictures(360)
    pd.set_option("display.width", 250)

    decode, ours = [], []
    for _ in range(2):
        decode.append(timed(lambda: decode_only(video)))
        ours.append(timed(lambda: extract_states(video, pictures, progress=False)))
    assert all(d[0] == n_frames for d in decode)
    best_decode = min(decode, key=lambda r: r[1])
    best_ours = min(ours, key=lambda r: r[1])
    table = best_ours[0]
    rows = [
        {
            "method": "decode only",
            "frames": n_frames,
            "wall s": best_decode[1],
            "cpu s": best_decode[2],
        },
        {
            "method": "ours",
            "frames": n_frames,
            "wall s": best_ours[1],
            "cpu s": best_ours[2],
            **score_extraction(table, truth).stats(),
        },
    ]
    print(_table(rows).to_string(), flush=True)  # the key figures first; the baseline is slow
    if not args.no_baseline:
        side = int(truth.attrs["board"][2])
        base, wall, cpu = timed(
            lambda: extract_states_writeup(
                video, pictures, board_side=side, max_frames=args.baseline_frames, progress=True
            )
        )
        frames = base.attrs["n_frames"]
        seen = truth[truth["end_frame"] < frames]
        rows.append(
            {
                "method": "write-up",
                "frames": frames,
                "wall s": wall,
                "cpu s": cpu,
                **score_extraction(base, seen).stats(),
            }
        )
    print(_table(rows).to_string())
    print("all runs (wall s, cpu s):")
    print("  decode:", [(round(w, 2), round(c, 2)) for _, w, c in decode])
    print("  ours:  ", [(round(w, 2), round(c, 2)) for _, w, c in ours])


if __name__ == "__main__":
    main()
