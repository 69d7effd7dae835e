"""Sticker payloads: exactly DESIGN.md §5.3, nothing near it; every printed code decodes."""

from __future__ import annotations

import pytest
from pyzbar.pyzbar import ZBarSymbol, decode

from companion.observations import StickerPayload, parse_sticker
from tests.scenes import STICKERS
from calibration.sticker_art import QR_MODULES, draw_code, qr_modules


@pytest.mark.parametrize("text, tile_id, kind", [
    ("SM1:T17:MIN-R", 17, "MIN-R"), ("SM1:T01:SPC", 1, "SPC"), ("SM1:T64:ALI-N", 64, "ALI-N"),
    ("SM1:T09:WAT", 9, "WAT")])
def test_the_exact_payload_form_is_accepted(text, tile_id, kind):
    assert parse_sticker(text) == StickerPayload(tile_id, kind)
    assert StickerPayload(tile_id, kind).text == text


@pytest.mark.parametrize("text", [
    "sm1:t17:min-r", " SM1:T17:MIN-R", "SM1:T17:MIN-R ", "SM1:T17:MIN-R\n", "SM1:T00:MIN-R",
    "SM1:T65:MIN-R", "SM1:T7:MIN-R", "SM1:T017:MIN-R", "SM2:T17:MIN-R", "SM1:T17:MIN-X",
    "SM1:T17:MIN", "xSM1:T17:MIN-R", "SM1:T17:MIN-Ry", "SM1:T١٧:MIN-R", "SM1-T17-MIN-R", "",
    "https://example.org/SM1:T17:MIN-R"])
def test_anything_near_it_is_foreign(text):
    assert parse_sticker(text) is None


def test_every_sticker_is_a_version_1_code_at_level_q():
    for sticker in STICKERS:
        assert qr_modules(sticker.text).shape == (QR_MODULES, QR_MODULES)


def test_every_sticker_code_decodes_back_to_its_payload():
    for sticker in STICKERS:
        symbols = decode(draw_code(sticker.text, 4), symbols=[ZBarSymbol.QRCODE])
        assert [s.data.decode() for s in symbols] == [sticker.text]
