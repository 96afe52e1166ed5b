"""Benchmarks of the grid geometry: 40 creatures on a 40x40 map, threat maps and attacks of opportunity."""
from __future__ import annotations

import pathlib
import sys

import pytest

pytest.importorskip("pytest_benchmark")

if "fray" not in sys.modules:  # until a shared conftest puts py/ on the path
    _PY = str(pathlib.Path(__file__).resolve().parents[2] / "py")
    if _PY not in sys.path:
        sys.path.insert(0, _PY)

from fray.engine import geometry as geo  # noqa: E402
from fray.engine import paths as walks  # noqa: E402
from fray.engine.geometry import Body, Grid  # noqa: E402

SIDES = ("a", "b", "c", "d")  # four mutually hostile sides of ten: more threat maps than a usual fight


def hostile(x: str, y: str) -> bool:
    return x != y


def _setup() -> tuple[Grid, list[Body], list[list[tuple[int, int]]]]:
    """A fixed layout (no randomness): two wall segments, 40 bodies with mixed reach, a 20-square path each."""
    walls = frozenset({(20, y) for y in range(5, 30)} | {(x, 12) for x in range(5, 18)})
    grid = Grid(40, 40, walls)
    bodies, paths = [], []
    for i in range(40):
        x, y = 1 + (i * 7) % 38, 1 + (i * 11) % 38
        if (x, y) in walls:
            x += 1
        reach = 3 if i == 0 else 2 if i % 4 == 0 else 1
        bodies.append(Body(f"c{i:02d}", SIDES[i % 4], (x, y), reach=reach))
        step = 1 if x < 20 else -1
        paths.append([(x + step * k, min(39, y + k // 3)) for k in range(20)])
    return grid, bodies, paths


def _workload(grid: Grid, bodies: list[Body], paths: list) -> int:
    maps = {side: geo.threat_map(bodies, grid, side, hostile) for side in SIDES}
    return sum(len(walks.provocations(p, b, bodies, hostile, threats=maps[b.side])) for b, p in zip(bodies, paths))


def test_bench_threat_maps_and_provocations_warm(benchmark):
    """The UI's case: threat areas of unmoved creatures come from the cache."""
    grid, bodies, paths = _setup()
    found = benchmark(_workload, grid, bodies, paths)
    assert found > 0


def test_bench_threat_maps_and_provocations_cold(benchmark):
    """Worst case: every creature moved, so every threat area is computed again."""
    grid, bodies, paths = _setup()

    def cold() -> int:
        geo._area.cache_clear()
        return _workload(grid, bodies, paths)

    assert benchmark(cold) > 0


def test_bench_provocations_without_threat_maps_cold(benchmark):
    """Each mover's check computed on its own (`grid=` instead of `threats=`)."""
    grid, bodies, paths = _setup()

    def each() -> int:
        geo._area.cache_clear()
        return sum(len(walks.provocations(p, b, bodies, hostile, grid=grid)) for b, p in zip(bodies, paths))

    assert benchmark(each) > 0


def test_bench_shortest_path_across_the_map(benchmark):
    """One path preview corner to corner around both walls, with every creature in place."""
    grid, bodies, _ = _setup()
    mover = Body("m", "a", (0, 39))
    path = benchmark(walks.shortest_path, grid, (0, 39), (39, 0), mover, bodies, hostile)
    assert path is not None and path[-1] == (39, 0)
