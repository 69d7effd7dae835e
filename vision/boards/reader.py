"""Reading a board of a taught print: its blue jump and green scan found among the spots of the
print's inks, two orange spots where the print puts its landings (or, where no jump and scan
are found, the landings first and the other two where they put them), and each coordinate
named by the print's network, cut as teaching cut it. Anything not clear is unsure."""

from __future__ import annotations

import math

import numpy as np

from vision.boards.model import BoardPrint, BoardRead
from vision.cards.features import describe
from vision.cards.model import LABELS, NUMBERS
from vision.cards.pose import Pose, Pyramid, patch_matrix, sample
from vision.cards.spots import Spot, find_spots
from vision.cards.views import NOTHING

_NOTHING = LABELS.index(NOTHING)

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
"""... and this many times likelier than any other number, its chances averaged over its patch
cut as teaching cut it and moved a little (a spot found a little off, another zoom), each of
which names it or nothing. A cut moved off a small badge sees only part of it, or the board
around it, and may name nothing; a cut naming another number makes the coordinate unsure.
(Board seeds 6363, 5757, 4409, 7321 and 2024, 48 photos a print, the ``corners`` print's
jump and scan set close together: 177 of 240 read where every cut had to name the number and
nothing counted as a rival; so, 207. Badges 234 -> 235, panel 229; none wrong either way.)"""
WOBBLES = ((0.0, 0.0, 1.0), (0.06, 0.0, 1.0), (-0.06, 0.0, 1.0), (0.0, 0.06, 1.0),
           (0.0, -0.06, 1.0), (0.0, 0.0, 0.92), (0.0, 0.0, 1.08))
"""The cuts of each coordinate: (across, along) shifts in its sizes, and a zoom."""
MOVED = 1.0
"""A jump or scan found is put where the other three put it only when that is at most this
far from where it was found (a part of its size): further, the others' frame is off (a
camera's slant), and the cut would catch a neighbouring coordinate's number, not its own.
A pale badge at a board's corner, on a table of its ink, is found run into the table, off
by more than half its size (board seeds 6363, 5757, 4409, 7321, 2024, 1234, 8080, 9090 and
3535, 48 photos a print: at 0.35, the ``corners`` print read 367 of 432; at 1.0, 383; the
other prints the same; none wrong. With a cut naming another number making a coordinate
unsure (``MARGIN``), a cut catching a part of its neighbour is not read.)"""
MOST_LANDINGS = 40
"""Orange spots paired as a board's landings, the largest first, where no blue and green
spot frame a board."""


def read_board(bgr: np.ndarray, board: BoardPrint) -> BoardRead:
    """The board in ``bgr`` (one board in view), or unsure with the reason."""
    if bgr.ndim != 3 or min(bgr.shape[:2]) < 8:
        return BoardRead(reason="the picture is too small")
    spots = find_spots(bgr, board.palette)
    inks = {c: [s for s in spots if s.colour == c][:MOST_SPOTS] for c in "BGO"}
    at = {c: np.array([(s.x, s.y, s.size) for s in inks[c]], np.float64).reshape(-1, 3)
          for c in "BGO"}
    framed = [(np.array([s.centre for s in four]), (True,) * 4)
              for blue in inks["B"] for green in inks["G"]
              if (four := _fitting(blue, green, inks["O"], at["O"], board)) is not None]
    if not framed:
        framed = _from_landings(at, board)
    if not framed:
        return BoardRead(reason="no blue, green and two orange coordinates lie as the taught "
                                "boards' do")
    if len(framed) > MOST_FRAMES:
        return BoardRead(reason="too many coloured spots lie as a board's coordinates do: lay "
                                "the board alone in the tray")
    frames = [frame for centres, found in framed for frame in _variants(centres, found, board)]
    cuts = [_cuts(centres, board) for centres in frames]
    pyramid = Pyramid(bgr)
    patches = [sample(pyramid, matrix) for frame in cuts for coordinate in frame
               for matrix in coordinate]
    chances = iter(board.classifier.probabilities(describe(np.array(patches))))
    reads = set()
    for frame in cuts:
        numbers = [_number(np.array([next(chances) for _ in coordinate])) for coordinate in frame]
        if None not in numbers:
            reads.add(tuple(numbers))
    if len(reads) != 1:
        return BoardRead(reason="the numbers are not clear enough to read" if not reads else
                         "more than one board's numbers are in view")
    jump, scan, first, second = reads.pop()
    return BoardRead(jump, scan, (first, second))


def _number(chances: np.ndarray) -> int | None:
    """The number 1-4 that a coordinate's cuts' chances (cuts x labels) name, or None where
    they are not sure of one: every cut names it or nothing, and their mean is ``SURE`` of it
    and ``MARGIN`` times likelier than any other number."""
    mean = chances.mean(axis=0)
    best = int(mean.argmax())
    if LABELS[best] not in NUMBERS[:4]:
        return None
    named = chances.argmax(axis=1)
    other_numbers = np.delete(mean, [best, _NOTHING])
    if ((named != best) & (named != _NOTHING)).any() or mean[best] < SURE or \
            mean[best] < MARGIN * float(other_numbers.max()):
        return None
    return int(LABELS[best])


def _cuts(centres: np.ndarray, board: BoardPrint) -> list[list[np.ndarray]]:
    """The patches of each coordinate (jump, scan, landing, landing) of the board whose four
    coordinates lie at ``centres`` (4 x 2), each as teaching cut it and moved a little
    (``WOBBLES``). The jump and scan are cut both from their own centres and where the print,
    laid on all four, puts them, and must read the same both ways: a print may set them close
    together, where a few pixels' error in one centre turns and scales their cuts much; but a
    camera's slant bends a print laid on all four a little too. The landings lie far enough
    apart to be cut from their own centres."""
    fitted = _similarity(board.places, centres)
    ends = board.places[:2] @ fitted[:, :2].T + fitted[:, 2]
    poses = ((Pose.between(tuple(centres[0]), tuple(centres[1])),
              Pose.between(tuple(ends[0]), tuple(ends[1]))),
             (Pose.between(tuple(centres[2]), tuple(centres[3])),))
    coordinates = []
    for pair_poses, layout in zip(poses, board.pairs):
        for end in (0, 1):
            coordinates.append([patch_matrix(pose, (du * layout.size, end + dv * layout.size),
                                             layout.sides[end] * zoom)
                                for pose in pair_poses for du, dv, zoom in WOBBLES])
    return coordinates


def _variants(centres: np.ndarray, found: tuple[bool, ...], board: BoardPrint
              ) -> list[np.ndarray]:
    """A board's four centres as found (where one was not, as the other three put it), and
    with its jump's, then its scan's, put where the other three put it: a pale badge on a
    ground of its own ink is found run into the ground around it, off its middle by a tenth
    of its size and more, and the cuts of a jump and scan set close together turn with it.
    (A landing put so was read wrongly: in a print's column of coordinates, its cut caught a
    part of its neighbour's number.)"""
    frames = []
    for moved in (None, 0, 1):
        known = [k for k in range(4) if found[k] and k != moved]
        if len(known) < 3 or (moved is not None and not found[moved]):
            continue
        fitted = _similarity(board.places[known], centres[known])
        frame = centres.copy()
        for k in set(range(4)) - set(known):
            frame[k] = board.places[k] @ fitted[:, :2].T + fitted[:, 2]
        if moved is not None:
            scale = float(np.hypot(fitted[0, 0], fitted[1, 0]))
            if np.hypot(*(frame[moved] - centres[moved])) > MOVED * board.sizes[moved] * scale:
                continue
        frames.append(frame)
    return frames


def _similarity(source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The turn, scale and shift (2 x 3) taking the points ``source`` nearest to ``target``
    (N x 2 each, N >= 2), least squares."""
    middle_source, middle_target = source.mean(axis=0), target.mean(axis=0)
    a = (source - middle_source) @ np.array([1.0, 1j])
    b = (target - middle_target) @ np.array([1.0, 1j])
    turn = (np.conj(a) @ b) / max(float(np.real(np.conj(a) @ a)), 1e-12)
    linear = np.array([[turn.real, -turn.imag], [turn.imag, turn.real]])
    return np.column_stack([linear, middle_target - linear @ middle_source])


def _fitting(blue: Spot, green: Spot, oranges: list[Spot], at: np.ndarray, board: BoardPrint
             ) -> list[Spot] | None:
    """The four coordinates of a board whose jump is ``blue`` and scan ``green``, when their
    sizes fit the print and an orange spot lies where each landing should (``at``: the
    oranges' centres and sizes, N x 3)."""
    pose = Pose.between(blue.centre, green.centre)
    if pose.length < 1.0:
        return None
    if not (_sized(blue.size, pose.length * board.sizes[0])
            and _sized(green.size, pose.length * board.sizes[1])):
        return None
    four = [blue, green]
    for place, printed in zip(pose.to_image(board.places[2:]), board.sizes[2:]):
        reach = PLACE_SLACK * max(pose.length, math.dist(blue.centre, place))
        nearest = _nearest(at, place, pose.length * printed, reach,
                           [oranges.index(spot) for spot in four[2:]])
        if nearest is None:
            return None
        four.append(oranges[nearest])
    return four


def _from_landings(at: dict[str, np.ndarray], board: BoardPrint
                   ) -> list[tuple[np.ndarray, tuple[bool, ...]]]:
    """Boards framed by their two landings where no blue and green spot frame one: a pale
    badge on a ground of its own ink (a light blue jump on a navy board) may stand out of it
    too little to be a spot. Each pair of orange spots sized and spaced as the landings are
    puts the jump and scan where the print does; a blue or green spot there is taken, and at
    least one must be, so three of the four are found (each board's four centres, and which of
    them were found)."""
    apart = float(np.hypot(*(board.places[3] - board.places[2])))
    oranges = at["O"][:MOST_LANDINGS]
    frames = []
    for i, first in enumerate(oranges):
        for j, second in enumerate(oranges):
            length = float(np.hypot(*(second[:2] - first[:2])))
            if i == j or length < 1.0:
                continue
            unit = length / apart  # pixels per jump-scan length
            if not (_sized(first[2], unit * board.sizes[2])
                    and _sized(second[2], unit * board.sizes[3])):
                continue
            fitted = _similarity(board.places[2:], np.array([first[:2], second[:2]]))
            centres = np.vstack([board.places[:2] @ fitted[:, :2].T + fitted[:, 2],
                                 first[:2], second[:2]])
            found = [_nearest(at[colour], centres[k], board.sizes[k] * unit,
                              PLACE_SLACK * max(unit, float(np.hypot(*(centres[k] - first[:2])))))
                     for k, colour in enumerate("BG")]
            if all(index is None for index in found):
                continue
            for k, (index, colour) in enumerate(zip(found, "BG")):
                if index is not None:
                    centres[k] = at[colour][index, :2]
            frames.append((centres, tuple(index is not None for index in found) + (True, True)))
    return frames


def _nearest(spots: np.ndarray, place: np.ndarray, printed: float, reach: float,
             taken: list[int] | None = None) -> int | None:
    """The index of the spot among ``spots`` (N x 3: centres and sizes) nearest ``place``,
    within ``reach``, sized as ``printed`` is (``_sized``) and none of ``taken``; or None."""
    if not len(spots):
        return None
    apart = np.hypot(spots[:, 0] - place[0], spots[:, 1] - place[1])
    apart[~_sized(spots[:, 2], printed) | (apart > reach)] = np.inf
    apart[taken or []] = np.inf
    best = int(apart.argmin())
    return best if np.isfinite(apart[best]) else None


def _sized(size: np.ndarray | float, printed: float) -> np.ndarray | bool:
    """Whether a spot of ``size`` is a coordinate printed ``printed`` pixels large, give or
    take ``SIZE_SLACK`` (a number without its bar, a badge run into its ground)."""
    low, high = SIZE_SLACK
    ratio = size / printed
    return (low <= ratio) & (ratio <= high)
