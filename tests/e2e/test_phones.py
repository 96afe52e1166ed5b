"""The players' phones (issue 54, docs/PHONES.md): the referee's page and two phones (390 px, touch) in one
Chromium, paired peer to peer by the text fallback over the local network. The phones show the table
display's public view live, and nothing it hides (in their DOM and in every message they receive); a phone
proposes its PC's action and enters the faces of its attack; hostile messages (malformed, oversized, a
flood, faces for another PC, a replayed join code) are refused with a warning, and the encounter stays
as it was. No request leaves the local server: no STUN server is asked."""
from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
from dataclasses import replace

import pytest
from harness import Guard, new_context, wait_ready, watch
from helpers import log_text, option, select, show
from phones_kit import NOTE, fight_at_a_pc_attack, fight_link
from playwright.sync_api import expect


ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"
# Every message a phone's data channel receives, kept for the secrets check.
RECORD = """(() => {
  const d = Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, 'onmessage');
  Object.defineProperty(RTCDataChannel.prototype, 'onmessage', {
    get() { return d.get.call(this); },
    set(fn) { d.set.call(this, (e) => { (window.__got = window.__got || []).push(String(e.data)); fn(e); }); },
  });
})();"""


W, H = 640, 480  # the fake camera's frame


def y4m(modules: list[str]) -> bytes:
    """One grey-scale YUV4MPEG2 frame of a QR code (rows of "1" dark, "0" light), white around it: what the
    fake camera shows (Chromium loops the file)."""
    n = len(modules)
    cell = min(W, H) // (n + 8)
    y = bytearray(b"\xff" * (W * H))
    x0, y0 = (W - n * cell) // 2, (H - n * cell) // 2
    for r, row in enumerate(modules):
        for c, dark in enumerate(row):
            if dark == "1":
                for dy in range(cell):
                    at = (y0 + r * cell + dy) * W + x0 + c * cell
                    y[at:at + cell] = b"\x00" * cell
    chroma = b"\x80" * (W * H // 2)
    return f"YUV4MPEG2 W{W} H{H} F10:1 Ip A1:1 C420jpeg\n".encode() + b"FRAME\n" + bytes(y) + chroma


def qr_modules(text: str) -> list[str]:
    """The QR code of `text` as the phone draws it (the pinned qrcode-generator, under Node)."""
    lib = json.dumps((ROOT / "static" / "vendor" / "qrcode" / "qrcode.mjs").as_uri())
    script = (f"import qrcode from {lib}; const q = qrcode(0, 'M'); q.addData(process.argv[1], 'Byte'); q.make();"
              "const n = q.getModuleCount(), rows = [];"
              "for (let r = 0; r < n; r++) { let s = ''; for (let c = 0; c < n; c++) s += q.isDark(r, c) ? '1' : '0';"
              " rows.push(s); } console.log(JSON.stringify(rows));")
    out = subprocess.run([shutil.which("node"), "--input-type=module", "-e", script, text], capture_output=True,
                         text=True, timeout=60, check=True)
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def camera(tmp_path_factory):
    """The file the fake camera plays: blank until a test writes a QR code into it."""
    path = tmp_path_factory.mktemp("camera") / "phone-code.y4m"
    path.write_bytes(y4m(["0"]))
    return path


@pytest.fixture(scope="module")
def rtc_browser(playwright, browser_type_launch_args, camera):
    """A Chromium of its own whose host candidates are the machine's own addresses, not mDNS names (two
    pages of one machine then connect with no multicast query sent on the network), with a fake camera
    fed from a file."""
    args = browser_type_launch_args["args"] + [
        "--disable-features=WebRtcHideLocalIpsWithMdns", "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={camera}"]
    b = playwright.chromium.launch(**{**browser_type_launch_args, "args": args})
    yield b
    b.close()


@pytest.fixture
def table(rtc_browser, base_url_local):
    """The referee's page (1280 px) and a maker of phones (390 px, touch), each in its own context."""
    guard = Guard(base_url_local)
    contexts = []

    def context(device: str):
        ctx = new_context(rtc_browser, base_url_local, device, guard)
        contexts.append(ctx)
        return ctx

    ref_context = context("desktop")
    ref_context.grant_permissions(["camera"])
    ref = watch(ref_context.new_page(), guard)
    ref.goto(base_url_local + "#" + fight_link())
    wait_ready(ref)

    def phone(url: str):
        ctx = context("phone")
        ctx.add_init_script(RECORD)
        page = watch(ctx.new_page(), guard)
        page.goto(url)
        return page

    yield ref, phone, guard
    for ctx in contexts:
        ctx.close()
    guard.check()


def offer_link(ref, old: str = "") -> str:
    box = ref.get_by_test_id("phones-offer")
    expect(box).to_have_value(re.compile(r"phone\.html#[A-Za-z0-9_-]{60,}"), timeout=15_000)
    if old:
        expect(box).not_to_have_value(old, timeout=15_000)
    return box.input_value()


def pair(ref, phone_page, n: int) -> str:
    """Paste a phone's answer into the referee's dialog: the phone is listed, connected, and shows the fight."""
    answer = phone_page.get_by_test_id("phone-answer")
    expect(answer).to_have_value(re.compile(r"^[A-Za-z0-9_-]{60,}$"), timeout=15_000)
    code = answer.input_value()
    ref.get_by_test_id("phones-answer").fill(code)
    ref.get_by_test_id("phones-connect").click()
    row = ref.get_by_test_id("phones-row").nth(n - 1)
    expect(row.get_by_test_id("phones-status")).to_have_text("connected", timeout=15_000)
    expect(phone_page.get_by_test_id("table-view")).to_be_visible(timeout=10_000)
    return code


def enter_faces(page, most: int, shot: str = "") -> list[str]:
    """Answer each die the phone is asked for (up to `most`), one short of its highest face (15 on a d20):
    what each ask said, in order."""
    asked = []
    for _ in range(most):
        form = page.get_by_test_id("phone-ask")
        try:
            form.wait_for(state="visible", timeout=4000)
        except Exception:
            break
        words = form.locator("label").inner_text()
        asked.append(words)
        sides = int(form.get_attribute("data-sides"))
        for face in form.get_by_test_id("phone-face").all():
            face.fill(str(min(15, max(1, sides - 1))))
        if shot:
            page.screenshot(path=str(SHOTS / shot), full_page=True)
        form.get_by_test_id("phone-send-faces").tap()
        expect(page.get_by_test_id("phone-ask").filter(has_text=words)).to_have_count(0, timeout=8000)
    return asked


def test_two_phones_pair_by_text_follow_the_fight_and_act_for_their_own_pc(table):
    ref, phone, guard = table
    ref.get_by_test_id("phones-open").click()
    expect(ref.get_by_test_id("phones-dialog")).to_be_visible()
    first = offer_link(ref)
    assert len(first.split("#")[1]) <= 160
    p1 = phone(first)
    code1 = pair(ref, p1, 1)
    second = offer_link(ref, first)
    p2 = phone(second)
    pair(ref, p2, 2)

    # Each phone shows its own PC (the first free one), the table display's public view, live.
    expect(p1.get_by_test_id("phone-pc")).to_have_text("Brak")
    expect(p2.get_by_test_id("phone-pc")).to_have_text("Mira")
    expect(p1.get_by_test_id("phone-turn")).to_have_text("Your turn")
    expect(p2.get_by_test_id("phone-turn")).to_have_count(0)
    expect(p1.get_by_test_id("phone-hp")).to_have_text("HP 12/12")
    ref.screenshot(path=str(SHOTS / "phones-referee-dialog-1280.png"))

    # A replayed join code cannot join again.
    ref.get_by_test_id("phones-answer").fill(code1)
    ref.get_by_test_id("phones-connect").click()
    expect(ref.get_by_test_id("phones-problem")).to_contain_text("has been used")
    expect(ref.get_by_test_id("phones-row")).to_have_count(2)
    ref.get_by_test_id("phones-close").click()

    # Players roll theirs: Brak's player proposes the attack on the phone; one tap applies it on the referee's
    # page, and the phone is asked for each die of it and enters the faces.
    show(ref, "order")
    ref.get_by_test_id("dice-players").check()
    p1.screenshot(path=str(SHOTS / "phones-phone-olog-390.png"), full_page=True)
    p1.get_by_test_id("phone-option").filter(has_text="Attack Orc 1 with Sword").tap()
    expect(ref.get_by_test_id("phone-proposal")).to_contain_text("Brak's player proposes: Attack Orc 1 with Sword")
    ref.screenshot(path=str(SHOTS / "phones-referee-proposal-1280.png"))
    before = log_text(ref)
    ref.get_by_test_id("phone-apply").click()
    asked = enter_faces(p1, 4, shot="phones-phone-asked-390.png")
    assert asked and re.search(r"d20.*Orc 1", asked[0]), asked
    expect(ref.locator("#log-slot")).not_to_have_text(before)
    assert "Brak" in log_text(ref) and "Orc 1" in log_text(ref)
    # The phones follow: Brak's attack is in the players' log on both.
    for p in (p1, p2):
        expect(p.get_by_test_id("table-log")).to_contain_text("Brak", timeout=8000)

    # Hostile messages from Mira's phone: refused with a warning, the encounter unchanged, undo still works.
    steps_before = log_text(ref)
    undo_enabled = ref.get_by_test_id("undo").is_enabled()
    hostile = ["not json", "x" * 5000, json.dumps({"fray": "phone", "v": 1, "type": "undo"}),
               json.dumps({"fray": "phone", "v": 1, "type": "faces", "ask": 1, "faces": [20], "pc": "brak"}),
               json.dumps({"fray": "phone", "v": 1, "type": "propose", "option": 0, "label": "End turn", "pc": "orc1"})]
    for text in hostile:
        p2.evaluate("t => window.frayPhone.sendRaw(t)", text)
    p2.evaluate("() => { for (let i = 0; i < 40; i++) window.frayPhone.sendRaw("
                "JSON.stringify({fray: 'phone', v: 1, type: 'hello'})); }")
    expect(ref.get_by_test_id("notice-error")).to_contain_text("refused", timeout=8000)
    ref.get_by_test_id("phones-open").click()
    warnings = ref.get_by_test_id("phones-warnings")
    for why in ("not JSON", "over 1024 bytes", "unknown type", "not for this phone's PC", "too many messages"):
        expect(warnings).to_contain_text(why)
    assert log_text(ref) == steps_before and ref.get_by_test_id("undo").is_enabled() == undo_enabled
    expect(p2.get_by_test_id("phone-note")).to_contain_text("refused")
    ref.get_by_test_id("phones-close").click()

    # Nothing secret on a phone: no monster HP figure, no note, in its DOM or any message it received.
    for p in (p1, p2):
        got = "\n".join(p.evaluate("() => window.__got || []"))
        dom = p.content()
        assert got and "Orc 1" in got
        for text in (dom, got):
            assert NOTE not in text
            assert not re.search(r"\b\d+/(?:6|7|8)\b", text.replace("12/12", ""))  # orcs' HP as figures
    # A combatant the referee hides is gone from every phone at once, in its DOM and its messages.
    select(ref, "orc2")
    ref.get_by_test_id("hide-toggle").click()
    for p in (p1, p2):
        expect(p.get_by_test_id("table-view")).not_to_contain_text("Orc 2", timeout=8000)
        assert "Orc 2" not in p.content() and "Orc 2" not in p.evaluate("() => window.__got.at(-1)")
    ref.get_by_test_id("undo").click()
    for p in (p1, p2):
        expect(p.get_by_test_id("table-view")).to_contain_text("Orc 2", timeout=8000)


def test_a_phone_pairs_by_the_camera_and_gets_back_in_after_a_reload_with_a_new_code(table, camera):
    """The referee's camera reads the phone's QR code (a fake camera fed from a file showing it, read by the
    pinned jsQR where there is no BarcodeDetector); the phone reloads and is out, and says whose it was and
    what to do; one tap on "Mira's phone is back? New code" in the referee's list and the phone, opened at
    the new code, is back with its PC."""
    ref, phone, guard = table
    ref.get_by_test_id("phones-open").click()
    p1 = phone(offer_link(ref))
    answer = p1.get_by_test_id("phone-answer")
    expect(answer).to_have_value(re.compile(r"^[A-Za-z0-9_-]{60,}$"), timeout=15_000)
    camera.write_bytes(y4m(qr_modules(answer.input_value())))
    ref.get_by_test_id("phones-scan").click()
    row = ref.get_by_test_id("phones-row")
    expect(row.get_by_test_id("phones-status")).to_have_text("connected", timeout=20_000)
    expect(ref.get_by_test_id("phones-camera")).to_have_count(0)  # the camera stops once it has read a code
    expect(p1.get_by_test_id("phone-pc")).to_have_text("Brak", timeout=10_000)

    # Mira for this phone: the referee picks its PC in the list.
    row.get_by_test_id("phones-pc").select_option("mira")
    expect(p1.get_by_test_id("phone-pc")).to_have_text("Mira", timeout=10_000)

    # A reload: the old code cannot join again (WebRTC needs a new offer); the phone remembers whose it was and
    # says what to do, and the referee's list offers the new code in one tap, named for its PC.
    p1.reload()
    expect(row.get_by_test_id("phones-status")).to_contain_text("gone", timeout=15_000)
    expect(p1.get_by_test_id("phone-status")).to_contain_text("This phone was Mira's; the page reloaded")
    expect(p1.get_by_test_id("phone-status")).to_contain_text("\"Mira's phone is back? New code\"")
    expect(p1.get_by_test_id("phone-answer")).to_be_hidden()
    p1.screenshot(path=str(SHOTS / "phones-phone-back-390.png"))
    old = ref.get_by_test_id("phones-offer").input_value()
    row.get_by_test_id("phones-again").filter(has_text="Mira's phone is back? New code").click()
    expect(row.get_by_test_id("phones-again")).to_have_text("New code")
    p1.goto(offer_link(ref, old))
    pair(ref, p1, 1)
    expect(ref.get_by_test_id("phones-row")).to_have_count(1)
    expect(p1.get_by_test_id("phone-pc")).to_have_text("Mira")


@pytest.fixture(scope="module")
def firefox():
    """Debian's Firefox ESR, driven over WebDriver BiDi (tests/xbrowser/drivers.py), with host candidates
    shown as the machine's addresses (no mDNS names, so no multicast query is sent)."""
    sys.path.insert(0, str(ROOT / "tests" / "xbrowser"))
    import drivers
    why = drivers.missing("firefox")
    if why:
        if os.environ.get("FRAY_REQUIRE_BROWSERS") == "1":
            pytest.fail(f"{why}; FRAY_REQUIRE_BROWSERS=1 asks for every engine")
        pytest.skip(why)
    saved = dict(drivers.FIREFOX_PREFS)
    drivers.FIREFOX_PREFS["media.peerconnection.ice.obfuscate_host_addresses"] = False
    try:
        engine = drivers.FirefoxEngine(drivers.executable("firefox"))
    finally:
        drivers.FIREFOX_PREFS.clear()
        drivers.FIREFOX_PREFS.update(saved)
    yield engine
    engine.close()


def test_firefox_as_a_phone_joins_follows_and_proposes(table, firefox, base_url_local):
    """Cross-engine: Firefox answers Chromium's offer, shows its PC and the fight, and its proposal reaches
    the referee's page."""
    ref, phone, guard = table
    foreign_phone(ref, firefox.new_page(base_url_local, 390, 844, touch=True))


def foreign_phone(ref, page) -> None:
    """Another engine's page (tests/xbrowser/drivers.py) as a phone: it answers Chromium's offer, shows its PC and
    the fight, and its proposal reaches the referee's page; no request leaves the local server."""
    ref.get_by_test_id("phones-open").click()
    try:
        page.goto(offer_link(ref))
        code = page.wait("() => { const a = document.querySelector('[data-testid=phone-answer]');"
                         " return a && a.value.length > 60 && a.value; }", timeout=20, what="the phone's answer")
        ref.get_by_test_id("phones-answer").fill(code)
        ref.get_by_test_id("phones-connect").click()
        expect(ref.get_by_test_id("phones-status")).to_have_text("connected", timeout=20_000)
        page.wait("() => document.querySelector('[data-testid=phone-pc]')?.textContent === 'Brak'", timeout=15,
                  what="its PC shown")
        assert page.js("() => !!document.querySelector('[data-testid=table-view]')")
        page.js("() => [...document.querySelectorAll('[data-testid=phone-option]')]"
                ".find(b => b.dataset.label === 'End turn').click()")
        expect(ref.get_by_test_id("phone-proposal")).to_contain_text("Brak's player proposes: End turn")
        assert not page.native_errors, page.native_errors
        assert not page.outside, f"requests left the local server: {page.outside}"
    finally:
        page.close()


RTC_KIND = "() => typeof RTCPeerConnection"


@pytest.fixture(scope="module")
def webkit():
    """WebKit as a phone, where this machine has one with WebRTC: Playwright's own WebKit build, else Debian's
    WebKitGTK (MiniBrowser through WebKitWebDriver, WebRTC asked for with --enable-webrtc=true). Each is
    probed for `RTCPeerConnection`; the test skips saying what each lacks."""
    sys.path.insert(0, str(ROOT / "tests" / "xbrowser"))
    import drivers
    from selenium.webdriver.webkitgtk import options
    evidence = []
    pw_webkit = pathlib.Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", pathlib.Path.home() / ".cache" /
                                            "ms-playwright"))
    builds = sorted(pw_webkit.glob("webkit-*/pw_run.sh"))
    evidence.append(f"Playwright's WebKit: {builds[0]}" if builds else
                    f"Playwright's WebKit is not installed (no webkit-*/pw_run.sh under {pw_webkit})")
    why = drivers.missing("webkit")
    if why:
        evidence.append(why)
        pytest.skip("; ".join(evidence))
    init = options.Options.__init__

    def with_webrtc(self, *a, **k):
        init(self, *a, **k)
        self.add_argument("--enable-webrtc=true")  # WebKitGTK's setting, off by default

    options.Options.__init__ = with_webrtc
    engine = drivers.WebKitEngine(drivers.executable("webkit"), drivers.minibrowser())
    try:
        yield engine, evidence
    finally:
        options.Options.__init__ = init
        engine.close()


def test_webkit_as_a_phone_where_its_build_has_webrtc(table, webkit, base_url_local):
    """Cross-engine: WebKit as a phone, as Firefox above, when the WebKit here has WebRTC data channels; else a
    skip that says what was found (on this machine: Playwright's WebKit is not installed, and Debian's
    WebKitGTK 2.50 answers typeof RTCPeerConnection with "undefined" even with --enable-webrtc=true: Debian
    builds it without WebRTC)."""
    ref, phone, guard = table
    engine, evidence = webkit
    page = engine.new_page(base_url_local, 1024, 768)
    page.goto(base_url_local + "phone.html")
    kind = page.js(RTC_KIND)
    if kind != "function":
        page.close()
        pytest.skip("; ".join(evidence + [f"{engine.version} (--enable-webrtc=true): typeof RTCPeerConnection is "
                                          f"{kind!r}, so it has no WebRTC data channels to be a phone with"]))
    foreign_phone(ref, page)


def test_players_choices_applied_at_once_when_the_referee_says_so_and_a_bad_stun_server_is_refused(table):
    """The settings: "Apply players' choices at once" turns a phone's proposal into the step, through the same
    checks as a tap; a STUN server that is not one is refused with how to write it (a real one is not tried
    here: it would leave the machine)."""
    ref, phone, guard = table
    ref.get_by_test_id("phones-open").click()
    ref.get_by_test_id("phones-settings").click()
    ref.get_by_test_id("phones-stun").fill("http://example.org")
    ref.get_by_test_id("phones-stun-save").click()
    expect(ref.get_by_test_id("phones-problem")).to_contain_text("not a STUN server: write it as stun:host")
    ref.get_by_test_id("phones-direct").check()
    p1 = phone(offer_link(ref))
    pair(ref, p1, 1)
    ref.get_by_test_id("phones-close").click()
    p1.get_by_test_id("phone-option").filter(has_text="Defend").tap()
    expect(ref.locator("#log-slot")).to_contain_text("Brak defends", timeout=10_000)
    expect(ref.get_by_test_id("phone-proposal")).to_have_count(0)
    expect(p1.get_by_test_id("table-log")).to_contain_text("Brak", timeout=8000)


def paired_at_a_pc_attack(table, base_url_local: str, system: str, example: str):
    """The referee's page at the first moment a PC of the example may propose an attack, the players rolling
    theirs, and a phone paired for that PC: (the phone, the PC's id, the attack's label)."""
    link, pc, label = fight_at_a_pc_attack(system, example)
    p1 = phone_for_a_player(table, base_url_local, link)
    table[0].get_by_test_id("phones-pc").select_option(pc)
    table[0].get_by_test_id("phones-close").click()
    return p1, pc, label


def phone_for_a_player(table, base_url_local: str, link: str):
    """The referee's page at the fight of `link`, the players rolling theirs, and one phone paired: the phone
    (the Phones dialog left open)."""
    ref, phone, guard = table
    ref.goto(base_url_local + "#" + link)
    wait_ready(ref)
    show(ref, "order")
    ref.get_by_test_id("dice-players").check()
    ref.get_by_test_id("phones-open").click()
    p1 = phone(offer_link(ref))
    pair(ref, p1, 1)
    return p1


@pytest.mark.parametrize("system,example,dice", [("ose", "detailed", True), ("ogre", "orc_and_pc", False)])
def test_a_phone_proposes_its_pcs_attack_and_rolls_its_dice_in_each_system(table, base_url_local, system, example,
                                                                           dice):
    """OSE and Ogre (OLOG above): a phone paired for a PC whose attack is offered now proposes it; the referee
    applies it, with the players rolling theirs, and each die of that PC asked is entered on the phone. (An
    Ogre attack is declared now and rolled at its segment, after the monsters' turns: the test below plays
    it on to there.)"""
    ref, phone, guard = table
    p1, pc, label = paired_at_a_pc_attack(table, base_url_local, system, example)
    button = p1.get_by_test_id("phone-option").filter(has_text=label)
    expect(button).to_be_visible(timeout=10_000)
    p1.screenshot(path=str(SHOTS / f"phones-phone-{system}-390.png"), full_page=True)
    before = log_text(ref)
    button.tap()
    ref.get_by_test_id("phone-apply").click()
    asked = enter_faces(p1, 6 if dice else 0)
    expect(ref.locator("#log-slot")).not_to_have_text(before)
    assert bool(asked) == dice, asked
    name = ref.get_by_test_id(f"order-{pc}").locator(".name").first.inner_text()
    expect(p1.get_by_test_id("table-log")).to_contain_text(name, timeout=8000)


def test_no_connection_is_said_within_10_s_with_why_and_the_table_display_offered(table):
    """An answer whose device cannot be reached (its only candidate a loopback port nobody listens on): the
    referee's list says so within 10 s, with the browser's reason, and points to the table display."""
    from fray.pairing import Candidate, from_sdp, pack, unpack
    ref, phone, guard = table
    ref.get_by_test_id("phones-open").click()
    offer = unpack(offer_link(ref).split("#")[1])
    sdp = (ROOT / "tests" / "unit" / "fixtures" / "sdp" / "chromium-answer.sdp").read_text()
    lost = replace(from_sdp(sdp, "answer", offer.token), candidates=(Candidate("127.0.0.2", 9),))
    ref.get_by_test_id("phones-answer").fill(pack(lost))
    t0 = time.monotonic()
    ref.get_by_test_id("phones-connect").click()
    expect(ref.get_by_test_id("phones-status")).to_contain_text("no connection within 10 s", timeout=14_000)
    assert time.monotonic() - t0 < 12.5
    expect(ref.get_by_test_id("notice-error")).to_contain_text("The table display works without a network")


def test_the_player_picks_the_pc_from_the_partys_list_on_the_phone_once(table):
    """Issue point 3: the phone lists the party's PCs no other phone has; a tap claims one, once; the referee's
    list shows it and can still override; "no PC yet" there lets the player pick again."""
    ref, phone, guard = table
    ref.get_by_test_id("phones-open").click()
    p1 = phone(offer_link(ref))
    pair(ref, p1, 1)
    expect(p1.get_by_test_id("phone-pc")).to_have_text("Brak")
    claims = p1.get_by_test_id("phone-claim")
    expect(claims).to_have_text(["Mira"])  # its own PC left out, the orcs are not the party
    p1.screenshot(path=str(SHOTS / "phones-phone-pick-390.png"))
    claims.first.tap()
    expect(p1.get_by_test_id("phone-pc")).to_have_text("Mira", timeout=8000)
    select = ref.get_by_test_id("phones-pc")
    expect(select).to_have_value("mira")
    expect(p1.get_by_test_id("phone-party")).to_have_count(0)
    # Once per pick: a second claim is refused, with a warning for the referee.
    p1.evaluate("t => window.frayPhone.sendRaw(t)", json.dumps({"fray": "phone", "v": 1, "type": "claim", "pc": "brak"}))
    expect(ref.get_by_test_id("phones-warnings")).to_contain_text("second pick", timeout=8000)
    expect(select).to_have_value("mira")
    # The referee overrides, then lets the player pick again.
    select.select_option("brak")
    expect(p1.get_by_test_id("phone-pc")).to_have_text("Brak", timeout=8000)
    expect(p1.get_by_test_id("phone-party")).to_have_count(0)
    select.select_option("")
    expect(p1.get_by_test_id("phone-claim")).to_have_text(["Brak", "Mira"], timeout=8000)
    expect(p1.get_by_test_id("phone-me")).to_have_count(0)
    # Dropped by the referee: the phone says so, and the channel's close after it does not say otherwise.
    ref.get_by_test_id("phones-drop").click()
    expect(p1.get_by_test_id("phone-status")).to_contain_text("The referee dropped this phone", timeout=8000)
    p1.wait_for_timeout(1500)
    expect(p1.get_by_test_id("phone-status")).to_contain_text("The referee dropped this phone")


def test_an_ogre_phone_declares_its_attack_and_rolls_it_when_its_segment_comes(table, base_url_local):
    """Ogre's round from a phone: Brak's player proposes the attack, the referee applies it (declared now); the
    orc declares on the referee's page; the count goes on by itself to the attack's segment, where the phone
    (not the referee) is asked for the d20 and the damage, and the faces it sends are the ones logged."""
    ref, phone, guard = table
    p1, pc, label = paired_at_a_pc_attack(table, base_url_local, "ogre", "orc_and_pc")
    p1.get_by_test_id("phone-option").filter(has_text=label).tap()
    ref.get_by_test_id("phone-apply").click()
    expect(ref.locator("#log-slot")).to_contain_text("declares Attack Orc", timeout=8000)
    expect(p1.get_by_test_id("phone-ask")).to_have_count(0)
    option(ref, "Attack Brak").click()  # the orc's declaration, the referee's; its dice are the app's
    asked = enter_faces(p1, 4, shot="phones-phone-ogre-asked-390.png")
    assert asked and re.search(r"d20.*Brak", asked[0]), asked
    expect(ref.get_by_test_id("dice-entry")).to_have_count(0)
    log = log_text(ref)
    assert "Brak's attack on Orc with Sword: d20 [15]" in log and "Brak deals 7: d8 [7]" in log, log
    expect(p1.get_by_test_id("table-log")).to_contain_text("Brak hits Orc", timeout=8000)  # no dice for players


def test_an_ose_phone_declares_its_spell_and_rolls_the_partys_initiative(table, base_url_local):
    """OSE's round from a phone: at the round's start Mira's player declares Sleep on the phone, then proposes
    rolling initiative; with the players rolling theirs the party's d12 is asked on the phone (the orcs' is the
    app's), and the face sent is the one logged."""
    from fray.engine import storage
    from fray.engine.session import Session
    from fray.rules import examples, get
    ref, phone, guard = table
    p1 = phone_for_a_player(table, base_url_local,
                            storage.encode_link(Session(examples("ose")["detailed"](1), get("ose"))))
    p1.get_by_test_id("phone-claim").filter(has_text="Mira").tap()  # the player picks Mira on the phone
    expect(p1.get_by_test_id("phone-pc")).to_have_text("Mira", timeout=8000)
    ref.get_by_test_id("phones-close").click()
    options = p1.get_by_test_id("phone-option")
    expect(options.filter(has_text="surprised")).to_have_count(0)  # the referee's call, not offered to a phone
    options.filter(has_text="Cast Sleep (asleep for 10 min)").tap()
    ref.get_by_test_id("phone-apply").click()
    expect(ref.locator("#log-slot")).to_contain_text("Mira declares to cast Sleep (asleep for 10 min)", timeout=8000)
    options.filter(has_text="Roll initiative").tap()
    ref.get_by_test_id("phone-apply").click()
    asked = enter_faces(p1, 2)
    assert asked == ["Roll d12 Party initiative"], asked
    expect(ref.locator("#log-slot")).to_contain_text("Initiative: Party 11", timeout=8000)
    expect(p1.get_by_test_id("table-view")).to_contain_text("Mira", timeout=8000)
