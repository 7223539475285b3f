"""Screenshot reading: CPU seconds per shared screenshot (beside the previous figure), and a
big sweep of style-randomised synthetic boards (exact / flagged / silent / error shares)."""

from __future__ import annotations

import json
import sys
import time

import pandas as pd

from puzzlelab.paths import shared_dir
from puzzlelab.stats import proportion_ci
from puzzlelab.watersort.screenshot import read_screenshot
from puzzlelab.watersort.synth import score_synth

PREVIOUS = (
    "0.11-0.14 s mean, 0.22 s worst CPU per screenshot (22 screenshots, before issue 20); "
    "0.31 s mean, 0.62 s worst (40 screenshots, outline finder only, 2026-11-25 morning)"
)
# 2026-11-25 afternoon, load 3-6, with the comb locator, see-through glass and grey '?'
# cells: 0.41 s mean, 0.89 s worst CPU per screenshot; synthetic: 30 % exact of seeds 0-39,
# 34 % of 1000-1099, silent 2.5 % and 5 %.
# 2026-11-26, load 4-5, after the bottom-outline, invariant-variant and finer-pitch rules:
# 0.375 s mean, 0.69 s worst CPU per screenshot; synthetic: 60 % exact of seeds 0-99 (silent
# 3 %), 54 % of 1000-1199 (silent 9 %, most of them a tube taken for covered).
# 2026-11-27, load 2-6, after the '?'-mark, layout, glass-at-the-rim and self-check rounds:
# 0.41 s mean, 0.75 s worst CPU per screenshot (notebook 07); synthetic: 73 % of seeds 0-99
# (silent 1 %), and on seeds never looked at while tuning, 1600-1799: 72.5 % exact, silent
# 0.5 % (1 of 200), no errors.
# 2026-11-27 midday, after the clear-glass witness, glass-at-the-rim, cover-body and
# even-rows rules: 0.40 s mean, 0.65 s worst CPU per screenshot (notebook 07); synthetic:
# 77 % of seeds 0-99 (silent 1 %); tuned-on seeds 0-99, 1000-1599, 2000-2199: 697 of 900
# exact (648 before), silent 12 (20 before); never looked at while tuning, 1800-1999: 141 of
# 200 exact (70.5 %; 130 before), silent 5 (2.5 %; 5 before), no errors; 1600-1799 (the
# previous round's honest set) 154 of 200 (145 before), silent 2 (1 before), 1 error.
# 2026-11-27 afternoon, after the wall-found rows, shared tube width, cover-top, rival-unit
# and step-in-the-glass rules: 0.44 s mean, 0.74 s worst CPU per screenshot (notebook 07, run
# beside two sweeps); synthetic: 78 % of seeds 0-99 (none silent); tuned-on seeds 0-99,
# 1000-1599, 2000-2199: 720 of 900 exact (697 before), silent 6 (12 before); never looked at
# while tuning, 2200-2399: 136 of 200 exact (68 %; 131 before), silent 2 (3 before), 1 error;
# the earlier honest sets 1800-1999: 141 (as before), silent 5; 1600-1799: 157 (154), silent 2.
# 2026-11-27 late afternoon, after the banner, centring, cover-from-the-top, flat-unit and
# missed-'?' rules and four new doubts: 0.42 s mean, 0.68 s worst CPU per screenshot (notebook
# 07, run beside two sweeps); synthetic: 80 % of seeds 0-99 (none silent); tuned-on seeds: 732
# of 900 exact (720 before), silent 1 (6 before), 2 errors (0 before); never looked at while
# tuning, 2400-2599: 147 of 200 exact (73.5 %; 146 before), silent 4 with the rules, 1 with the
# doubts written after looking at them (3 before), 1 error.
# 2026-11-27 evening, after the bottom-edge, colour-joining, even-comb, icon-on-cover,
# tinted-rim and liquid-floor rules: 0.39 s mean, 0.85 s worst CPU per screenshot (notebook
# 07, run beside two sweeps); synthetic: 85 % of seeds 0-99 (none silent); tuned-on seeds: 766
# of 900 exact (732 before), silent 0 (1 before), 2 errors; never looked at while tuning,
# 2600-2799: 152 of 200 exact (76 %; 149 before), silent 0 (1 before), no errors.
# 2026-11-27 night, after the bottom-sliver, missed-mark variant, glass-top, grown-box,
# tinted top-unit, comb refit/banner/gap, mark-blind unit and mark-count-fit rules: 0.56 s
# mean, 0.95 s worst CPU per screenshot (notebook 07 run alone; the re-reads after raising
# or growing a row's boxes cost most of the rise); synthetic: 93 % of notebook 07's 60 seeds
# (none silent); tuned-on seeds: 804 of 900 exact (766 before), silent 0, 1 error (2
# before); never looked at while tuning, 2800-2999: 161 of 200 exact (80.5 %; 152 before),
# silent 2 (3 before), no errors (1 before).
# 2026-11-27 late night, after the own-size retry, faint-'?' variant, rows-alike, added-slot
# floor/fit and reclaimed-colour rules: 0.23 s mean, 0.39 s worst CPU per screenshot (notebook
# 07 run alone; the previous reader measured 0.24 / 0.41 s on the same quiet machine, so the
# 0.56 / 0.95 above was that evening's load); synthetic: 97 % of notebook 07's 60 seeds (none
# silent); tuned-on seeds: 841 of 900 exact (804 before), silent 0, no errors (1 before);
# mean CPU per synthetic board 1.16x the previous reader's, worst 1.54 s (a flagged 261-px
# JPEG read twice); never looked at while tuning, 3000-3199: 172 of 200 exact (86 %; 160
# before), silent 4 (the same 4 as before), no errors.
# 2026-11-28 early morning, after the room-to-pour, thin-headroom, twice-unit, liquid-floor,
# one-pitch, liquid-never-floats and headroom-as-colour rules: 0.24 s mean, 0.42 s worst CPU
# per screenshot (notebook 07 run alone; the previous reader, run in turn with this one on
# the quiet machine: 0.24 / 0.45 s both); synthetic: 97 % of notebook 07's 60 seeds (none
# silent), mean CPU per board 1.02x the previous reader's (200 seeds, run side by side);
# tuned-on seeds (0-99, 1000-2199, 3000-3199): 1,376 of 1,500 exact (1,358 before), silent
# 5 (7 before), no errors; never looked at while tuning, 3200-3399: 169 of 200 exact
# (84.5 %; 167 before), silent 4 (the same 4), no errors.
# 2026-11-28 morning, after the capacity hypotheses, liquid-floor rows, faint holes, clear-top
# and complete-among-covers doubts, and the cork and unmarked-top fixes: 0.24 s mean, 0.45 s
# worst CPU per screenshot (the previous reader run in turn with it on the quiet machine:
# 0.22 / 0.40 s; notebook 07 alone: 0.24 / 0.43 s); synthetic: 97 % of notebook 07's 60 seeds
# (none silent), mean CPU per board 1.05x the previous reader's (200 seeds, side by side);
# fresh pool the misses were looked for on (10000-10999): 875 of 1,000 exact (866 before),
# silent 7 (12 before), 2 refusals (as before); older tuning seeds (0-99, 1000-2199,
# 3000-3399): 1,545 of 1,700 both before and after, silent 8 (9 before); never looked at,
# 3400-3599: 179 of 200 exact (89.5 %; 176 before), silent 1 (2 before), 1 refusal (as before).
# 2026-11-28 late morning, after bold '?' marks, round-bottom outlines and glints, runs cut
# between cells of two colours, runs of three units, rows seen by their liquid floors and
# tops of the glass's colour: 0.24 s mean, 0.46 s worst CPU per screenshot (the previous
# reader run in turn with it: 0.23 / 0.46 s); synthetic: 97 % of notebook 07's 60 seeds
# (none silent), mean CPU per board 1.00-1.11x the previous reader's (from the sweeps, not
# side by side); fresh pool the misses were looked for on (11000-11999): 913 of 1,000 exact
# (889 before), silent 4 (16 before), no refusal (2 before); core tuning seeds 1000-1599:
# 570 of 600 (567 before), none silent; never looked at, 3600-3799: 181 of 200 exact
# (90.5 %) before and after, silent 2 (as before).
# 2026-11-28 midday, after holes kept as empty tubes, overlapping outlines off the pitch,
# covers coloured from the top, glass that follows the picture, short rows grown over their
# floors, rim runs cut down and '?' cells looked at cell by cell on their plain grey:
# 0.25 s mean, 0.48 s worst CPU per screenshot (the previous reader run in turn with it:
# 0.24 / 0.44 s); synthetic: 97 % of notebook 07's 60 seeds (none silent), mean CPU per
# board 1.06-1.17x the previous reader's (from the sweeps, loaded machine); fresh pool the
# misses were looked for on (12000-12999): 905 of 1,000 exact (885 before), silent 3 (4
# before); core tuning seeds 1000-1599: 571 of 600 (570 before), none silent; never looked
# at, 3800-4199: 358 of 400 exact (89.5 %; 356, 89.0 %, before), silent 1 (2 before).
# 2026-11-28 afternoon, after the second look at the tubes located at the picture's own
# size, the near-colour doubt, runs cut by a glint counted whole, rim runs cut down on boards
# with covers, steps the picture lacks taken as liquid surfaces and striped curtains: 0.24 s
# mean, 0.44 s worst CPU per screenshot (the previous reader run in turn with it: 0.23 /
# 0.42 s); synthetic: 97 % of notebook 07's 60 seeds (none silent), mean CPU per board
# 1.03-1.11x the previous reader's (from the sweeps); fresh pool the misses were looked for
# on (13000-13999): 897 of 1,000 exact (884 before), silent 5 (11 before); core tuning seeds
# 1000-1599: 573 of 600 (571 before), none silent; never looked at, 4200-4599: 360 of 400
# exact (90.0 %; 352, 88.0 %, before), silent 2 (3 before).
# 2026-11-28 evening, after the '?' cell rules (bottom cells of one liquid, the symbols share,
# pieces absorbed at a box's end, cells on the counts' word, doubted), the blind fit read for
# miscounted marks, a see-through fit missing the clear rim dropped, faint cover icons, rim
# runs dropped only when glassy or overflowing, covers-only boards, squat bands and end tubes
# over gradients: 0.24-0.25 s mean, 0.43-0.51 s worst CPU per screenshot over three runs (the
# previous reader run in turn with it: 0.23-0.24 / 0.42-0.43 s); synthetic: 97 % of notebook
# 07's 60 seeds (none silent), mean CPU per board 0.99-1.01x the previous reader's (from the
# sweeps); fresh pool (14000-14999): 912 of 1,000 exact (899 before), silent 1 (9 before),
# refusals 0 (2 before); core tuning seeds 1000-1599: 571 of 600 (573 before), none silent;
# never looked at, 4600-4999: 353 of 400 exact (88.3 %; 351, 87.8 %, before), silent 0 (1).
# 2026-11-28 night, after thumbnails re-read with their JPEG blocks smoothed when unsound,
# '?' cells split by noise or marked high, shifted units dealt back to their colours, the
# even-runs check on kept runs, weak rivals keeping the counts, the unit over '?' cells and
# second rows at the filled row's pitch: 0.25 s mean, 0.41 s worst CPU per real screenshot
# in notebook 07 (none is a thumbnail, so none is read twice); synthetic: 97 % of notebook
# 07's 60 seeds (none silent), mean CPU per board 1.05x the previous reader's on the fresh
# pool (the thumbnails' second reading); fresh pool (15000-15999): 915 of 1,000 exact (898
# before), silent 4 (7); core tuning seeds 1000-1599: 574 of 600 (571), none silent; never
# looked at, 5000-5399: 366 of 400 exact (91.5 %; 364, 91.0 %, before), silent 2 (2).
# 2026-11-28 late, after doubted sound thumbnails get the smoothed reading when it reads
# another board shape, second looks past readings the counts chose, boxes raised where liquid
# starts at their tops, one-colour rims taken for liquid and no comb finer than its tubes:
# 0.24 s mean, 0.42 s worst CPU per real screenshot in notebook 07 (none a thumbnail);
# synthetic: mean CPU per board 1.2x the previous reader's from the thumbnail re-read alone
# (run alternately on seeds 16000-16099: 0.40 -> 0.48 s), 0.41 -> 0.49 s over the whole fresh
# pool's sweeps (under other load); fresh pool (16000-16999):
# 927 of 1,000 exact (910 before), silent 4 (8); core tuning seeds 1000-1599: 578 of 600
# (574), none silent; never looked at, 5400-5799: 372 of 400 exact (93.0 %; 370, 92.5 %,
# before), silent 5 (6).
# 2026-11-29, after runs stepping off the glass where the picture does not kept as liquid,
# slots with walls inside them kept as doubted empty tubes and faint glass showing the
# picture taken for no cover: 0.26 s mean, 0.46 s worst CPU per real screenshot in notebook
# 07 (0.24 / 0.42 before); synthetic: mean CPU per board 0.49 s on the fresh pool's sweep
# (0.49 before); fresh pool (17000-17999): 924 of 1,000 exact (916 before), silent 5 (8);
# core tuning seeds 1000-1599: 578 of 600 (578), none silent; never looked at, 5800-6199:
# 362 of 400 exact (90.5 %; 361, 90.2 %, before), silent 1 (1).
# 2026-11-29 morning, after comb rows the outline map lost added where they stand as the
# other rows do, faint rows above an ad banner's letters, a lone row cut at a liquid's top
# raised to that tube's glass top, '?' cell colours without a bold mark's pixels and near
# colours blurred into one run cut where the counts say: 0.27 s mean, 0.45 s worst CPU per
# real screenshot in notebook 07 (0.26 / 0.46 before); synthetic: mean CPU per board 0.50 s
# on the fresh pool's sweep (0.50 before); fresh pool (18000-18999): 919 of 1,000 exact
# (908 before), silent 3 (6); core tuning seeds 1000-1599: 578 of 600 (578), none silent;
# never looked at, 6200-6599: 368 of 400 exact (92.0 %; 364, 91.0 %, before), silent 2 (3).


def _decode_and_scale(path) -> None:
    """The baseline: decode the file and scale it to the reader's working height."""
    import cv2

    from puzzlelab.watersort.screenshot import WORK_HEIGHT, load_image

    rgb = load_image(path)
    scale = WORK_HEIGHT / rgb.shape[0]
    cv2.resize(
        rgb, (max(1, round(rgb.shape[1] * scale)), WORK_HEIGHT), interpolation=cv2.INTER_AREA
    )


def bench_screenshots() -> pd.DataFrame | None:
    """Read every shared screenshot twice (best CPU time kept); print and return the table."""
    folder = shared_dir("corpora", "watersort", "screenshots")
    if folder is None:
        print("screenshots: skipped (needs ../shared/corpora/watersort/screenshots)")
        return None
    rows = []
    for rec in json.loads((folder / "labels.json").read_text()):
        best, base = float("inf"), float("inf")
        for _ in range(2):
            c = time.process_time()
            reading = read_screenshot(folder / rec["file"])
            best = min(best, time.process_time() - c)
            c = time.process_time()
            _decode_and_scale(folder / rec["file"])
            base = min(base, time.process_time() - c)
        size = f"{rec['width']}x{rec['height']}"
        rows.append((rec["file"][:30], size, best, best / base, reading.n_tubes))
    out = pd.DataFrame(rows, columns=["screenshot", "size", "cpu_s", "x_decode", "tubes"])
    print()
    print(out.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"screenshots: CPU s/image mean {out.cpu_s.mean():.3f}, max {out.cpu_s.max():.3f}")
    print(
        f"             reading / (decode + scale to 800 px), same process: "
        f"median {out.x_decode.median():.1f}x"
    )
    print(f"previous:    {PREVIOUS}")
    return out


def bench_synth(n: int = 500) -> pd.DataFrame:
    """The reader on `n` seeded synthetic boards: outcome shares with 95 % intervals, CPU."""
    table = score_synth(range(n), progress=True)
    print()
    for name in ("exact", "flagged", "silent", "error"):
        k = int((table.outcome == name).sum())
        lo, hi = proportion_ci(k, n)
        print(f"synthetic {name:8s} {k:5d}/{n} = {k / n:6.1%}  (95 % CI {lo:.1%}-{hi:.1%})")
    print(f"synthetic CPU s/board mean {table.cpu_s.mean():.3f}, max {table.cpu_s.max():.3f}")
    print(table.groupby("outline").outcome.value_counts().unstack(fill_value=0).to_string())
    return table


if __name__ == "__main__":
    bench_screenshots()
    bench_synth(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
