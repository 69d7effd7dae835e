"""Phone photos of printed QR codes: any text, small codes and large, light print on dark or
dark on light, on a sheet held up to the camera (turned, tilted, sometimes curved) and lit as a
room lights it (a brightness slope, a shadow's edge, a lamp's glare), then blurred, noisy and
JPEG-compressed as a phone's camera leaves it. For measuring the sticker reader on QR photos
in general, against the plain decoders on the same photos."""

from __future__ import annotations

import random

import cv2
import numpy as np
import segno

WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
         "november oscar papa").split()
SIZES = ((1600, 1200), (1200, 1600), (1280, 960), (2000, 1500))
"""Photo sizes (px): phones' photos as shared, scaled down."""
DRAWN_MODULE = 8
"""Pixels per module the code is drawn at before it is photographed."""


def qr_photo(seed: int) -> tuple[np.ndarray, str, np.ndarray]:
    """A photo (BGR, as decoded from its JPEG), the text of the one code in it, and where
    the code's middle is in the photo (x, y)."""
    rng = random.Random(seed)
    text = _text(rng)
    width, height = rng.choice(SIZES)
    sheet, code_side = _sheet(text, rng)
    # modules of 2 to 30 px in the photo; the code never larger than most of it
    module_px = rng.choice([rng.uniform(2.2, 4), rng.uniform(4, 10), rng.uniform(10, 30)])
    side = min(code_side / DRAWN_MODULE * module_px, 0.9 * min(width, height))
    image = _background(width, height, seed, rng)
    centre = _hold_up(image, sheet, side * sheet.shape[0] / code_side, rng)
    _light(image, rng, centre, side)
    image = _blur(image, rng, module_px)
    image += np.random.default_rng(seed).normal(0, rng.uniform(2, 10), image.shape)
    _, data = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, rng.randint(50, 95)])
    photo = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert photo is not None
    return np.asarray(photo), text, centre


def _text(rng: random.Random) -> str:
    """A link, words, a Wi-Fi login or a long number: what QR codes carry."""
    kind = rng.random()
    if kind < 0.4:
        site = rng.choice(["example.org", "shop.example.com", "t.example", "qr.example.net"])
        path = "".join(rng.choice("abcdefghijkmnopqrstuvwxyz0123456789")
                       for _ in range(rng.randint(4, 60)))
        return f"https://{site}/{path}"
    if kind < 0.7:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 20)))
    if kind < 0.85:
        secret = "".join(rng.choice("abcdefgh12345678") for _ in range(12))
        return f"WIFI:S:{rng.choice(WORDS)};T:WPA;P:{secret};;"
    return str(rng.randint(0, 10 ** rng.randint(1, 30)))


def _sheet(text: str, rng: random.Random) -> tuple[np.ndarray, int]:
    """The code printed on a sheet of paper with a margin (float BGR), and the code's side
    with its quiet zone on the sheet (px)."""
    modules = np.pad(np.array(segno.make_qr(text, error=rng.choice("lmqh")).matrix,
                             np.uint8), 4)
    code = cv2.resize(modules, None, fx=DRAWN_MODULE, fy=DRAWN_MODULE,
                      interpolation=cv2.INTER_NEAREST)
    ink, paper = rng.uniform(0, 70), rng.uniform(170, 250)
    printed = np.where(code > 0, ink, paper).astype(np.float32)
    if rng.random() < 0.1:
        printed = paper + ink - printed  # printed light on dark
    side = code.shape[0]
    margin = int(side * rng.uniform(0.1, 0.5))
    sheet = np.pad(printed, margin, constant_values=paper)
    tint = np.array([rng.uniform(0.9, 1.05) for _ in range(3)], np.float32)
    return sheet[..., None] * tint, side


def _background(width: int, height: int, seed: int, rng: random.Random) -> np.ndarray:
    """A room behind the sheet: a colour with blotches."""
    blotches = np.random.default_rng(seed + 1).normal(0, 40, (height // 40 + 1,
                                                              width // 40 + 1, 3))
    return rng.uniform(40, 200) + cv2.resize(blotches.astype(np.float32), (width, height))


def _hold_up(image: np.ndarray, sheet: np.ndarray, side: float,
             rng: random.Random) -> np.ndarray:
    """The sheet ``side`` px across in the photo, turned, tilted and sometimes curved; where
    its middle is (the code's, printed in the middle of the sheet)."""
    size = sheet.shape[0]
    if rng.random() < 0.3:  # a curved sheet: its rows bow
        bend = rng.uniform(0.02, 0.08) * size
        ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
        sheet = cv2.remap(sheet, xs, ys + bend * np.sin(np.pi * xs / size) - bend / 2,
                          cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    height, width = image.shape[:2]
    x, y = rng.uniform(0.3, 0.7) * width, rng.uniform(0.3, 0.7) * height
    turn = rng.uniform(0, 2 * np.pi)
    tilt = rng.choice([0.0, rng.uniform(0, 0.25), rng.uniform(0.25, 0.5)])
    corners = []
    for k in range(4):
        angle = turn + (k + 0.5) * np.pi / 2
        reach = side / np.sqrt(2) * (1 + rng.uniform(-tilt, tilt))
        corners.append([x + reach * np.cos(angle), y + reach * np.sin(angle)])
    source = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, np.array(corners, np.float32))
    flags = cv2.INTER_AREA if side < size else cv2.INTER_LINEAR
    warped = cv2.warpPerspective(sheet, matrix, (width, height), flags=flags)
    cover = cv2.warpPerspective(np.ones((size, size), np.float32), matrix, (width, height))
    image *= 1 - cover[..., None]
    image += warped * cover[..., None]
    middle = np.array([[[size / 2, size / 2]]], np.float32)
    return cv2.perspectiveTransform(middle, matrix)[0, 0].astype(np.float64)


def _light(image: np.ndarray, rng: random.Random, centre: np.ndarray, side: float) -> None:
    """A brightness slope across the photo; sometimes a shadow's edge, a lamp's glare."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    image *= (1 + rng.uniform(-0.4, 0.4) * (xs / width - 0.5)
              + rng.uniform(-0.4, 0.4) * (ys / height - 0.5))[..., None]
    if rng.random() < 0.3:
        slope, offset = rng.uniform(-1, 1), rng.uniform(0, width)
        shade = np.where(xs + slope * ys > offset, rng.uniform(0.4, 0.75), 1.0)
        image *= cv2.GaussianBlur(shade.astype(np.float32), (0, 0), 8)[..., None]
    if rng.random() < 0.3:
        gx, gy = centre + np.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)]) * side
        radius = rng.uniform(0.05, 0.2) * side
        glare = rng.uniform(80, 200) * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2)
                                               / (2 * radius ** 2))
        image += glare[..., None]


def _blur(image: np.ndarray, rng: random.Random, module_px: float) -> np.ndarray:
    """Out of focus, or shaken, or sharp."""
    kind = rng.random()
    if kind < 0.3:
        return cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 1.2) * max(1.0, module_px / 4))
    if kind < 0.45:
        length = int(rng.uniform(3, 2 + module_px))
        line = np.zeros((length, length), np.float32)
        line[length // 2, :] = 1.0
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                       rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(line, turn, (length, length))
        return cv2.filter2D(image, -1, kernel / kernel.sum())
    return image
