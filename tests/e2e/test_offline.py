"""Offline and installable: after one visit the page starts with every request
blocked and the autosaved encounter comes back; a repeat visit downloads no
runtime; a new deploy's version replaces the old cache; the manifest and its
icons are what an install needs.

These tests run their own local server (tools/server.py) to read its byte log.
"""
from __future__ import annotations

import json
import pathlib
import re
import struct
import time

import pytest
from harness import Guard, new_context, wait_ready, watch
from helpers import damage, hp_text
from playwright.sync_api import expect

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site():
    """A local server of the repo root with its own byte log."""
    import offline
    import server
    import setup

    setup.setup_vendor()
    setup.build_app()
    offline.write_sw_assets()
    srv = server.start()
    yield srv, f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()


@pytest.fixture
def visit(browser, site):
    """A desktop browser context that has visited the app once, with the service
    worker installed and controlling the page."""
    srv, base = site
    guard = Guard(base)
    ctx = new_context(browser, base, "desktop", guard)
    page = watch(ctx.new_page(), guard)
    page.goto(base)
    wait_ready(page)
    assert page.evaluate("window.frayBoot.serviceWorker.then(r => r && r.active.state)") == "activated"
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    ctx.guard = guard
    yield srv, base, ctx, page
    ctx.close()
    guard.check()


def sent_after(srv) -> list[tuple[str, int]]:
    time.sleep(0.3)  # the server logs a response after its last byte
    return [(path, n) for path, n, _ in srv.take_sent()]


def listed_files() -> list[str]:
    text = (ROOT / "static" / "build" / "sw-assets.js").read_text()
    return json.loads(re.search(r"self\.FRAY_ASSETS = (\{.*\});", text, re.S).group(1))["files"]


def test_after_one_visit_the_app_starts_offline_with_the_autosaved_encounter(visit):
    srv, base, ctx, page = visit
    damage(page, "orc-1", 4)
    assert hp_text(page, "orc-1") == "2/6"
    ctx.set_offline(True)
    blocked = []
    ctx.route("**/*", lambda route: (blocked.append(route.request.url), route.abort()))
    srv.take_sent()
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("app")).to_be_visible()
    assert hp_text(page, "orc-1") == "2/6"
    assert sent_after(srv) == []
    # Only the browser's own update check of the service worker may try the network.
    assert all(re.search(r"/sw\.js|/sw-assets\.js", u) for u in blocked), blocked


def test_a_repeat_visit_downloads_no_runtime_and_a_share_link_opens_offline(visit):
    srv, base, ctx, page = visit
    srv.take_sent()
    second = watch(ctx.new_page(), ctx.guard)
    second.goto(base + "?from=home-screen")
    wait_ready(second)
    runtime = [(p, n) for p, n in sent_after(srv) if not re.search(r"/sw\.js|/sw-assets\.js", p)]
    assert runtime == [], f"a warm visit fetched {runtime}"
    # A share link (#e=...) is the cached page too.
    link = second.evaluate("""async () => {
      document.querySelector('[data-testid=share]').click();
      await new Promise(r => setTimeout(r, 50));
      return document.querySelector('[data-testid=share-url]').value; }""")
    second.close()
    ctx.set_offline(True)
    third = watch(ctx.new_page(), ctx.guard)
    third.goto(link)
    wait_ready(third)
    expect(third.get_by_test_id("notice-ok")).to_contain_text("Opened the shared encounter")


def test_every_file_the_page_loads_is_in_the_service_workers_list(browser, site):
    srv, base = site
    guard = Guard(base)
    ctx = new_context(browser, base, "desktop", guard, service_workers="block")
    page = watch(ctx.new_page(), guard)
    srv.take_sent()
    page.goto(base)
    wait_ready(page)
    fetched = {p.split("?")[0].lstrip("/") or "./" for p, _ in sent_after(srv)}
    ctx.close()
    guard.check()
    missing = fetched - set(listed_files()) - {"sw.js", "static/build/sw-assets.js", "favicon.ico"}
    assert not missing, f"the page loads {sorted(missing)}, which the service worker does not keep"


def test_a_new_version_replaces_the_old_cache(visit):
    srv, base, ctx, page = visit
    old = page.evaluate("caches.keys()")
    assert len(old) == 1 and old[0].startswith("fray-")
    real = (ROOT / "static" / "build" / "sw-assets.js").read_text()
    deployed = re.sub(r'"version": "\w+"', '"version": "0123456789abcdef"', real)
    # A deploy: the service worker's file list now carries another version.
    ctx.route(re.compile(r".*/static/build/sw-assets\.js.*"),
              lambda route: route.fulfill(status=200, body=deployed, content_type="text/javascript"))
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_function("caches.keys().then(k => k.length === 1 && k[0] === 'fray-0123456789abcdef')",
                           polling=200, timeout=60_000)
    page.reload()
    wait_ready(page)


# --- installable ----------------------------------------------------------------------------------

def png_size(path: pathlib.Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_the_app_installable():
    doc = json.loads((ROOT / "manifest.webmanifest").read_text())
    assert doc["name"] and doc["short_name"] == "Fray"
    assert doc["start_url"] == "./" and doc["display"] == "standalone"
    assert doc["theme_color"] and doc["background_color"]
    sizes = {}
    for icon in doc["icons"]:
        path = ROOT / icon["src"]
        assert path.exists(), icon["src"]
        if icon["type"] == "image/png":
            w, h = png_size(path)
            assert icon["sizes"] == f"{w}x{h}", icon
            sizes.setdefault(icon.get("purpose", "any"), set()).add(w)
    assert {192, 512} <= sizes["any"]
    assert 512 in sizes["maskable"]
    html = (ROOT / "index.html").read_text()
    assert '<link rel="manifest" href="./manifest.webmanifest">' in html
    touch = re.search(r'<link rel="apple-touch-icon" href="\./([^"]+)">', html)
    assert touch and png_size(ROOT / touch.group(1)) == (180, 180)


def test_the_published_site_carries_the_service_worker_and_manifest():
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    copy = next(line for line in workflow.splitlines() if "_site/" in line and line.strip().startswith("cp "))
    for name in ("index.html", "pyscript.toml", "sw.js", "manifest.webmanifest", "py", "static"):
        assert f" {name} " in f" {copy} ", f"pages.yml does not publish {name}"


# --- the start-up snapshot ------------------------------------------------------------------------

SNAPSHOT = "static/build/fray.snapshot"
RANDOM = """async () => {
  const { whenDefined } = await import("./static/vendor/pyscript/core.js");
  return (await whenDefined("py")).interpreter.runPython("import random; random.random()");
}"""

# How many stand-ins for page objects start-up replaced (py/fray/ui/preimport.py): more than none only
# when the page's own modules came in the snapshot, imported before the visit began.
SETTLED = """async () => {
  const { whenDefined } = await import("./static/vendor/pyscript/core.js");
  return (await whenDefined("py")).interpreter.runPython("from fray.ui import preimport; preimport.settled");
}"""

# Where PyScript's own package came from: the app zip's bytecode, or the source its core writes at every start.
PYSCRIPT_ORIGINS = """async () => {
  const { whenDefined } = await import("./static/vendor/pyscript/core.js");
  return JSON.parse((await whenDefined("py")).interpreter.runPython(`
import json, sys
import os
json.dumps(sorted({m.__spec__.origin.rsplit("/pyscript/", 1)[0] for n, m in list(sys.modules.items())
                   if n.split(".")[0] == "pyscript" and getattr(m, "__file__", None)})
           + (["its source written"] if os.path.exists("pyscript") else []))`));
}"""


def open_page(ctx, base: str):
    page = watch(ctx.new_page(), ctx.guard)
    page.goto(base)
    wait_ready(page)
    return page


def snapshot_state(page) -> str:
    return page.evaluate("window.frayBoot.snapshot")


def test_repeat_visits_start_from_a_snapshot_made_on_this_device(visit):
    srv, base, ctx, page = visit
    damage(page, "orc-1", 4)
    # Made a few seconds after the first visit is on screen (that visit started the normal way) ...
    assert snapshot_state(page) == "stored"
    assert page.evaluate("document.documentElement.dataset.snapshot") is None
    # ... so the second visit already starts from it.
    draws = []
    for _ in range(2):
        again = open_page(ctx, base)
        assert again.evaluate("document.documentElement.dataset.snapshot") == "restored"
        # Pyodide runs on the wasm module boot.js began compiling as the page began (issue 36).
        assert again.evaluate("document.documentElement.dataset.wasm") == "early"
        assert snapshot_state(again) == "restored"
        assert hp_text(again, "orc-1") == "2/6"  # the autosave, read by code from the snapshot
        assert again.evaluate(SETTLED) > 20  # the page modules too came in it (issue 36), their page objects settled
        # PyScript's package as the app zip's bytecode, not compiled from the source its core would write at
        # every start (after a restore too, where Pyodide puts the working directory first on sys.path), and
        # that source not written (issue #57).
        assert again.evaluate(PYSCRIPT_ORIGINS) == ["/home/pyodide/fray.zip"]
        draws.append(again.evaluate(RANDOM))
        again.close()
    assert draws[0] != draws[1], "random was not reseeded after restoring the snapshot"
    page.close()  # a second tab on the same encounter would be read-only (ui/desk/tabs.py)
    ctx.set_offline(True)
    offline = open_page(ctx, base)
    assert offline.evaluate("document.documentElement.dataset.snapshot") == "restored"
    damage(offline, "orc-1", 1)  # a tap handled by page modules from the snapshot
    assert hp_text(offline, "orc-1") == "1/6"


def test_a_later_visit_whose_early_wasm_compile_failed_starts_the_normal_way(visit):
    """boot.js compiles Pyodide's wasm as a later visit begins (issue 36); when that compile fails, Pyodide
    fetches and compiles it itself, and the page starts with the autosave and works."""
    srv, base, ctx, page = visit
    damage(page, "orc-1", 4)
    page.close()  # a second tab on the same encounter would be read-only (ui/desk/tabs.py)
    again = watch(ctx.new_page(), ctx.guard)
    again.add_init_script("WebAssembly.compileStreaming = () => Promise.reject(new Error('no early compile'));")
    again.goto(base)
    wait_ready(again)
    assert again.evaluate("document.documentElement.dataset.wasm") == "again"
    assert hp_text(again, "orc-1") == "2/6"
    damage(again, "orc-1", 1)
    assert hp_text(again, "orc-1") == "1/6"


def put_snapshot(page, body: str, build: str) -> None:
    page.evaluate("""async ([url, body, build]) => {
      const name = (await caches.keys()).find((n) => n.startsWith("fray-"));
      await (await caches.open(name)).put(new URL(url, location.href).href,
        new Response(body, { headers: { "X-Fray-Build": build } }));
    }""", [SNAPSHOT, body, build])


def has_snapshot(page) -> bool:
    return page.evaluate("url => caches.match(new URL(url, location.href).href).then(r => !!r)", SNAPSHOT)


def app_build() -> str:
    import zipfile

    with zipfile.ZipFile(ROOT / "static" / "build" / "fray.zip") as z:
        return z.comment.decode()


def test_a_broken_snapshot_is_dropped_and_the_page_starts_the_normal_way(visit):
    srv, base, ctx, page = visit
    put_snapshot(page, "not a memory snapshot", app_build())
    page.close()
    again = open_page(ctx, base)
    assert again.evaluate("document.documentElement.dataset.snapshot") == "failed"
    assert not has_snapshot(again)
    assert snapshot_state(again) == "failed"  # and no new one is made on this device
    expect(again.get_by_test_id("app")).to_be_visible()
    assert again.evaluate("localStorage.getItem('fray.snapshot.off')")


def test_a_snapshot_of_another_build_is_never_restored(visit):
    srv, base, ctx, page = visit
    put_snapshot(page, "made from other files", "0" * 64)
    page.close()
    again = open_page(ctx, base)
    assert again.evaluate("document.documentElement.dataset.snapshot") is None
    assert snapshot_state(again) == "stored"  # dropped, and a right one made for the next visit


# --- a player's phone (docs/PHONES.md) -------------------------------------------------------------

@pytest.fixture(scope="module")
def rtc_browser(playwright, browser_type_launch_args):
    """A Chromium whose WebRTC host candidates are the machine's addresses, not mDNS names: a phone's answer is
    made with no multicast query sent on the network."""
    args = browser_type_launch_args["args"] + ["--disable-features=WebRtcHideLocalIpsWithMdns"]
    b = playwright.chromium.launch(**{**browser_type_launch_args, "args": args})
    yield b
    b.close()


def test_a_phone_that_opened_its_page_once_reloads_it_with_no_network(rtc_browser, site):
    """The phone's page (phone.html, static/phones/, the pinned QR library) is kept by the service worker after
    one visit, without the referee's Python runtime: offline, a reload of the link answers the offer again and
    shows its QR code, with no request reaching the server."""
    from fray.pairing import from_sdp, pack
    srv, base = site
    sdp = (ROOT / "tests" / "unit" / "fixtures" / "sdp" / "chromium-offer.sdp").read_text()
    link = base + "phone.html#" + pack(from_sdp(sdp, "offer", b"\x01\x02\x03\x04"))
    guard = Guard(base)
    ctx = new_context(rtc_browser, base, "phone", guard)
    page = watch(ctx.new_page(), guard)
    page.goto(link)
    expect(page.get_by_test_id("phone-qr").locator("svg")).to_be_visible(timeout=15_000)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)
    cached = page.evaluate("""async () => { const keys = await caches.keys();
      return [keys, (await (await caches.open(keys[0])).keys()).map(r => new URL(r.url).pathname)]; }""")
    assert len(cached[0]) == 1 and cached[0][0].startswith("fray-phone-"), cached
    assert "/phone.html" in cached[1] and "/static/vendor/qrcode/qrcode.mjs" in cached[1], cached
    assert not [p for p in cached[1] if "pyodide" in p or p.endswith(".zip")], "a phone needs no Python runtime"
    answer = page.get_by_test_id("phone-answer").input_value()

    ctx.set_offline(True)
    blocked = []
    ctx.route("**/*", lambda route: (blocked.append(route.request.url), route.abort()))
    srv.take_sent()
    page.reload()
    expect(page.get_by_test_id("phone-qr").locator("svg")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("phone-answer")).not_to_have_value(answer)  # a fresh answer to the same offer
    assert sent_after(srv) == []
    assert all(re.search(r"/sw\.js|/sw-assets\.js", u) for u in blocked), blocked
    ctx.close()
    guard.check()
