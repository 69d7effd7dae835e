"""Work spread over worker processes: the images shared, the results in order, and where
workers do not serve, nothing made and nothing left behind (the caller then works in
threads)."""

from __future__ import annotations

import logging
import os
from multiprocessing import shared_memory
from pathlib import Path

import numpy as np
import pytest

from vision.cards import cores

SHARED = Path(cores.SHARED_MEMORY)


def _sums(images: list[np.ndarray], given: int) -> list[int]:
    return [int(image.astype(np.int64).sum()) * given for image in images]


def _nth(prepared: list[int], k: int) -> tuple[int, int]:
    return k, prepared[k]


def _lost(images: list[np.ndarray], given: int) -> None:
    os._exit(3)  # a worker killed (out of memory, say)


def _faulty(prepared: list[int], k: int) -> int:
    if k == 2:
        raise ValueError(f"item {k} is faulty")
    return k


def _images() -> list[np.ndarray]:
    rng = np.random.default_rng(4)
    return [rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
            for h, w in ((480, 640), (7, 3), (1, 1), (720, 1280))] + \
        [rng.normal(size=(33, 5)).astype(np.float32)]


def _made(monkeypatch) -> list[str]:
    """The names of the shared memory blocks made from now on in this process (another
    test's, running beside this one, may come and go in the same folder meanwhile)."""
    names: list[str] = []

    class Recorded(shared_memory.SharedMemory):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            if kwargs.get("create"):
                names.append(self.name)
    monkeypatch.setattr(shared_memory, "SharedMemory", Recorded)
    return names


def _left(names: list[str]) -> list[str]:
    return [name for name in names if (SHARED / name).exists()]


needs_two_cores = pytest.mark.skipif((os.cpu_count() or 1) < 2,
                                     reason="worker processes need two cores")


@needs_two_cores
def test_workers_see_the_images_shared_and_the_results_come_in_order(monkeypatch):
    images = _images()
    made = _made(monkeypatch)
    done = cores.in_processes(_sums, images, 3, _nth, list(range(len(images))) * 7)
    expected = [3 * int(image.astype(np.int64).sum()) for image in images]
    assert done == [(k, expected[k]) for k in list(range(len(images))) * 7]
    assert len(made) == 1 and _left(made) == [], "shared memory was left behind"


@needs_two_cores
def test_a_worker_lost_gives_no_results_a_warning_and_leaves_nothing(caplog, monkeypatch):
    made = _made(monkeypatch)
    with caplog.at_level(logging.WARNING, logger=cores.__name__):
        assert cores.in_processes(_lost, _images(), 1, _nth, [0, 1, 2]) is None
    assert "worker processes failed" in caplog.text
    assert len(made) == 1 and _left(made) == [], "shared memory was left behind"


@needs_two_cores
def test_a_fault_of_the_work_itself_is_raised_as_in_a_thread():
    with pytest.raises(ValueError, match="item 2 is faulty"):
        cores.in_processes(_sums, _images(), 1, _faulty, [0, 1, 2, 3])


def test_one_core_or_images_larger_than_the_memory_allows_are_left_to_threads(monkeypatch):
    monkeypatch.setattr(cores.os, "cpu_count", lambda: 1)
    assert cores.in_processes(_sums, _images(), 1, _nth, [0, 1]) is None
    monkeypatch.setattr(cores.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(cores, "_free_memory", lambda: 1e6)  # the images are 3.7 MB
    assert cores.in_processes(_sums, _images(), 1, _nth, [0, 1]) is None
    monkeypatch.setattr(cores, "_free_memory", lambda: 1e12)
    assert cores.in_processes(_sums, _images(), 1, _nth, [0]) is None  # one item: no workers


def test_shared_memory_with_too_little_room_is_left_to_threads(monkeypatch):
    """A container's shared memory may hold 64 MB; written past its room, it ends the
    process rather than raising: the room is asked first."""
    room = cores._shared_room
    assert room() > 0  # this machine has some
    monkeypatch.setattr(cores, "SHARED_MEMORY", "/no/such/place")
    assert room() == 0.0
    monkeypatch.setattr(cores, "_shared_room", lambda: 3e6)  # the images are 3.7 MB
    assert cores.in_processes(_sums, _images(), 1, _nth, [0, 1]) is None
