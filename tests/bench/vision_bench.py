"""Vision figures for `make bench` (one thread): a still photo and the live loop against plain
zxing-cpp and plain pyzbar on the same frames, sticker and card read rates, and what each sticker
fallback adds."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
import zxingcpp
from pyzbar.pyzbar import ZBarSymbol, decode

from companion.observations import parse_sticker
from tests.scenes import (DECK, STICKERS, CardTable, card_edge_over, card_table,
                          coordinate_middles, free_spot, module_px, read_card_table,
                          tiles_scene, tilted_tiles_frame, tray_view)
from vision.cards import CardModel, read_cards, teach
from vision.config import Calibration
from vision.pipeline import Pipeline
from vision.stickers import ATTEMPTS, STILL_ATTEMPTS, Box, read_region
from synthetic.card_faces import DECKS
from synthetic.qr_photos import qr_photo
from synthetic.scene import Degradation, Scene, View, render
from synthetic.teaching import demo_model, teaching_photos


def _tiles_read(texts: set[str]) -> set[str]:
    return {t for t in texts if parse_sticker(t) is not None}


# -- a still photo ------------------------------------------------------------------------------

def still_photos(folder: Path, count: int = 20) -> list[tuple[Path, set[str], set[str]]]:
    """1280x720 JPEG photos of the scan tray with its markers: 4-7 stickered tiles at 3-4 px
    per module and two cards of the reference deck, with real-camera effects."""
    photos = []
    for seed in range(count):
        rng = random.Random(seed)
        scene, view = tiles_scene(rng.uniform(3.0, 4.0), rng.randint(4, 7), seed)
        for card in rng.sample(DECK, 2):
            spot = free_spot(scene, view, 50.0, rng)
            if spot is not None:
                scene.add_card(card, spot, rng.uniform(-180, 180))
        frame = render(scene, view, Degradation.photo(rng, 0.6), seed)
        path = folder / f"still-{seed}.jpg"
        cv2.imwrite(str(path), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        tiles = {t.label for t in frame.truth if t.kind == "tile"}
        cards = {t.label for t in frame.truth if t.kind == "card"}
        photos.append((path, tiles, cards))
    return photos


def bench_still(report) -> None:
    cv2.setNumThreads(1)
    pipeline = Pipeline(Calibration(cards=demo_model()))
    with tempfile.TemporaryDirectory() as folder:
        photos = still_photos(Path(folder))
        times = {"ours": [], "zxing": [], "pyzbar": []}
        reads = {"ours": 0, "zxing": 0, "pyzbar": 0, "both": 0}
        tiles = cards = cards_read = wrong = 0
        for path, truth, card_truth in photos:
            start = time.perf_counter()
            seen = pipeline.read_still(cv2.imread(str(path)))
            times["ours"].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            zx = {r.text for r in zxingcpp.read_barcodes(cv2.imread(str(path)))}
            times["zxing"].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            zb = {s.data.decode("latin-1") for s in decode(cv2.imread(str(path)))}
            times["pyzbar"].append((time.perf_counter() - start) * 1000)
            ours = {t.payload for t in seen.tiles}
            reads["ours"] += len(ours & truth)
            reads["zxing"] += len(_tiles_read(zx) & truth)
            reads["pyzbar"] += len(_tiles_read(zb) & truth)
            reads["both"] += len(_tiles_read(zx | zb) & truth)
            wrong += len(ours - truth) + len({c.code for c in seen.cards} - card_truth)
            tiles, cards = tiles + len(truth), cards + len(card_truth)
            cards_read += len({c.code for c in seen.cards} & card_truth)
    median = {k: statistics.median(v) for k, v in times.items()}
    report("still 1280x720 JPEG, decode + read_still (median)", median["ours"], "ms", "-", True)
    report("  plain zxing-cpp, decode + all formats (median)", median["zxing"], "ms", "-", True)
    report("  plain pyzbar, decode + all symbologies (median)", median["pyzbar"], "ms", "-",
           True)
    ratio = median["ours"] / median["zxing"]
    report("  ratio ours / zxing-cpp", ratio, "x", "<= 2x", ratio <= 2)
    report("  ratio ours / pyzbar", median["ours"] / median["pyzbar"], "x", "-", True)
    report(f"  tiles read: ours (of {tiles})", reads["ours"], "tiles", ">= zxing",
           reads["ours"] >= reads["zxing"])
    report("  tiles read: plain zxing-cpp", reads["zxing"], "tiles", "-", True)
    report("  tiles read: plain pyzbar", reads["pyzbar"], "tiles", "-", True)
    report("  tiles read: both plain decoders together", reads["both"], "tiles", "-", True)
    report(f"  cards read (of {cards})", cards_read, "cards", "-", True)
    report("  wrong reads (tiles and cards)", wrong, "reads", "0", wrong == 0)


# -- the live loop ------------------------------------------------------------------------------

def _hand(image: np.ndarray, rng: random.Random) -> np.ndarray:
    h, w = image.shape[:2]
    cx, cy = rng.uniform(0.15 * w, 0.85 * w), rng.uniform(0.2 * h, 0.8 * h)
    yy, xx = np.mgrid[0:h, 0:w]
    hand = np.exp(-(((xx - cx) / 160) ** 2 + ((yy - cy) / 220) ** 2))[:, :, None]
    return image * (1 - hand) + np.array([120, 150, 200]) * hand


def _live_frames(scene: Scene, view: View, rng: random.Random, seed: int, change,
                 states: int) -> list[tuple[np.ndarray, str | None]]:
    """Each state: ``change`` the scene (returns a card laid, or None), two frames with a
    hand over it, then eight still frames, each with fresh sensor noise, JPEG-compressed as a
    camera's stream is."""
    light = Degradation(perspective=0.02, light=0.25, shadow=0.2, glare=0.15)
    frames = []
    for _ in range(states):
        laid = change()
        base = render(scene, view, light, seed).image.astype(np.float32)
        for k in range(10):
            image = _hand(base, rng) if k < 2 else base.copy()
            image += np.random.default_rng(rng.randrange(2**32)).normal(0, 4, image.shape)
            frame = np.clip(image, 0, 255).astype(np.uint8)
            _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 88])
            frames.append((cv2.imdecode(data, cv2.IMREAD_COLOR), laid if k == 2 else None))
    return frames


def pile_sequence(states: int = 16, seed: int = 3) -> tuple[list, Calibration]:
    """The discard pile seen close (a calibrated view, 1280x720): a card of the reference deck
    laid on it at each state, on top of the last ones."""
    rng = random.Random(seed)
    scene = Scene.table()
    x0, y0, x1, y1 = 95.0, 240.0, 205.0, 390.0  # the default layout's discard zone
    view = View(x0 - 140, y0 - 50, 420, 236.25)
    pile = ((x0 + x1) / 2, (y0 + y1) / 2)

    def lay() -> str:
        card = rng.choice(DECK)
        spot = (pile[0] + rng.uniform(-8, 8), pile[1] + rng.uniform(-8, 8))
        scene.add_card(card, spot, rng.uniform(-20, 20) + rng.choice([0, 180]))
        return card.code

    frames = _live_frames(scene, view, rng, seed, lay, states)
    table_to_image = render(scene, view, Degradation(), seed).table_to_image
    calibration = Calibration(image_to_table=np.linalg.inv(table_to_image),
                              image_size=(1280, 720), cards=demo_model())
    return frames, calibration


def tray_sequence(states: int = 16, seed: int = 5) -> list:
    """The scan tray: tiles laid and taken away one at a time."""
    rng = random.Random(seed)
    scene, view = tiles_scene(3.5, 4, seed, tray_view())
    sticker_mm = scene.things[-1].size[0] / 1.35

    def change() -> None:
        tiles = [t for t in scene.things if t.kind == "tile"]
        if tiles and (len(tiles) >= 6 or rng.random() < 0.4):
            scene.remove(rng.choice(tiles))
        else:
            spot = free_spot(scene, view, sticker_mm, rng)
            if spot:
                scene.add_tile(rng.choice(STICKERS), spot, rng.uniform(-180, 180),
                               sticker_mm=sticker_mm, tile_mm=sticker_mm * 1.35)
        return None

    return _live_frames(scene, view, rng, seed, change, states)


def laid_card_waits(frames: list, pipeline: Pipeline,
                    milliseconds: list[float] | None = None) -> list[int | None]:
    """Each frame through ``pipeline``; for each card laid, the frames from the first still
    one after the hand to its stable read on the pile (None: never read). Each frame's time
    is added to ``milliseconds`` when given."""
    waits: list[int | None] = []
    waiting: tuple[str, int] | None = None
    for index, (image, laid) in enumerate(frames):
        start = time.perf_counter()
        stable = pipeline.process(image).stable.cards
        if milliseconds is not None:
            milliseconds.append((time.perf_counter() - start) * 1000)
        if laid is not None:
            if waiting:
                waits.append(None)
            waiting = (laid, index)
        if waiting and any(c.code == waiting[0] and c.zone == "discard" for c in stable):
            waits.append(index - waiting[1] + 1)
            waiting = None
    return waits + ([None] if waiting else [])


def bench_live(report) -> None:
    cv2.setNumThreads(1)
    pile, calibration = pile_sequence()
    tray = tray_sequence()
    ours: list[float] = []
    waits = laid_card_waits(pile, Pipeline(calibration), ours)
    laid_card_waits(tray, Pipeline(), ours)
    latencies = [99 if wait is None else wait for wait in waits]  # None: never proposed
    theirs = []
    for image, _ in pile + tray:
        start = time.perf_counter()
        zxingcpp.read_barcodes(image)
        theirs.append((time.perf_counter() - start) * 1000)
    p99 = float(np.percentile(ours, 99))
    report("live 1280x720 per frame, hands passing (median)", statistics.median(ours), "ms",
           "-", True)
    report("  99th percentile", p99, "ms", "<= 33 ms", p99 <= 33)
    report("  maximum", max(ours), "ms", "-", True)
    report("  plain zxing-cpp, same frames (median)", statistics.median(theirs), "ms", "-",
           True)
    worst = float(np.percentile(latencies, 99))
    report(f"card laid on the pile to stable read (p99 of {len(latencies)})", worst,
           "frames", "<= 3", worst <= 3)
    report("  median", statistics.median(latencies), "frames", "-", True)


# -- read rates -----------------------------------------------------------------------------------

def bench_read_rates(report) -> None:
    pipeline = Pipeline()
    for strength in (0.75, 1.0):
        seen = read = misread = 0
        for seed in range(40):
            scene, view = tiles_scene(3.0, 8, seed, curl=0.6)
            frame = render(scene, view, Degradation.photo(random.Random(77 + seed), strength),
                           seed)
            truth = {t.label for t in frame.truth if t.kind == "tile"}
            got = {t.payload for t in pipeline.read_still(frame.image).tiles}
            seen, read, misread = seen + len(truth), read + len(got & truth), misread + len(
                got - truth)
        report(f"stickers, 3 px/module, photo-like x{strength}", 100 * read / seen,
               f"% of {seen}", ">= 99.5 %", read / seen >= 0.995)
        report("  sticker misreads", misread, "reads", "0", misread == 0)


def bench_tilted_stickers(report, scenes: int = 250) -> None:
    """Stills of stickers under a camera tilted 23-45 degrees, 3-4 px per module in the image,
    blurred about 1.1 px (``tilted_tiles_frame``; seeds 400 on: the unskew was shaped on
    0-149 and checked on 150-399)."""
    pipeline = Pipeline()
    seen = read = misread = 0
    for seed in range(400, 400 + scenes):
        frame = tilted_tiles_frame(seed)
        truth = {t.label for t in frame.truth if t.kind == "tile" and module_px(t) >= 3}
        got = {t.payload for t in pipeline.read_still(frame.image).tiles}
        seen, read = seen + len(truth), read + len(got & truth)
        misread += len(got - {t.label for t in frame.truth if t.kind == "tile"})
    report("stickers, camera tilted 23-45 deg, >= 3 px/module (still)", 100 * read / seen,
           f"% of {seen}", ">= 99.5 %", read / seen >= 0.995)
    report("  sticker misreads", misread, "reads", "0", misread == 0)


def one_card_reads(table: CardTable, model: CardModel) -> list[float]:
    """Milliseconds to read each readable card of a table from its own area (the card and
    a quarter of its length each side, at its own size), as the live loop reads the pile
    (no second look: that is a still photo's)."""
    image = table.frame.image
    h, w = image.shape[:2]
    times = []
    for truth in table.readable:
        corners = np.asarray(truth.corners)
        reach = 0.25 * float(np.ptp(corners, axis=0).max())
        x0, y0 = np.maximum(corners.min(axis=0) - reach, 0).astype(int)
        x1, y1 = np.minimum(corners.max(axis=0) + reach, (w, h)).astype(int)
        card_px = float(np.linalg.norm(corners[0] - corners[3]))  # the long side
        crop = np.ascontiguousarray(image[y0:y1, x0:x1])
        start = time.perf_counter()
        read_cards(crop, model, card_px, second_look=False)
        times.append((time.perf_counter() - start) * 1000)
    return times


def bench_cards(report) -> None:
    """Each deck taught from one photo per code, then read on 120 tables as players leave
    them (any surface, tilt up to 35 degrees, covers, distractors, degradations), on
    tables with a chip on a card, and on its teaching photos with another card's edge across
    a coordinate; and one card read alone, from its area."""
    cv2.setNumThreads(1)
    alone: list[float] = []
    for name, deck in DECKS.items():
        photos = teaching_photos(deck)  # rendered first: the user's photos are taken already
        start = time.perf_counter()
        taught = teach(photos)
        seconds = time.perf_counter() - start
        readable = right = 0
        wrong: list[str] = []
        for seed in CARD_TABLES:
            table = card_table(deck, seed)
            count, read, misread = read_card_table(table, taught.model)
            alone += one_card_reads(table, taught.model)
            readable, right = readable + count, right + read
            wrong += [f"table {seed}: {w}" for w in misread]
        report(f"cards '{name}', taught from {taught.photos} photos", 100 * right / readable,
               f"% of {readable}", ">= 99 %", right / readable >= 0.99)
        report("  wrong reads", len(wrong), "reads", "0", not wrong)
        for line in wrong:
            print(f"    WRONG   {line}")
        chipped = _chipped_wrong(deck, taught.model)
        report(f"  wrong reads, a chip on a card of each of {CHIPPED_TABLES} tables",
               len(chipped), "reads", "0", not chipped)
        for line in chipped:
            print(f"    WRONG   {line}")
        edged, tried = _edged_wrong(photos, taught.model)
        edged = [f"taught at seed 0: {line}" for line in edged]
        for seed in EDGE_SEEDS:
            more, also = _edged_wrong(photos, teach(photos, seed=seed).model)
            edged += [f"taught at seed {seed}: {line}" for line in more]
            tried += also
        report(f"  wrong reads, a card's edge across a coordinate (taught at "
               f"{1 + len(EDGE_SEEDS)} seeds)", len(edged), f"of {tried}", "0", not edged)
        for line in edged:
            print(f"    WRONG   {line}")
        per_fifty = seconds * 50 / max(taught.photos, 1)
        report(f"  teaching time ({taught.photos} photos)", seconds, "s", "-", True)
        report("  teaching time for 50 photos, at that pace", per_fifty, "s", "<= 60 s",
               per_fifty <= 60)
        report("  codes reported weak", len(taught.weak), "codes", "-", True)
    median, p99 = statistics.median(alone), float(np.percentile(alone, 99))
    report(f"one card read from its area (median of {len(alone)})", median, "ms", "<= 10 ms",
           median <= 10)
    report("  99th percentile", p99, "ms", "-", True)


CARD_TABLES = (*range(300, 340), *range(500, 580))
"""The tables each deck is read on. Tables 300-339 alone showed the own full-bleed deck at
98.5 % (135 of 137 cards); on 500-579, never looked at while the reader was made, it reads
96.7 % (208 of 215), most misses a clear card's coordinate judged partly covered where the
deck's art (drawn anew on each copy) runs up to its panel."""
CHIPPED_TABLES = 16


def _chipped_wrong(deck, model) -> list[str]:
    """Wrong reads on tables where a chip lies on one card's corner, over or beside its
    coordinate (a probe put down on a card): what is left of a number showing must be read
    as its own or not at all."""
    wrong: list[str] = []
    for seed in range(400, 400 + CHIPPED_TABLES):
        _, _, misread = read_card_table(card_table(deck, seed, chipped=1.0), model)
        wrong += [f"table {seed} (chipped): {w}" for w in misread]
    return wrong


EDGE_SEEDS = (1, 2)
"""The card-edge views are also read with the deck taught at these seeds: such wrong reads are
rare (about one view in 700) and which views fail changes with the teaching's random draws, so
that one seed's 0 says little (main at 35bc94b: 0, 5 and 7 of each seed's 2880 views)."""
EDGES = (-0.2, 0.05, 0.3, 0.55)
"""Where another card's edge crosses a coordinate in ``_edged_wrong``: this many of its radii
past its middle (at -0.2 most of the number is hidden, at 0.55 a sliver)."""


def _edged_wrong(photos, model: CardModel) -> tuple[list[str], int]:
    """Wrong reads of the teaching photos with another card laid over part of one
    coordinate, its straight edge across the number (a card half under the next one on the
    pile): what is left of a number must be read as its own or not at all. Also how many
    such views were read."""
    wrong: list[str] = []
    tried = 0
    for n, photo in enumerate(photos[::2]):
        seen = next((r for r in read_cards(photo.image, model) if r.card == photo.card), None)
        if seen is None:
            continue
        top, bottom, radius = coordinate_middles(model, seen.corners)
        for end, middle in enumerate((top, bottom)):
            for turn in range(3):
                angle = 2 * np.pi * (turn + 0.37 * n) / 3
                face = ((200, 200, 205), (60, 60, 70), (90, 140, 200))[(n + turn) % 3]
                for past in EDGES:
                    covered = card_edge_over(photo.image, middle, radius, angle, past, face)
                    tried += 1
                    wrong += [f"{photo.card} read as {r.card} ({'top' if end == 0 else 'bottom'}"
                              f" coordinate, edge {past:+.2f} radii past its middle)"
                              for r in read_cards(covered, model)
                              if r.card is not None and r.card != photo.card]
    return wrong, tried


def bench_qr_photos(report, count: int = 200) -> None:
    """Phone-like photos of any QR code (``synthetic.qr_photos``): what the still
    reader decodes (``companion scan --raw``'s codes) against plain zxing-cpp and plain pyzbar,
    and both together, on the same photos."""
    read = {"ours": 0, "zxing": 0, "pyzbar": 0, "both": 0}
    wrong = {"ours": 0, "zxing": 0}
    pipeline = Pipeline()
    for seed in range(1000, 1000 + count):
        bgr, text, _ = qr_photo(seed)
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        ours = [code.text for code in pipeline.read_still(bgr).codes]
        zxing = [r.text for r in zxingcpp.read_barcodes(gray)]
        pyzbar = [s.data.decode("utf-8", "replace")
                  for s in decode(gray, symbols=[ZBarSymbol.QRCODE])]
        read["ours"] += text in ours
        read["zxing"] += text in zxing
        read["pyzbar"] += text in pyzbar
        read["both"] += text in zxing or text in pyzbar
        wrong["ours"] += sum(other != text for other in ours)
        wrong["zxing"] += sum(other != text for other in zxing)
    report(f"phone-like QR photos read: ours (of {count})", read["ours"], "photos",
           "> both", read["ours"] > read["both"])
    report("  plain zxing-cpp", read["zxing"], "photos", "-", True)
    report("  plain pyzbar", read["pyzbar"], "photos", "-", True)
    report("  both plain decoders together", read["both"], "photos", "-", True)
    report("  other codes decoded: ours", wrong["ours"], "codes", "-", True)
    report("  other codes decoded: plain zxing-cpp", wrong["zxing"], "codes", "-", True)


def bench_fallbacks(report) -> None:
    """What each sticker attempt adds over zxing-cpp alone, on whole tray frames at
    2.5-3 px/module under strong, photo-like degradation."""
    counts = {attempts: 0 for attempts in (("zxing",), ATTEMPTS, STILL_ATTEMPTS)}
    total = 0
    for seed in range(30):
        scene, view = tiles_scene(2.5 + (seed % 3) * 0.25, 6, seed, curl=0.6)
        frame = render(scene, view, Degradation.photo(random.Random(seed), 1.2), seed)
        gray = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
        truth = {t.label for t in frame.truth if t.kind == "tile"}
        total += len(truth)
        for attempts in counts:
            found = read_region(gray, Box(0, 0, 1280, 720), attempts)
            counts[attempts] += len({d.decode("latin-1") for d, _ in found} & truth)
    names = {("zxing",): "zxing-cpp alone", ATTEMPTS: "+ upscaled patches (live)",
             STILL_ATTEMPTS: "+ unskewed patches, zbar, last resort (still)"}
    for attempts, count in counts.items():
        report(f"stickers read, {names[attempts]}", count, f"of {total}", "-", True)

