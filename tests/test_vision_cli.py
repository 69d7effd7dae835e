"""`companion scan`, `calibrate`, `print-stickers` and `print-markers` as a user runs them."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.album import TEACH_PIXELS, photos_of, read_taps, shrunk_photo
from companion.box import load_box
from companion.observations import StickerPayload
from companion.rules import Card
from tests.scenes import tiles_scene
from tests.scenes import teaching_photo
from tests.test_cli import companion
from vision.config import save_calibration
from synthetic.card_faces import DECKS
from synthetic.scene import Degradation, Scene, View, render
from synthetic.teaching import demo_calibration


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
    save_calibration(demo_calibration(), folder / "deck.json")  # the reference deck, taught
    return folder, truth


def test_scan_json_lists_each_image_in_argument_order(images):
    folder, truth = images
    result = companion("scan", folder / "tray.jpg", folder / "table.png", "--json",
                       "--calibration", folder / "deck.json")
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


def test_without_a_taught_deck_cards_are_left_alone_and_the_scan_says_so(images):
    folder, _ = images
    data = json.loads(companion("scan", folder / "table.png", "--json").stdout)[0]
    assert data["cards"] == []
    assert any(p["kind"] == "cards_not_taught" for p in data["problems"])


def test_calibrate_table_then_scan_with_it(images, tmp_path):
    folder, _ = images
    cal = tmp_path / "cal.json"
    cal.write_bytes((folder / "deck.json").read_bytes())
    result = companion("calibrate", "table", folder / "table.png", "--out", cal)
    assert result.returncode == 0, result.stderr
    assert "markers used: 0, 1, 2, 3" in result.stdout and "px per module" in result.stdout
    assert "colour profile measured for B, G, O" in result.stdout
    data = json.loads(companion("scan", folder / "table.png", "--calibration", cal,
                                "--json").stdout)[0]
    assert data["cards"][0]["zone"] == "discard"


CODES = sorted({card.code for card in load_box().deck})[::10]
"""Six of the deck's sixty codes."""


def test_calibrate_cards_teaches_a_deck_and_adds_to_an_existing_file(images, tmp_path):
    folder, _ = images
    cal = tmp_path / "cal.json"
    companion("calibrate", "table", folder / "table.png", "--out", cal, check=True)
    photos = tmp_path / "photos"
    photos.mkdir()
    for k, code in enumerate(CODES):
        cv2.imwrite(str(photos / f"{code.replace('/', '-')}.jpg"),
                    teaching_photo(DECKS["parchment"], Card.parse(code), 1000 + k, copy=k))
    second = CODES[4].replace("/", "-")
    phone = teaching_photo(DECKS["parchment"], Card.parse(CODES[4]), 77, copy=99)
    phone = cv2.resize(phone, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    assert phone.shape[0] * phone.shape[1] > TEACH_PIXELS  # taught from it shrunk
    cv2.imwrite(str(photos / f"{second}.2.jpg"), phone)
    (photos / "README.txt").write_text("photos of our deck")
    whole = cv2.imencode(".png", teaching_photo(DECKS["parchment"], Card.parse("O1/O2"), 5))[1]
    (photos / "O1-O2.png").write_bytes(whole.tobytes()[:len(whole) // 2])  # cut by a power cut
    result = companion("calibrate", "cards", photos, "--out", cal)
    assert result.returncode == 0, result.stderr
    assert f"learned {len(CODES)} card code(s) from {len(CODES) + 1} photo(s)" in result.stdout
    assert "skipped README.txt" in result.stdout
    assert "skipped O1-O2.png: left out, it cannot be read" in result.stdout
    assert f"not taught yet ({60 - len(CODES)}):" in result.stdout
    saved = json.loads(cal.read_text())
    assert "cards" in saved and "table" in saved  # added to, not replaced
    assert sorted(saved["cards"]["codes"]) == sorted(CODES)


def test_calibrate_cards_names_a_badly_labelled_photo(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "G2-B3.png"),
                teaching_photo(DECKS["parchment"], Card.parse("B3/G2"), 1))
    result = companion("calibrate", "cards", photos, "--out", tmp_path / "cal.json")
    assert result.returncode == 2 and "no labelled card photos" in result.stderr


def test_a_calibration_taught_by_an_older_version_still_calibrates_the_table(images, tmp_path):
    folder, _ = images
    cal = tmp_path / "cal.json"
    companion("calibrate", "table", folder / "table.png", "--out", cal, check=True)
    data = json.loads(cal.read_text())
    data["cards"] = {"hues": {"B": 100, "G": 60, "O": 15}, "templates": {}}
    cal.write_text(json.dumps(data))
    result = companion("scan", folder / "table.png", "--calibration", cal)
    assert result.returncode == 0, result.stderr
    assert "teach the deck again" in result.stderr
    assert "markers: 0, 1, 2, 3" in result.stdout


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


def test_a_calibration_that_cannot_be_saved_is_said_plainly_and_the_file_kept(
        images, tmp_path, monkeypatch, capsys):
    import errno

    import calibration.cli
    from companion.cli import main

    folder, _ = images
    cal = tmp_path / "cal.json"
    cal.write_text("the old file")

    def full_disk(*_args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(calibration.cli, "save_calibration", full_disk)
    monkeypatch.setattr(calibration.cli, "_existing", lambda _path: None)
    assert main(["calibrate", "table", str(folder / "table.png"), "--out", str(cal)]) == 2
    assert capsys.readouterr().err == (f"{cal}: the calibration cannot be saved (No space left "
                                       "on device); the file is as it was\n")
    assert cal.read_text() == "the old file"


def test_scan_to_a_full_disk_says_so(images):
    folder, _ = images
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "companion.cli", "scan",
                              str(folder / "table.png"), "--json"], stdout=full,
                             stderr=subprocess.PIPE, text=True)
    assert run.returncode == 2
    assert run.stderr.endswith("companion: the output cannot be written (No space left on "
                               "device)\n") and "Traceback" not in run.stderr


def _png_claiming(width: int, height: int) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + header
            + struct.pack(">I", zlib.crc32(b"IHDR" + header)))


def _bmp_claiming(width: int, height: int) -> bytes:
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + len(info), 0, 0, 14 + len(info)) + info


@pytest.fixture
def hostile_images(tmp_path):
    """Files that claim to be photos: headers claiming more pixels than any camera makes, a
    strip one pixel wide, a pipe with no writer, an endless device, an empty file."""
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "huge.png").write_bytes(_png_claiming(100_000, 100_000))
    (folder / "wide.bmp").write_bytes(_bmp_claiming(2 ** 31 - 1, 1))
    cv2.imwrite(str(folder / "strip.png"), np.full((5000, 1, 3), 128, np.uint8))
    os.mkfifo(folder / "pipe.png")
    (folder / "empty.png").write_bytes(b"")
    return [folder / name for name in ("huge.png", "wide.bmp", "pipe.png", "empty.png")] + [
        Path("/dev/zero"), folder / "strip.png"]


def test_every_command_that_reads_a_photo_refuses_what_no_camera_makes(hostile_images,
                                                                          tmp_path):
    cal = tmp_path / "cal.json"
    for image in hostile_images:
        for command in (["scan", image], ["calibrate", "table", image, "--out", cal]):
            result = subprocess.run([sys.executable, "-m", "companion.cli", *map(str, command)],
                                    capture_output=True, text=True, timeout=120)
            assert "Traceback" not in result.stderr, (command, result.stderr[-2000:])
            if image.name == "strip.png":  # an image, too small to read: said, not a failure
                assert "too small" in result.stdout + result.stderr or \
                    "markers" in result.stdout + result.stderr
                continue
            assert result.returncode == 2 and str(image) in result.stderr, (command,
                                                                             result.stderr)
        album = tmp_path / f"album-{image.name}"
        album.mkdir()
        (album / "B3-O1.png").symlink_to(image)
        result = subprocess.run([sys.executable, "-m", "companion.cli", "calibrate", "cards",
                                 str(album), "--out", str(cal)], capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 2 and "B3-O1.png" in result.stderr, result.stderr[-2000:]
        assert "Traceback" not in result.stderr
    assert not cal.exists()


def test_a_calibration_given_as_a_pipe_or_device_is_refused_by_name(images, tmp_path):
    folder, _ = images
    pipe = tmp_path / "cal.json"
    os.mkfifo(pipe)
    for cal in (pipe, Path("/dev/zero")):
        for command in (["scan", folder / "table.png", "--calibration", cal],
                        ["calibrate", "table", folder / "table.png", "--out", cal],
                        ["calibrate", "cards", folder, "--out", cal]):
            result = subprocess.run([sys.executable, "-m", "companion.cli", *map(str, command)],
                                    capture_output=True, text=True, timeout=120)
            assert result.returncode == 2, (command, result.stderr)
            assert f"{cal}: cannot read it: not a regular file" in result.stderr


@pytest.mark.parametrize("size", ["nan", "0", "-1", "inf", "1e999", "twenty"])
def test_a_sticker_size_no_sticker_has_is_refused_and_nothing_written(images, tmp_path, size):
    folder, _ = images
    cal = tmp_path / "cal.json"
    result = companion("calibrate", "table", folder / "table.png", "--out", cal,
                       "--sticker-mm", size)
    assert result.returncode == 2 and "is no sticker size" in result.stderr
    assert not cal.exists()
    result = companion("print-stickers", tmp_path / "s.pdf", "--size-mm", size)
    assert result.returncode == 2 and not (tmp_path / "s.pdf").exists()


def test_calibrating_onto_a_file_with_an_impossible_layout_names_the_part(images, tmp_path):
    folder, _ = images
    cal = tmp_path / "cal.json"
    companion("calibrate", "table", folder / "table.png", "--out", cal, check=True)
    good = json.loads(cal.read_text())
    broken = {"an endless zone": ("zones", "discard", [[0, 0], [1e308, 0], [1e308, 1e308]]),
              "an empty zone": ("zones", "discard", []),
              "a zone of no area": ("zones", "discard", [[5, 5], [5, 5], [5, 5]]),
              "a marker far off": ("markers", 0, {"id": 0, "center": [1e300, 0], "size": 50})}
    for what, (part, key, value) in broken.items():
        data = json.loads(json.dumps(good))
        data["layout"][part][key] = value
        cal.write_text(json.dumps(data))
        result = companion("calibrate", "table", folder / "table.png", "--out", cal)
        assert result.returncode == 2, (what, result.stderr)
        assert f"{cal}: its layout part is unusable" in result.stderr, (what, result.stderr)
        assert json.loads(cal.read_text()) == data  # left as it was


def test_a_teach_photo_larger_than_any_needed_is_shrunk_with_its_taps():
    photo = np.zeros((3000, 4000, 3), np.uint8)
    cv2.circle(photo, (1000, 2000), 40, (255, 255, 255), -1)
    cv2.circle(photo, (3100, 500), 40, (255, 255, 255), -1)
    small, taps = shrunk_photo(TEACH_PIXELS, photo, ((1000.0, 2000.0), (3100.0, 500.0)))
    assert small.shape[0] * small.shape[1] <= TEACH_PIXELS
    for x, y in taps:
        assert small[int(round(y)), int(round(x))].min() == 255  # still on its spot
    same, kept = shrunk_photo(TEACH_PIXELS, small, taps)
    assert same is small and kept == taps


def test_an_album_with_a_pipe_for_taps_and_odd_names_is_listed_and_taught_from(tmp_path):
    album = tmp_path / "album"
    album.mkdir()
    os.mkfifo(album / "taps.json")  # opening it the plain way waits for ever
    cv2.imwrite(str(album / "B3-O1.png"), np.full((120, 90, 3), 200, np.uint8))
    (album / "a.\u00b2.txt").write_text("a superscript two is a digit to isdigit()")
    assert read_taps(album) == {}
    assert photos_of(album) == {"B3/O1": ["B3-O1.png"]}
    (album / "taps.json").unlink()
    (album / "taps.json").write_text("[" * 100_000)
    assert read_taps(album) == {}
    (album / "taps.json").write_text('{"B3-O1.png": [[1e400, 0], [0, 0]]}')
    assert read_taps(album) == {}
    (album / "taps.json").write_text('{"B3-O1.png": [[1' + "0" * 400 + ', 0], [0, 0]]}')
    assert read_taps(album) == {}


def test_calibrate_boards_teaches_the_print_from_tapped_photos(tmp_path):
    from synthetic.board_faces import BOARD_STYLES
    from synthetic.board_photos import board_photo
    from tests.test_boards import PLANETS
    photos = tmp_path / "boards"
    photos.mkdir()
    taps = {}
    for k, planet in enumerate(PLANETS[:4]):  # every number 1-4 shows on these
        photo = board_photo(planet, BOARD_STYLES["panel"], 300 + k, strength=0.3,
                            glyph_px=(30.0, 40.0))
        name = "-".join(map(str, photo.numbers)) + ".jpg"
        cv2.imwrite(str(photos / name), photo.image)
        taps[name] = [list(tap) for tap in photo.taps]
    (photos / "1-1-1-1.png").write_bytes(b"")  # no taps for it, nor a picture
    (photos / "Freezer.png").write_bytes(b"")
    (photos / "taps.json").write_text(json.dumps(taps))
    cal = tmp_path / "cal.json"
    result = companion("calibrate", "boards", photos, "--out", cal)
    assert result.returncode == 0, result.stderr
    assert "learned the boards' print from 4 photo(s)" in result.stdout
    assert "skipped 1-1-1-1.png: no four taps" in result.stdout
    assert "skipped Freezer.png: not a board photo named by its four numbers" in result.stdout
    assert json.loads(cal.read_text())["boards"]["kind"] == "boards-v2"


def test_calibrate_boards_says_what_is_wrong_with_a_folder(tmp_path):
    photos = tmp_path / "boards"
    photos.mkdir()
    result = companion("calibrate", "boards", photos, "--out", tmp_path / "cal.json")
    assert result.returncode == 2 and "no board photos with their taps" in result.stderr
    (photos / "taps.json").write_text("{not json")
    result = companion("calibrate", "boards", photos, "--out", tmp_path / "cal.json")
    assert result.returncode == 2 and "the taps cannot be read" in result.stderr
    assert not (tmp_path / "cal.json").exists()
