"""Printables: every sticker in the PDF decodes back to its payload; the marker sheet's markers
are found. The PDFs are rasterised by poppler, as a printer would."""

from __future__ import annotations

import subprocess

import cv2
import pytest
from pyzbar.pyzbar import ZBarSymbol, decode

from calibration.printables import print_markers, print_stickers, stickers_for
from companion.box import load_box
from vision.layout import default_layout
from vision.rectify import MarkerDetector


def rasterise(pdf, tmp_path, dpi=300):
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", str(pdf),
                    str(tmp_path / "page")], check=True)
    return sorted(tmp_path.glob("page*.png"))


@pytest.mark.parametrize("paper, size", [("a4", 25.0), ("letter", 18.0)])
def test_every_sticker_in_the_pdf_decodes_to_its_payload(tmp_path, paper, size):
    pdf = tmp_path / "stickers.pdf"
    sheet = print_stickers(load_box(), pdf, size, paper)
    assert sheet.sticker_mm == pytest.approx(size, abs=1.0)
    decoded = []
    for page in rasterise(pdf, tmp_path):
        image = cv2.imread(str(page), cv2.IMREAD_GRAYSCALE)
        decoded += [s.data.decode() for s in decode(image, symbols=[ZBarSymbol.QRCODE])]
    expected = [s.text for s in stickers_for(load_box())]
    assert sorted(decoded) == sorted(expected) and len(expected) == 64


def test_sticker_sizes_outside_the_printable_range_are_refused(tmp_path):
    with pytest.raises(ValueError, match="12-60 mm"):
        print_stickers(load_box(), tmp_path / "x.pdf", 8.0)


def test_the_marker_sheet_holds_all_eight_markers(tmp_path):
    pdf = tmp_path / "markers.pdf"
    assert print_markers(default_layout(), pdf) == 2
    found = set()
    for page in rasterise(pdf, tmp_path, dpi=100):
        found |= {m.marker_id for m in MarkerDetector().detect(
            cv2.imread(str(page), cv2.IMREAD_GRAYSCALE))}
    assert found == set(range(8))


def test_a_sticker_number_says_nothing_of_its_tile_s_kind():
    """The screen names a hidden tile by its sticker's number during play: numbered by kind
    (43-48 the medals), the number would name the kind."""
    box = load_box()
    stickers = stickers_for(box)
    assert [s.tile_id for s in stickers] == list(range(1, 65))
    assert {kind: sum(s.kind == kind for s in stickers) for kind in box.tiles} == box.tiles
    runs = [len({s.kind for s in stickers[i:i + 4]}) for i in range(0, 64, 4)]
    assert sum(run == 1 for run in runs) <= 1  # hardly four numbers in a row of one kind
    assert stickers_for(box) == stickers  # the same sheet every time it is printed
