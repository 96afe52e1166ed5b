"""Grid taps with a map image (issue #55): input to next paint with a 1000×1000 PNG under the grid.

The page bench's grid selection taps (tests/bench/interaction.py: OSE detailed, the 40-combatant battle,
order rows and field tokens alternating, mouse at 1280×800, Event Timing as ../shared/PERF-NOTES.md says)
on the same encounter twice: without an image, and with a 1000×1000 PNG (flagstones with dark joints, a
dungeon map's look) spanning the map's width, its bytes put in the page's `fray-maps` store before the App
opens, as a referee's earlier visit would have. After a few taps of each not counted, the two run
interleaved (A B B A ...) in one page, so the machine's load falls on both alike; the figure is the
difference (target: no more than one frame, 16.7 ms).
`python tests/bench/page_bench.py --only mapimage [--clicks N]` runs it alone (N taps per case) and prints
both figures; asserts nothing.
"""
from __future__ import annotations

import base64
import struct
import zlib
from dataclasses import replace

SIDE = 1000
DRAWN = "#field-slot [data-testid=map-image]"
WARM_UP = 10  # taps per case before the measured rounds
TRACED = 20  # taps per case in the trace

STOCK_JS = """async ([key, data, mime]) => {
  const bytes = Uint8Array.from(atob(data), c => c.charCodeAt(0));
  const db = await new Promise((done, fail) => {
    const req = indexedDB.open('fray-maps', 1);
    req.onupgradeneeded = () => req.result.createObjectStore('images');
    req.onsuccess = () => done(req.result); req.onerror = () => fail(req.error);
  });
  await new Promise((done, fail) => {
    const tx = db.transaction('images', 'readwrite');
    tx.objectStore('images').put(new Blob([bytes], {type: mime}), key);
    tx.oncomplete = () => done(); tx.onerror = () => fail(tx.error);
  });
  db.close();
}"""


def png(w: int, h: int, cell: int = 33) -> bytes:
    """A real PNG of `w` × `h` pixels: flagstones of `cell` pixels, dark joints."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = bytearray()
    for y in range(h):
        rows.append(0)
        for x in range(w):
            if x % cell == 0 or y % cell == 0:
                rows += b"\x46\x3c\x32"
            else:
                shade = 150 + ((x // cell * 7 + y // cell * 13) % 5) * 12
                rows += bytes((shade, shade - 15, shade - 40))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b""))


def with_image(session, data: bytes):
    """The session's fight with `data` under its grid, spanning the map's width (its steps replayed)."""
    from fray.engine import map_image
    from fray.engine.session import Session

    enc = session.encounter
    image = map_image.check(data)
    image = image.scaled(round(image.width / enc.map.width, 3))
    enc = replace(enc, map=replace(enc.map, image=image))
    return Session.replay(enc, [(st.command, st.dice) for st in session.steps], [], ruleset=session.ruleset)


def map_image_taps(browser, base: str, link, session, clicks: int, rounds: int = 4, log=print) -> dict:
    """Selection taps on the grid without and with the image, `rounds` blocks of each interleaved, `clicks`
    taps in all per case: {"plain": summary, "image": summary, "added_p50_ms", "added_p95_ms", "png_bytes"}."""
    import interaction
    from fray.engine import map_image

    data = png(SIDE, SIDE)
    shown = with_image(session, data)
    key, mime = map_image.check(data).key, "image/png"
    b64 = base64.b64encode(data).decode("ascii")

    def stock(page) -> None:
        page.evaluate(STOCK_JS, [key, b64, mime])

    ix = interaction.Interactions(browser, base, link)
    taps: dict[str, list[float]] = {"plain": [], "image": []}
    handlers: dict[str, list[float]] = {"plain": [], "image": []}
    per = max(1, clicks // rounds)
    try:
        # Warm-up, not counted: the page's first boot, the first taps' code paths, the image's first decode.
        ix.selections(session, WARM_UP)
        ix.selections(shown, WARM_UP, stock=stock, drawn=DRAWN)
        for r in range(rounds):
            for case in (("plain", "image") if r % 2 == 0 else ("image", "plain")):
                if case == "plain":
                    row = ix.selections(session, per)
                else:
                    row = ix.selections(shown, per, stock=stock, drawn=DRAWN)
                taps[case] += interaction.LAST["inp"]
                handlers[case] += interaction.LAST["handler"]
                log(f"  round {r + 1} {case:5}: {interaction.fmt(row)}")
        # Beside them, less moved by the machine's load: where the taps' time goes (ms per tap, a Chrome trace).
        traced = {"plain": ix.trace(session, TRACED), "image": ix.trace(shown, TRACED, stock=stock, drawn=DRAWN)}
    finally:
        ix.close()
    out = {case: interaction.summary(taps[case], handlers[case]) for case in taps}
    for case, row in traced.items():
        out[case]["trace"] = row
        log(f"  trace {case:5}, ms per tap: " + ", ".join(f"{k} {v:.1f}" for k, v in row.items() if k != "clicks"))
    out["added_p50_ms"] = out["image"]["p50"] - out["plain"]["p50"]
    out["added_p95_ms"] = out["image"]["p95"] - out["plain"]["p95"]
    out["png_bytes"] = len(data)
    out["target_added_ms"] = 16.7
    return out


def line(res: dict) -> str:
    p, i = res["plain"], res["image"]
    return (f"grid taps, OSE detailed 40 combatants: p50 {p['p50']:.1f} / p95 {p['p95']:.1f} ms; with a "
            f"{SIDE}×{SIDE} PNG under the grid ({res['png_bytes'] // 1024} KB): p50 {i['p50']:.1f} / p95 "
            f"{i['p95']:.1f} ms; the image adds p50 {res['added_p50_ms']:+.1f} / p95 {res['added_p95_ms']:+.1f} ms "
            f"(target <= {res['target_added_ms']}; {p['n']} and {i['n']} taps); per tap, paint "
            f"{p['trace']['paint']:.1f} -> {i['trace']['paint']:.1f} ms, raster {p['trace']['raster']:.1f} -> "
            f"{i['trace']['raster']:.1f} ms")
