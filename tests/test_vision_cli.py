"""`companion scan`, `calibrate`, `print-stickers` and `print-markers` as a user runs them."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.observations import StickerPayload
from companion.rules import Card
from tests.scenes import tiles_scene
from tests.test_card_reading import OTHER_STYLE, photo_of
from tests.test_cli import companion
from vision.synthetic import Degradation, Scene, View, render


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    folder = tmp_path_factory.mktemp("images")
    scene = Scene.table()
    scene.add_card(Card.parse("B3/G2"), (150.0, 315.0), 8.0)
    table = render(scene, View.whole_table(scene.layout), Degradation(perspective=0.03), 5)
    cv2.imwrite(str(folder / "table.png"), table.image)
    tray_scene, view = tiles_scene(4.0, 4, 9)
    tray = render(tray_scene, view, Degradation(noise=3), 9)
    cv2.imwrite(str(folder / "tray.jpg"), tray.image)
    truth = sorted(t.label for t in tray.truth if t.kind == "tile")
    return folder, truth


def test_scan_json_lists_each_image_in_argument_order(images):
    folder, truth = images
    result = companion("scan", folder / "tray.jpg", folder / "table.png", "--json")
    assert result.returncode == 0, result.stderr
    tray, table = json.loads(result.stdout)
    assert sorted(t["payload"] for t in tray["tiles"]) == truth
    tile = tray["tiles"][0]
    assert set(tile) == {"payload", "id", "kind", "zone", "corners"} and len(tile["corners"]) == 4
    assert StickerPayload(tile["id"], tile["kind"]).text == tile["payload"]
    assert [c["code"] for c in table["cards"]] == ["B3/G2"]
    assert table["cards"][0]["zone"] == "discard" and 0 < table["cards"][0]["confidence"] <= 1
    assert {m["id"] for m in table["markers"]} >= {0, 1, 2, 3}
    assert "codes" not in tray


def test_scan_raw_adds_every_decoded_code(images):
    folder, truth = images
    data = json.loads(companion("scan", folder / "tray.jpg", "--json", "--raw").stdout)[0]
    assert sorted(c["text"] for c in data["codes"]) == truth


def test_scan_of_an_unreadable_image_exits_2_naming_it(images, tmp_path):
    folder, _ = images
    bad = tmp_path / "notes.png"
    bad.write_text("hello")
    result = companion("scan", folder / "tray.jpg", bad, "--json")
    assert result.returncode == 2 and "notes.png: cannot be opened as an image" in result.stderr


def test_calibrate_table_then_scan_with_it(images, tmp_path):
    folder, _ = images
    cal = tmp_path / "cal.json"
    result = companion("calibrate", "table", folder / "table.png", "--out", cal)
    assert result.returncode == 0, result.stderr
    assert "markers used: 0, 1, 2, 3" in result.stdout and "px per module" in result.stdout
    assert "colour profile measured for B, G, O" in result.stdout
    data = json.loads(companion("scan", folder / "table.png", "--calibration", cal,
                                "--json").stdout)[0]
    assert data["cards"][0]["zone"] == "discard"


def test_calibrate_cards_teaches_and_adds_to_an_existing_file(images, tmp_path):
    folder, _ = images
    cal = tmp_path / "cal.json"
    companion("calibrate", "table", folder / "table.png", "--out", cal, check=True)
    photos = tmp_path / "photos"
    photos.mkdir()
    for i, code in enumerate(["B1/G2", "B3/O4", "G?/O1", "B?/G3", "G4/O?", "B2/O3"]):
        cv2.imwrite(str(photos / f"{code.replace('/', '-')}.png"),
                    photo_of(Card.parse(code), OTHER_STYLE, i))
    cv2.imwrite(str(photos / "B2-O3.2.png"), photo_of(Card.parse("B2/O3"), OTHER_STYLE, 9))
    (photos / "README.txt").write_text("photos of our deck")
    result = companion("calibrate", "cards", photos, "--out", cal)
    assert result.returncode == 0, result.stderr
    assert "learned 6 card(s) from 7 photo(s)" in result.stdout
    assert "skipped README.txt" in result.stdout
    saved = json.loads(cal.read_text())
    assert "cards" in saved and "table" in saved  # added to, not replaced


def test_calibrate_cards_names_a_badly_labelled_photo(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "G2-B3.png"), photo_of(Card.parse("B3/G2"), OTHER_STYLE, 1))
    result = companion("calibrate", "cards", photos, "--out", tmp_path / "cal.json")
    assert result.returncode == 2 and "no labelled card photos" in result.stderr


def test_print_commands_write_pdfs(tmp_path):
    result = companion("print-stickers", tmp_path / "s.pdf", "--size-mm", "20")
    assert result.returncode == 0 and "64 stickers" in result.stdout
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")
    result = companion("print-markers", tmp_path / "m.pdf", "--paper", "letter")
    assert result.returncode == 0 and (tmp_path / "m.pdf").stat().st_size > 1000


@pytest.mark.parametrize("sub", [["scan"], ["calibrate"], ["calibrate", "table"],
                                 ["calibrate", "cards"], ["print-stickers"], ["print-markers"]])
def test_vision_commands_have_help(sub):
    result = companion(*sub, "--help")
    assert result.returncode == 0 and "usage: companion" in result.stdout
