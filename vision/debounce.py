"""Temporal debouncing: an observation appears when seen in a few frames running, and
disappears only after it has been missing for a few frames running."""

from __future__ import annotations

from typing import Generic, TypeVar
from collections.abc import Hashable

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Debouncer(Generic[K, V]):
    def __init__(self, appear: int = 3, vanish: int = 3) -> None:
        self.appear = appear
        self.vanish = vanish
        self._seen: dict[K, int] = {}
        self._missing: dict[K, int] = {}
        self._stable: dict[K, V] = {}

    def update(self, present: dict[K, V]) -> dict[K, V]:
        """Feed one frame's observations (key -> value); get the stable ones back."""
        for key, value in present.items():
            self._seen[key] = self._seen.get(key, 0) + 1
            self._missing.pop(key, None)
            if key in self._stable or self._seen[key] >= self.appear:
                self._stable[key] = value
        for key in list(self._seen):
            if key not in present:
                self._seen[key] = 0
                self._missing[key] = self._missing.get(key, 0) + 1
                if self._missing[key] >= self.vanish:
                    self._stable.pop(key, None)
                    del self._seen[key], self._missing[key]
        return dict(self._stable)
