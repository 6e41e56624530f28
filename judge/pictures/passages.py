"""Borders the cells cannot show as a shared edge: the board's passages across water (Denmark to
Sweden, Naples to Sicily) and between seas across land (a canal through Kiel). Each is drawn as a
short dashed line joining the two cells where they come closest."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..engine.variant import Variant


@dataclass(frozen=True)
class Passage:
    a: str
    b: str
    start: tuple[float, float]  # pixel of a's cell nearest b's, at the cell grid's width
    end: tuple[float, float]
    by_sea: bool                # between two seas (else between two land provinces, or land and sea)


def touching_pairs(grid: np.ndarray) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()
    for a, b in ((grid[:, :-1], grid[:, 1:]), (grid[:-1, :], grid[1:, :])):
        differ = a != b
        # each pair as one number: the smaller label above the larger's 16 bits (a grid's labels fit in 16)
        codes = np.unique(np.minimum(a[differ], b[differ]).astype(np.int64) << 16 | np.maximum(a[differ], b[differ]))
        pairs |= {(int(c) >> 16, int(c) & 0xFFFF) for c in codes}
    return pairs


def _edge_pixels(grid: np.ndarray) -> dict[int, np.ndarray]:
    """label -> (n, 2) x, y of its cell's pixels that have a neighbour (of four, inside the grid) in
    another cell, in row order: every cell's at once, in one pass over the grid (Imperial has 220
    passages, and a pass per cell cost seconds)."""
    border = np.zeros(grid.shape, dtype=bool)
    border[1:, :] |= grid[1:, :] != grid[:-1, :]
    border[:-1, :] |= grid[:-1, :] != grid[1:, :]
    border[:, 1:] |= grid[:, 1:] != grid[:, :-1]
    border[:, :-1] |= grid[:, :-1] != grid[:, 1:]
    ys, xs = np.nonzero(border)
    labels = grid[ys, xs]
    by_label = np.argsort(labels, kind="stable")          # (stable: each cell's pixels stay in row order)
    found, starts = np.unique(labels[by_label], return_index=True)
    points = np.stack([xs[by_label], ys[by_label]], axis=1).astype(np.float64) + 0.5
    return {int(lab): part for lab, part in zip(found, np.split(points, starts[1:]), strict=True)}


def _closest(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pair of points, one of `a` and one of `b`, nearest each other. `a` is taken in chunks of
    rows (its points are in row order, so a chunk is a band of the cell), nearest band first, and a
    band whose box is farther from every point of `b` than the best pair found is skipped: Pure's
    round islands and long lanes have thousands of border pixels each."""
    best, first, pair = np.inf, len(a), (a[0], b[0])
    chunks = [a[start:start + 512] for start in range(0, len(a), 512)]
    bounds = []
    for chunk in chunks:    # each chunk's box: how near any point of b comes to it
        low, high = chunk.min(axis=0), chunk.max(axis=0)
        outside = np.maximum(np.maximum(low - b, b - high), 0.0)
        bounds.append(float((outside ** 2).sum(axis=1).min()))
    for i in np.argsort(bounds, kind="stable"):
        if bounds[i] > best:
            break
        chunk = chunks[i]
        d = ((chunk[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
        j = int(d.argmin())
        if d.flat[j] < best or (d.flat[j] == best and i < first):    # a tie goes to the earlier row, as before
            best, first, pair = d.flat[j], i, (chunk[j // d.shape[1]], b[j % d.shape[1]])
    return pair


def find_passages(variant: Variant, grid: np.ndarray, order: tuple[str, ...]) -> tuple[Passage, ...]:
    board = variant.board
    label = {p: i + 1 for i, p in enumerate(order)}
    touching = touching_pairs(grid)
    edges: dict[int, np.ndarray] | None = None      # worked out at the first passage: most boards have few
    out = []
    for a in order:
        for b in sorted(board.neighbours(a)):
            if a < b and (min(label[a], label[b]), max(label[a], label[b])) not in touching:
                edges = _edge_pixels(grid) if edges is None else edges
                start, end = _closest(edges[label[a]], edges[label[b]])
                out.append(Passage(a, b, (float(start[0]), float(start[1])), (float(end[0]), float(end[1])),
                                   board.provinces[a].is_sea and board.provinces[b].is_sea))
    return tuple(out)


def far_ends(passages: Sequence[Passage], reach: float) -> dict[str, tuple[str, ...]]:
    """The passages longer than `reach` (grid pixels: Youngstown's oceans joined round the world), not
    drawn across the board but named at both ends: each such province's other ends, in passage order
    (its notes' rows under its name, which the name's place keeps room for)."""
    out: dict[str, list[str]] = {}
    for p in passages:
        if math.dist(p.start, p.end) > reach:
            out.setdefault(p.a, []).append(p.b)
            out.setdefault(p.b, []).append(p.a)
    return {province: tuple(others) for province, others in out.items()}
