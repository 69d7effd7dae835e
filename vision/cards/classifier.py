"""A small neural network (one hidden layer) that names what a patch shows, and a committee
of such networks.

Trained by teaching, on this machine, in seconds: plain numpy, no framework to install on a
Pi. Its weights are kept in the calibration file beside the rest of the taught deck.
"""

from __future__ import annotations

import base64
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

HIDDEN = 96
"""Hidden units: enough for five numbers and "nothing" in any print, few enough to learn in
seconds from a deck's views."""
EPOCHS = 14
BATCH = 512
LEARNING_RATE = 3e-3
WEIGHT_DECAY = 1e-4
EASY = 0.995
EASY_KEPT = 0.3
"""A committee member's easy patches: of the commonest label (a deck's "nothing", about two
in three), named so surely (``EASY``) when last learned from. Each epoch learns from all the
others, and from a new draw of this share (``EASY_KEPT``) of the easy ones, each of those
weighing as many as it stands for: the same lesson on average, the hard patches (a number cut
off-centre or half hidden, a look-alike of another game) every epoch. A 50-photo deck's two
networks in 14.7 s rather than 21.1 here; its views held out, named as surely (95.4 % of the
numbers, both ways), a number wrongly 6 times rather than 9, and nothing as a number 3
times rather than 8, of 21 000 patches. (Thinning all of "nothing" alike, the hard ones
with the easy, read a card of the own full-bleed deck wrongly.)"""
MEMBERS = 2
"""Networks in a committee. Two: with one alone, a retaught deck's rare wrong reads came back
on patches no view was like (another network each time); the second costs one more training
(about 10 s of a deck's teaching) and reading (a few per cent of a read)."""
MEMBERS_AT_MOST = 8
"""More in a calibration file is no committee this code made."""


@dataclass
class Classifier:
    labels: tuple[str, ...]
    """What each output names."""
    mean: np.ndarray
    scale: np.ndarray
    """Each input's mean and spread over the training views (inputs are standardised)."""
    hidden_weights: np.ndarray
    hidden_bias: np.ndarray
    output_weights: np.ndarray
    output_bias: np.ndarray

    @classmethod
    def fit(cls, inputs: np.ndarray, targets: np.ndarray, labels: tuple[str, ...],
            seed: int = 0, hidden: int = HIDDEN, epochs: int = EPOCHS) -> Classifier:
        """Trained on ``inputs`` (N x D) to name ``targets`` (indices into ``labels``):
        softmax cross-entropy, Adam, the step shrinking over the epochs."""
        return cls.trained(*_standardised(inputs), targets, labels, seed, hidden, epochs)

    @classmethod
    def trained(cls, x: np.ndarray, mean: np.ndarray, scale: np.ndarray, targets: np.ndarray,
                labels: tuple[str, ...], seed: int = 0, hidden: int = HIDDEN,
                epochs: int = EPOCHS, thinned: bool = False) -> Classifier:
        """``fit`` on inputs standardised already (``x``, by their ``mean`` and ``scale``);
        ``thinned``: each epoch on fewer of the easy inputs (``EASY``)."""
        rng = np.random.default_rng(seed)
        d, k = x.shape[1], len(labels)
        params = [(rng.normal(0, 1, (d, hidden)) * np.sqrt(2 / d)).astype(np.float32),
                  np.zeros(hidden, np.float32),
                  (rng.normal(0, 1, (hidden, k)) * np.sqrt(1 / hidden)).astype(np.float32),
                  np.zeros(k, np.float32)]
        first = [np.zeros_like(p) for p in params]
        second = [np.zeros_like(p) for p in params]
        spare = [np.empty_like(p) for p in params]
        thinning = _Thinning(targets) if thinned else None
        steps = 0
        for epoch in range(epochs):
            rate = LEARNING_RATE * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
            order = rng.permutation(len(x)) if thinning is None else thinning.order(rng)
            # as many steps an epoch as on all the inputs, each on a batch as much smaller
            size = max(1, round(BATCH * len(order) / len(x)))
            for start in range(0, len(order), size):
                batch = order[start:start + size]
                grads, named = _gradients(params, x[batch], targets[batch],
                                          None if thinning is None else thinning.weights[batch])
                if thinning is not None:
                    thinning.learned(batch, named)
                steps += 1
                step = np.float32(rate * np.sqrt(1 - 0.999 ** steps) / (1 - 0.9 ** steps))
                for j, (param, grad) in enumerate(zip(params, grads)):
                    _adam(param, grad, first[j], second[j], step, spare[j], decay=j % 2 == 0)
        return cls(labels, mean.astype(np.float32), scale.astype(np.float32), *params)

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        """N x len(labels): how likely each patch shows each label."""
        weights, bias = self.unscaled
        return self.chances(np.maximum(inputs @ weights + bias, 0.0))

    @cached_property
    def unscaled(self) -> tuple[np.ndarray, np.ndarray]:
        """The hidden layer's weights and bias taking the inputs as they are: the inputs'
        standardising folded into them once, rather than done to every patch read (the
        bias summed in double precision: the inputs' means are large against their
        spreads)."""
        weights = (self.hidden_weights / self.scale[:, None]).astype(np.float32)
        shift = (self.mean.astype(np.float64) / self.scale) @ self.hidden_weights
        return weights, (self.hidden_bias - shift).astype(np.float32)

    def chances(self, hidden: np.ndarray) -> np.ndarray:
        """N x len(labels), from the hidden layer's outputs."""
        logits = hidden @ self.output_weights + self.output_bias
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    def to_json(self) -> dict[str, Any]:
        return {"labels": list(self.labels),
                **{name: _pack(getattr(self, name)) for name in _ARRAYS}}

    @classmethod
    def from_json(cls, data: Any) -> Classifier:
        labels = tuple(str(label) for label in data["labels"])
        arrays = {name: _unpack(data[name]) for name in _ARRAYS}
        d, hidden = arrays["hidden_weights"].shape
        if arrays["mean"].shape != (d,) or arrays["scale"].shape != (d,) or \
                arrays["hidden_bias"].shape != (hidden,) or \
                arrays["output_weights"].shape != (hidden, len(labels)) or \
                arrays["output_bias"].shape != (len(labels),):
            raise ValueError("the reader's weights do not fit together")
        if not all(np.isfinite(a).all() for a in arrays.values()) or \
                not (arrays["scale"] > 0).all():
            raise ValueError("the reader's weights are not all numbers")
        return cls(labels, **arrays)


@dataclass
class Committee:
    """Networks trained apart on the same views (each from its own start and order), their
    chances averaged. Where the views taught a patch plainly, they agree; a patch unlike any
    view (a number cut around a piece of a ring, half under a chip) one network may name
    wrongly and surely, and the others then pull that below the reader's margins: unsure
    rather than wrong."""

    members: tuple[Classifier, ...]

    @property
    def labels(self) -> tuple[str, ...]:
        return self.members[0].labels

    @classmethod
    def fit(cls, inputs: np.ndarray, targets: np.ndarray, labels: tuple[str, ...],
            seed: int = 0, members: int = MEMBERS, own: bool = False) -> Committee:
        """The members trained side by side, one a core: numpy lets go of the interpreter
        in its matrix products, where training spends its time (two members on two cores:
        about 1.6 times as fast as one after the other). ``own``: the caller gives up
        ``inputs``, which are then standardised where they lie."""
        standardised = _standardised(inputs, own)  # once, for all
        with ThreadPoolExecutor(max(1, min(members, os.cpu_count() or 1))) as pool:
            trained = pool.map(lambda k: Classifier.trained(*standardised, targets, labels,
                                                            seed + 7 * k, thinned=True),
                               range(members))
            return cls(tuple(trained))

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        """N x len(labels): the members' chances, averaged. Their hidden layers are worked
        out in one matrix product (``_joined``): a read's few hundred patches cost one pass
        over the inputs, not one a member."""
        weights, bias, ends = self._joined
        hidden = np.maximum(inputs @ weights + bias, 0.0)
        return sum(m.chances(hidden[:, start:end])
                   for m, start, end in zip(self.members, ends, ends[1:])) / len(self.members)

    @cached_property
    def _joined(self) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """The members' hidden layers side by side (``Classifier.unscaled``), and where each
        member's starts and the last ends."""
        layers = [m.unscaled for m in self.members]
        ends = np.cumsum([0] + [w.shape[1] for w, _ in layers]).tolist()
        return (np.hstack([w for w, _ in layers]), np.concatenate([b for _, b in layers]),
                ends)

    def to_json(self) -> dict[str, Any]:
        return {"members": [m.to_json() for m in self.members]}

    @classmethod
    def from_json(cls, data: Any) -> Committee:
        """A committee; or one network alone, as an older teaching kept it."""
        if isinstance(data, dict) and "members" in data:
            listed = data["members"]
            if not isinstance(listed, list) or not 1 <= len(listed) <= MEMBERS_AT_MOST:
                raise ValueError("the reader's networks are not a short list")
            members = tuple(Classifier.from_json(m) for m in listed)
        else:
            members = (Classifier.from_json(data),)
        if any(m.labels != members[0].labels for m in members):
            raise ValueError("the reader's networks do not name the same things")
        return cls(members)


_ARRAYS = ("mean", "scale", "hidden_weights", "hidden_bias", "output_weights", "output_bias")


def _standardised(inputs: np.ndarray, own: bool = False
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inputs less their mean, over their spread (float32), with that mean and spread. At
    most one new array the inputs' size, none when the caller gives them up (``own``): a
    deck's 100 000 patches' descriptions are a gigabyte, and a Pi has a few."""
    mean = inputs.mean(axis=0)
    spread = np.zeros(inputs.shape[1], np.float64)
    for start in range(0, len(inputs), STANDARDISED_ROWS):
        part = inputs[start:start + STANDARDISED_ROWS] - mean
        spread += np.einsum("ij,ij->j", part, part)
    scale = (np.sqrt(spread / max(1, len(inputs))) + 1e-3).astype(mean.dtype)
    x = inputs if own and inputs.dtype == np.float32 else inputs.astype(np.float32)
    x -= mean
    x /= scale
    return x, mean, scale


STANDARDISED_ROWS = 4096
"""Rows whose spread is summed at once (a small piece, not a second copy of all)."""


class _Thinning:
    """Which inputs each epoch learns from, the commonest label's easy ones thinned
    (``EASY``, ``EASY_KEPT``), and how much each weighs."""

    def __init__(self, targets: np.ndarray) -> None:
        self.common = targets == np.bincount(targets).argmax()
        self.easy = np.zeros(len(targets), bool)
        """Named its label surely when last learned from (none before the first epoch)."""
        self.weights = np.ones(len(targets), np.float32)

    def order(self, rng: np.random.Generator) -> np.ndarray:
        """An epoch's inputs, in the order learned."""
        easy = np.flatnonzero(self.easy)
        kept = rng.choice(easy, round(len(easy) * EASY_KEPT), replace=False)
        self.weights[:] = 1.0
        self.weights[kept] = len(easy) / max(1, len(kept))
        chosen = np.concatenate([np.flatnonzero(~self.easy), kept])
        return chosen[rng.permutation(len(chosen))]

    def learned(self, batch: np.ndarray, named: np.ndarray) -> None:
        """How surely a batch's inputs were named their labels (``named``)."""
        self.easy[batch] = self.common[batch] & (named > EASY)


def _adam(param: np.ndarray, grad: np.ndarray, first: np.ndarray, second: np.ndarray,
          step: np.float32, spare: np.ndarray, decay: bool) -> None:
    """One Adam step of ``param`` (weights ``decay``), in place: its moments ``first`` and
    ``second`` updated by ``grad``, worked out in ``spare`` (float32, no new arrays). A
    member takes as many steps on a small deck as on a large one; their arithmetic, each
    array made anew and the step's size in double precision, took 4.3 s of a member's 10.8 s
    on a deck's 71 000 patches here, in place 2.5 s."""
    if decay:
        np.multiply(param, WEIGHT_DECAY, out=spare)
        grad += spare
    first *= 0.9
    np.multiply(grad, 0.1, out=spare)
    first += spare
    second *= 0.999
    np.multiply(grad, grad, out=spare)
    spare *= 0.001
    second += spare
    np.sqrt(second, out=spare)
    spare += 1e-8
    np.divide(first, spare, out=spare)
    spare *= step
    param -= spare


def _gradients(params: list[np.ndarray], x: np.ndarray, targets: np.ndarray,
               weights: np.ndarray | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """The loss's gradients over a batch, its inputs' mean or as ``weights`` weigh them;
    and how surely each input was named its label."""
    w1, b1, w2, b2 = params
    pre = x @ w1 + b1
    hidden = np.maximum(pre, 0.0)
    logits = hidden @ w2 + b2
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    error = odds / odds.sum(axis=1, keepdims=True)
    rows = np.arange(len(targets))
    named = error[rows, targets]  # a copy (fancy indexing), before the error is made of it
    error[rows, targets] -= 1.0
    if weights is None:
        error /= len(targets)
    else:
        error *= (weights / weights.sum())[:, None]
    back = error @ w2.T
    back[pre <= 0] = 0.0
    return [x.T @ back, back.sum(axis=0), hidden.T @ error, error.sum(axis=0)], named


def _pack(array: np.ndarray) -> dict[str, Any]:
    """An array as float16 bytes in base64 (the weights of a deck: about half a megabyte)."""
    data = np.ascontiguousarray(array, dtype="<f2")
    return {"shape": list(array.shape), "data": base64.b64encode(data.tobytes()).decode()}


def _unpack(data: Any) -> np.ndarray:
    shape = tuple(int(v) for v in data["shape"])
    if len(shape) not in (1, 2) or any(v <= 0 or v > 100_000 for v in shape):
        raise ValueError("a weight array of an impossible shape")
    raw = np.frombuffer(base64.b64decode(data["data"], validate=True), dtype="<f2")
    if raw.size != int(np.prod(shape)):
        raise ValueError("a weight array does not hold its shape's numbers")
    return raw.reshape(shape).astype(np.float32)
