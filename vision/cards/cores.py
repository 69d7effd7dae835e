"""Work spread over the machine's cores.

Teaching's heavy steps (a photo's spots found, a group of views made, a chunk of patches
described) are mostly OpenCV's and numpy's, which let go of the interpreter: threads, one a
core, run them side by side without copying the images they share.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


def side_by_side(work: Callable[[_Item], _Result], items: Iterable[_Item]) -> list[_Result]:
    """``work`` done on each item, one a core, the results in the items' order."""
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return list(pool.map(work, items))
