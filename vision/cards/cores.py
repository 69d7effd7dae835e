"""Work spread over the machine's cores.

Teaching's heavy steps (a photo's spots found, a group of views made, a chunk of patches
described) are mostly OpenCV's and numpy's, which let go of the interpreter: threads, one a
core, run them side by side without copying the images they share.

Making views holds the interpreter for a third of its time, though (a view's few dozen patches
cut and named one by one): two threads made a deck's views 1.4 times as fast as one, two
processes 1.9 times. ``in_processes`` runs such work in worker processes, the images they
share laid once in shared memory.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import shared_memory
from typing import Any, TypeVar

import numpy as np

log = logging.getLogger(__name__)

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")

SHARED_AT_MOST = 0.25
"""Images laid in shared memory, as a share of the memory the machine has free, at the most:
more, and the work is done in threads (they need no copy)."""
SHARED_MEMORY = "/dev/shm"
"""Where Linux makes shared memory (``shm_open``)."""
TASKS_A_WORKER = 8
"""Items handed to the workers in about this many batches each (fewer round trips; enough
that a worker whose items are slow does not leave the other waiting long)."""


def side_by_side(work: Callable[[_Item], _Result], items: Iterable[_Item]) -> list[_Result]:
    """``work`` done on each item, one a core, the results in the items' order."""
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return list(pool.map(work, items))


def in_processes(prepare: Callable[[list[np.ndarray], Any], Any], images: Sequence[np.ndarray],
                 given: Any, work: Callable[[Any, _Item], _Result], items: Sequence[_Item]
                 ) -> list[_Result] | None:
    """``work(prepared, item)`` done on each item in worker processes, one a core, the results
    in the items' order; ``prepared`` is what ``prepare(images, given)`` returns, once in each
    worker. ``images`` are shared, not copied to each worker; ``prepare``, ``work`` and
    ``given`` must be picklable (``prepare`` and ``work`` functions of a module).

    None where workers would not serve (one core; the images larger than the memory allows;
    no shared memory or no processes, as in a sandbox; a worker lost): the caller then does
    the work itself, in threads. A fault of ``work`` itself is raised, as in a thread."""
    workers = min(os.cpu_count() or 1, len(items))
    total = sum(image.nbytes for image in images)
    if workers < 2 or total > min(SHARED_AT_MOST * _free_memory(), _shared_room()):
        return None
    try:
        memory = shared_memory.SharedMemory(create=True, size=max(total, 1))
    except OSError as error:
        log.info("work in threads: no shared memory (%s)", error)
        return None
    try:
        layout, offset = [], 0
        for image in images:
            np.ndarray(image.shape, image.dtype, memory.buf, offset)[...] = image
            layout.append((offset, image.shape, image.dtype.str))
            offset += image.nbytes
        # workers forked from a server process that has imported nothing of the app's: a
        # fork of the app itself (a screen's and a camera's threads) may deadlock
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([work.__module__])
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_start,
                                 initargs=(memory.name, layout, prepare, given)) as pool:
            return list(pool.map(_do, [work] * len(items), items,
                                 chunksize=max(1, len(items) // (workers * TASKS_A_WORKER))))
    except (OSError, BrokenProcessPool) as error:
        log.warning("work in threads: the worker processes failed (%s)", error)
        return None
    finally:
        memory.close()
        memory.unlink()


def _free_memory() -> float:
    """Bytes of memory free, about (as the kernel counts what it can give at once)."""
    try:
        return float(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError):
        return 0.0


def _shared_room() -> float:
    """Bytes free where shared memory is made: a container's may hold 64 MB, and shared
    memory written past its room ends the process (a bus error), it raises nothing."""
    try:
        room = os.statvfs(SHARED_MEMORY)
    except OSError:
        return 0.0
    return float(room.f_bavail * room.f_frsize)


_memory: shared_memory.SharedMemory | None = None
_prepared: Any = None
"""A worker's: the shared images' memory, and what ``prepare`` made of them."""


def _start(name: str, layout: list[tuple[int, tuple[int, ...], str]],
           prepare: Callable[[list[np.ndarray], Any], Any], given: Any) -> None:
    global _memory, _prepared
    _memory = shared_memory.SharedMemory(name)
    images = [np.ndarray(shape, np.dtype(kind), _memory.buf, offset)
              for offset, shape, kind in layout]
    _prepared = prepare(images, given)


def _do(work: Callable[[Any, _Item], _Result], item: _Item) -> _Result:
    return work(_prepared, item)
