"""The live pipeline: only settled changes are read, reads persist and are debounced, bad
frames become problems, and a simulated game played on the synthetic table is read back."""

from __future__ import annotations

import numpy as np
import pytest

from companion.observations import StickerPayload
from companion.rules import Card, Inventory
from companion.simulate import simulate
from vision.changes import ChangeTracker
from vision.config import Calibration
from vision.debounce import Debouncer
import vision.pipeline as pipeline_module
from vision.pipeline import Pipeline, _windows
from vision.stickers import Box
from synthetic.playback import TablePlayback
from synthetic.teaching import demo_calibration, demo_model
from synthetic.scene import Degradation, Scene, View, render
from tests.bench.vision_bench import laid_card_waits, pile_sequence


def test_change_tracker_hands_out_a_region_once_it_has_settled():
    tracker = ChangeTracker(settle=2)
    still = np.full((240, 320), 90, np.uint8)
    assert tracker.update(still) == []  # first frame: everything pending
    assert tracker.update(still) == []  # still for one frame
    whole = tracker.update(still)
    assert len(whole) == 1 and whole[0].w == 320  # the whole first view, once
    assert tracker.update(still) == []
    moved = still.copy()
    moved[100:140, 200:260] = 220  # something laid down
    assert tracker.update(moved) == []  # moving now
    assert tracker.update(moved) == []
    boxes = tracker.update(moved)
    assert len(boxes) == 1 and boxes[0].contains(230, 120) and not boxes[0].contains(20, 20)
    assert tracker.update(moved) == []


def test_sensor_noise_alone_is_not_a_change():
    tracker = ChangeTracker()
    rng = np.random.default_rng(1)
    base = np.full((360, 640), 100.0)
    for _ in range(3):
        tracker.update(np.clip(base + rng.normal(0, 6, base.shape), 0, 255).astype(np.uint8))
    for _ in range(20):
        frame = np.clip(base + rng.normal(0, 6, base.shape), 0, 255).astype(np.uint8)
        assert tracker.update(frame) == []


def test_debouncer_needs_steady_frames_to_show_and_to_hide():
    bounce = Debouncer(appear=3, vanish=2)
    assert bounce.update({"a": 1}) == {} and bounce.update({"a": 1}) == {}
    assert bounce.update({"a": 1}) == {"a": 1}
    assert bounce.update({}) == {"a": 1}  # one missing frame is a flicker
    assert bounce.update({"a": 1}) == {"a": 1}
    assert bounce.update({}) == {"a": 1} and bounce.update({}) == {}
    assert bounce.update({"b": 2}) == {}  # a one-frame ghost never shows


@pytest.mark.parametrize("frame", [None, np.zeros((10, 10, 3), np.uint8),
                                   np.zeros((100, 100), np.uint8),
                                   np.zeros((100, 100, 3), np.float32), "garbage"])
def test_a_bad_frame_is_a_problem_not_an_exception(frame):
    pipeline = Pipeline()
    result = pipeline.process(frame)
    assert result.raw.problems[0].kind == "bad_frame"
    assert pipeline.read_still(frame).problems[0].kind == "bad_frame"


def test_a_tile_laid_in_the_tray_is_read_once_settled_and_stays_while_still():
    scene = Scene.table()
    view = View.around(scene.layout.zones["scan-tray"], 6.0)
    pipeline = Pipeline()
    empty = render(scene, view, Degradation(noise=3), 1).image
    first = [pipeline.process(empty) for _ in range(12)]
    windows = len(_windows(Box(0, 0, empty.shape[1], empty.shape[0])))
    # the first view is read once, a window a frame, and then nothing while it stays still
    assert [r.regions_read for r in first] == [0] + [1] * windows + [0] * (11 - windows)
    assert first[-1].waiting == 0
    scene.add_tile(StickerPayload(12, "MIN-G"), (1040, 330), 15)
    with_tile = render(scene, view, Degradation(noise=3), 1).image
    results = [pipeline.process(with_tile) for _ in range(8)]
    assert 1 <= sum(r.regions_read for r in results) <= 2  # the tile's region, no more
    assert [t.payload for t in results[-1].stable.tiles] == ["SM1:T12:MIN-G"]
    assert results[-1].stable.tiles[0].zone == "scan-tray"
    results = [pipeline.process(empty) for _ in range(6)]
    assert results[-1].stable.tiles == ()


def test_a_simulated_game_on_the_synthetic_table_is_read_back_without_misread():
    game = simulate(21, 3)
    table, tray = Pipeline(demo_calibration()), Pipeline(demo_calibration())
    shown_cards, shown_tiles, read_cards, read_tiles = set(), set(), set(), set()
    for frame in TablePlayback(game.setup, game.events[:30], seed=2, frames_per_event=5):
        read_cards |= {c.code for c in table.process(frame.table).stable.cards}
        read_tiles |= {t.payload for t in tray.process(frame.tray).stable.tiles}
        if frame.settled:
            shown_cards |= {t.label for t in frame.table_truth if t.kind == "card"}
            shown_tiles |= {t.label for t in frame.tray_truth if t.kind == "tile"}
    assert read_cards <= shown_cards and read_tiles <= shown_tiles  # nothing invented
    assert len(read_cards) >= 0.9 * len(shown_cards) and len(shown_cards) >= 10
    assert read_tiles == shown_tiles and len(shown_tiles) >= 5


def test_a_players_tiles_at_the_end_are_all_shown_in_the_tray_and_read():
    """Eleven tiles, more than the tray's three rows of three: laid four to a row, each
    one's sticker is read from the tray view."""
    game = simulate(21, 2)
    kinds = ("WAT", "MIN-B", "MIN-P", "WAT", "ALI-N", "SPC", "WAT", "MED", "MAT-G", "MIN-R",
             "ALI-B")
    playback = TablePlayback(game.setup, [Inventory(game.setup.players[0].name, kinds)],
                             seed=4, frames_per_event=4)
    tray = Pipeline(demo_calibration())
    frames = list(playback)
    for frame in frames + [frames[-1]] * 20:  # the tray left still: each window in turn
        seen = tray.process(frame.tray).stable
    shown = [t for t in frames[-1].tray_truth if t.kind == "tile"]
    assert len(shown) == 11
    assert sorted(t.kind for t in seen.tiles) == sorted(kinds)


def test_a_deck_taught_while_the_camera_runs_is_read_from_the_next_frame_on():
    scene = Scene.table()
    scene.add_card(Card.parse("B3/G2"), (150.0, 315.0), 8.0)
    image = render(scene, View.whole_table(scene.layout), Degradation(perspective=0.03), 5).image
    calibration = Calibration()
    pipeline = Pipeline(calibration)
    first = pipeline.read_still(image)
    assert first.cards == () and any(p.kind == "cards_not_taught" for p in first.problems)
    calibration.cards = demo_model()  # as the teaching screen does
    assert [c.code for c in pipeline.read_still(image).cards] == ["B3/G2"]


def test_a_card_laid_on_the_pile_is_proposed_within_three_frames_of_the_hand_leaving():
    """The hand passes over the table while the card is laid, so much of the frame waits to
    be read; the window over the middle of the pile is read first, and the debouncer's three
    steady frames are all the card waits. Sixteen cards end up on the pile: an outline
    joining the top card's sides with those of cards beneath is not taken for it."""
    frames, calibration = pile_sequence(states=16)
    waits = laid_card_waits(frames, Pipeline(calibration))
    assert len(waits) == 16 and None not in waits, waits
    assert max(w for w in waits if w is not None) <= 3, waits


def test_a_card_laid_on_the_pile_is_read_first_when_the_hand_moves_on_over_the_tray():
    """A frame reads one card area. A hand lays a card on the pile and passes over the scan
    tray, in a frame whose heavy work the tray's own view did: both areas wait. The pile is
    read in the frame the hand leaves, though the tray changed last (read the other way
    round, the demo's slowest card waited two frames more)."""
    scene = Scene.table()
    scene.add_card(Card.parse("B3/G2"), (150.0, 315.0), 8.0)
    still = render(scene, View.whole_table(scene.layout), Degradation(perspective=0.02),
                   5).image
    over_pile, over_tray = still.copy(), still.copy()
    over_pile[230:470, 60:420] = (120, 150, 200)  # a hand, skin-coloured
    over_tray[230:470, 860:1220] = (120, 150, 200)
    pipeline = Pipeline(demo_calibration())
    pipeline.process(still)
    pipeline.process(over_pile)
    pipeline.process(over_tray, heavy=False)
    left = pipeline.process(still)
    assert left.card_area_read
    assert [(c.code, c.zone) for c in left.raw.cards] == [("B3/G2", "discard")]


def test_the_pile_is_searched_for_cards_once_a_change_not_once_a_window(monkeypatch):
    """A hand over the pile changes more than one window; each window is read for codes,
    but the pile is searched for cards once for each frame that changed it."""
    frames, calibration = pile_sequence(states=4)
    searched: list[int] = []  # the frame of each search
    reads: list[int] = []  # windows and card areas read in each frame
    search = pipeline_module.read_cards

    looked_again: list[bool] = []

    def counted(crop, model, card_px=None, second_look=True):
        searched.append(len(reads))
        looked_again.append(second_look)
        return search(crop, model, card_px, second_look)

    monkeypatch.setattr(pipeline_module, "read_cards", counted)
    pipeline = Pipeline(calibration)
    for image, _ in frames:
        reads.append(pipeline.process(image).regions_read)
    # each state: two frames with a hand over the pile, then still ones; the first still
    # one changed too (the hand left)
    assert sorted({index % 10 for index in searched}) == [0, 1, 2], searched
    assert len(searched) <= 3 * 4
    assert sum(reads) - len(searched) >= 3 * 4  # windows were read for codes all the while
    # a pile's cards under the top one are partly covered: in a frame's time, none is looked
    # at again stretched (a still photo's are)
    assert looked_again and not any(looked_again)


def test_a_marker_search_waits_for_a_frame_that_reads_no_window_but_not_for_long():
    scene = Scene.table()
    image = render(scene, View.whole_table(scene.layout), Degradation(noise=3), 3).image
    pipeline = Pipeline(marker_every=3)
    searched: list[int] = []  # frames in which markers were looked for
    reads: list[int] = []  # windows read in each frame
    look = pipeline._markers.detect

    def counted(gray: np.ndarray, quick: bool = False):
        searched.append(len(reads))
        return look(gray, quick)

    pipeline._markers.detect = counted  # type: ignore[method-assign]
    for _ in range(40):
        reads.append(pipeline.process(image).regions_read)
    assert searched[0] == 0 and reads[0] == 0  # the first frame places the table
    assert reads[1:7] == [1] * 6  # then the first view is read, one window a frame
    gaps = np.diff(searched)
    for at, gap in zip(searched[1:], gaps):
        # a search due waits for a frame that reads no window, at most as long again
        assert (reads[at] == 0 and gap >= 3) or gap == 6, (searched, reads)
    assert any(reads[at] == 1 for at in searched[1:])  # it did not wait for ever
    assert list(gaps[-5:]) == [3] * 5  # a still table: every third frame


def test_a_table_top_kept_for_the_next_frame_is_the_one_drawn_and_its_seed_goes_on_alike():
    """The demo draws its table top once for all its frames: copied, it is what drawing it
    again gives, a copy a frame pastes cards on leaves the kept one as it was, and the seed's
    stream goes on from where drawing it leaves it (so the frame's faults are as before)."""
    import random
    from synthetic import surfaces
    for kind in surfaces.SURFACES:
        drawn_rng = random.Random(7)
        drawn = surfaces._drawn(kind, (320, 200), drawn_rng)
        streams = []
        for _ in range(3):
            rng = random.Random(7)
            top = surfaces.surface(kind, (320, 200), rng)
            assert np.array_equal(top, drawn), kind
            top[:] = 0  # a frame's cards pasted on its copy
            streams.append(rng.random())
        assert streams == [drawn_rng.random()] * 3, kind


def test_a_hand_drawn_within_its_reach_is_the_hand_drawn_over_the_whole_frame():
    """The demo draws and blurs a hand's blob only where it reaches: every pixel of the frame
    is as when the blob is drawn and blurred over all of it (near the frame's edges too)."""
    import random
    import cv2
    game = simulate(4, 2)
    playback = TablePlayback(game.setup, game.events[:1], seed=3, noise=0.0, jpeg=None)
    image = np.random.default_rng(1).integers(0, 256, (720, 1280, 3), np.uint8)
    for size in ((1280, 720), (640, 480), (200, 300)):
        frame = cv2.resize(image, size)
        for seed in range(25):
            playback._rng = random.Random(seed)
            drawn = playback._finish(frame, hand=True)
            rng = random.Random(seed)
            h, w = frame.shape[:2]
            mask = np.zeros((h, w), np.float32)
            centre = (int(rng.uniform(0.2, 0.8) * w), int(rng.uniform(0.2, 0.8) * h))
            cv2.ellipse(mask, centre, (w // 8, h // 5), rng.uniform(0, 180), 0, 360, 1.0, -1)
            mask = cv2.GaussianBlur(mask, (0, 0), 9)[:, :, None]
            whole = (frame * (1 - mask) + np.array([120, 150, 200], np.float32) * mask)
            assert np.array_equal(drawn, whole.astype(np.uint8)), (size, seed)
            assert not np.array_equal(drawn, frame)


def test_the_demo_s_noise_is_its_field_shifted_round_added_and_clipped():
    """The demo adds a frame's noise piece by piece in saturating bytes: every pixel is the
    frame plus the field as ``np.roll`` shifts it, clipped to 0-255, at every shift (none,
    by one, any), the frame's own pixels untouched."""
    import random
    game = simulate(4, 2)
    playback = TablePlayback(game.setup, game.events[:1], seed=3, noise=40.0, jpeg=None)
    shifts = set()
    for shape in ((48, 64, 3), (3, 4, 3)):
        drawn = np.random.default_rng(2).integers(0, 256, shape, np.uint8)
        drawn[:, :2] = (0, 255, 128)  # clipped at both ends
        generator = np.random.default_rng(3)  # the fields as the demo draws them
        fields = [np.clip(generator.normal(0, 40.0, shape), -127, 127).astype(np.int8)
                  for _ in range(3)]
        for seed in range(40):
            frame = drawn.copy()
            playback._rng = random.Random(seed)
            noised = playback._finish(frame, hand=False)
            assert np.array_equal(frame, drawn)
            rng = random.Random(seed)
            field_ = fields[rng.randrange(3)]
            shift = (rng.randrange(shape[0]), rng.randrange(shape[1]))
            shifts.add(shift)
            rolled = np.roll(field_.astype(np.int16), shift, axis=(0, 1))
            expected = np.clip(frame.astype(np.int16) + rolled, 0, 255).astype(np.uint8)
            assert np.array_equal(noised, expected), (shape, seed, shift)
    assert {(0, 0), (1, 1), (2, 3)} <= shifts


def test_a_table_drawn_again_with_its_shrunk_faces_kept_is_the_table_drawn_afresh():
    """The renderer keeps the faces it shrank: the demo's table, drawn again from cameras a
    little apart (each face shrunk a little otherwise) and from another (far otherwise), is
    every pixel as drawn with none kept."""
    import synthetic.scene as scene_module
    playback = TablePlayback(simulate(4, 2).setup, [], seed=3)
    shots = [(playback.table_view, 5), (playback.table_view, 6), (playback.tray_view, 5),
             (playback.table_view, 5)]
    slanted = Degradation(perspective=0.02)
    kept = [render(playback.scene, view, slanted, seed).image for view, seed in shots]
    afresh = []
    for view, seed in shots:
        scene_module._shrunk_faces.clear()
        afresh.append(render(playback.scene, view, slanted, seed).image)
    assert all(np.array_equal(a, b) for a, b in zip(kept, afresh))
    assert not np.array_equal(afresh[0], afresh[1])
