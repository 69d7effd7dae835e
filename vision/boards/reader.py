"""Reading a board of a taught print: its blue jump and green scan found among the spots of the
print's inks, two orange spots where the print puts its landings, and each coordinate named by
the print's network, cut as teaching cut it. Anything not clear is unsure."""

from __future__ import annotations

import math

import numpy as np

from vision.boards.model import BoardPrint, BoardRead
from vision.cards.features import describe
from vision.cards.model import LABELS, NUMBERS
from vision.cards.pose import Pose, Pyramid, patch_matrix, sample
from vision.cards.spots import Spot, find_spots

SIZE_SLACK = (0.5, 2.0)
"""A coordinate found at reading may be this much smaller or larger than the print says (its
spot grows with blur, a slant shortens it)."""
PLACE_SLACK = 0.25
"""... and a landing this far from where the print puts it, over its distance from the jump
(or the jump-scan distance, where that is longer): a camera's slant moves what lies far from
the jump the most."""
MOST_SPOTS = 200
"""Spots of each ink tried, the largest first: a board's among a busy table's (a picture of
noise has thousands)."""
MOST_FRAMES = 60
"""Blue, green and orange spots lying as a board's four, at the most: more is no board laid
alone in view (a table's clutter), and is not looked at further."""
SURE = 0.8
"""Each of a board's four numbers is read when at least this likely ..."""
MARGIN = 8.0
"""... and this many times likelier than anything else, its chances averaged over its patch
cut as teaching cut it and moved a little (a spot found a little off, another zoom), each of
which names it too."""
WOBBLES = ((0.0, 0.0, 1.0), (0.06, 0.0, 1.0), (-0.06, 0.0, 1.0), (0.0, 0.06, 1.0),
           (0.0, -0.06, 1.0), (0.0, 0.0, 0.92), (0.0, 0.0, 1.08))
"""The cuts of each coordinate: (across, along) shifts in its sizes, and a zoom."""


def read_board(bgr: np.ndarray, board: BoardPrint) -> BoardRead:
    """The board in ``bgr`` (one board in view), or unsure with the reason."""
    if bgr.ndim != 3 or min(bgr.shape[:2]) < 8:
        return BoardRead(reason="the picture is too small")
    spots = find_spots(bgr, board.palette)
    inks = {c: [s for s in spots if s.colour == c][:MOST_SPOTS] for c in "BGO"}
    at = np.array([(s.x, s.y, s.size) for s in inks["O"]], np.float64).reshape(-1, 3)
    frames = [four for blue in inks["B"] for green in inks["G"]
              if (four := _fitting(blue, green, inks["O"], at, board)) is not None]
    if not frames:
        return BoardRead(reason="no blue, green and two orange coordinates lie as the taught "
                                "boards' do")
    if len(frames) > MOST_FRAMES:
        return BoardRead(reason="too many coloured spots lie as a board's coordinates do: lay "
                                "the board alone in the tray")
    pyramid = Pyramid(bgr)
    patches = [sample(pyramid, matrix) for four in frames for matrix in _cuts(four, board)]
    chances = board.classifier.probabilities(describe(np.array(patches))).reshape(
        len(frames), 4, len(WOBBLES), len(LABELS))
    reads = set()
    for frame in chances:
        mean = frame.mean(axis=1)
        ranked = np.sort(mean, axis=1)
        best = mean.argmax(axis=1)
        steady = (frame.argmax(axis=2) == best[:, None]).all()
        if steady and all(LABELS[k] in NUMBERS[:4] for k in best) and \
                (ranked[:, -1] >= SURE).all() and (ranked[:, -1] >= MARGIN * ranked[:, -2]).all():
            reads.add(tuple(int(LABELS[k]) for k in best))
    if len(reads) != 1:
        return BoardRead(reason="the numbers are not clear enough to read" if not reads else
                         "more than one board's numbers are in view")
    jump, scan, first, second = reads.pop()
    return BoardRead(jump, scan, (first, second))


def _cuts(four: list[Spot], board: BoardPrint) -> list[np.ndarray]:
    """Each coordinate's patches (jump, scan, landing, landing), each as teaching cut it and
    moved a little (``WOBBLES``)."""
    matrices = []
    for pair, layout in enumerate(board.pairs):
        first, second = four[2 * pair:2 * pair + 2]
        pose = Pose.between(first.centre, second.centre)
        for end in (0, 1):
            size = layout.size
            matrices += [patch_matrix(pose, (du * size, end + dv * size),
                                      layout.sides[end] * zoom) for du, dv, zoom in WOBBLES]
    return matrices


def _fitting(blue: Spot, green: Spot, oranges: list[Spot], at: np.ndarray, board: BoardPrint
             ) -> list[Spot] | None:
    """The four coordinates of a board whose jump is ``blue`` and scan ``green``, when their
    sizes fit the print and an orange spot lies where each landing should (``at``: the
    oranges' centres and sizes, N x 3)."""
    pose = Pose.between(blue.centre, green.centre)
    if pose.length < 1.0:
        return None
    low, high = SIZE_SLACK

    def fits(size: np.ndarray | float, printed: float) -> np.ndarray | bool:
        ratio = size / (pose.length * printed)
        return (low <= ratio) & (ratio <= high)

    if not (fits(blue.size, board.sizes[0]) and fits(green.size, board.sizes[1])):
        return None
    four = [blue, green]
    for place, printed in zip(pose.to_image(board.places[2:]), board.sizes[2:]):
        reach = PLACE_SLACK * max(pose.length, math.dist(blue.centre, place))
        apart = np.hypot(at[:, 0] - place[0], at[:, 1] - place[1])
        apart[~fits(at[:, 2], printed) | (apart > reach)] = np.inf
        for spot in four[2:]:
            apart[oranges.index(spot)] = np.inf
        if not len(apart) or not np.isfinite(apart.min()):
            return None
        four.append(oranges[int(apart.argmin())])
    return four
