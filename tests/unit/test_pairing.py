"""The pairing codec (fray.pairing): real Chromium and Firefox SDP cut to what a connection needs, packed
short enough for a QR code, rebuilt as an SDP; a damaged or foreign code refused with a sentence."""
from __future__ import annotations

import pathlib

import pytest

from fray import pairing
from fray.pairing import Candidate, PairingError, from_sdp, pack, to_sdp, unpack

SDP = pathlib.Path(__file__).parent / "fixtures" / "sdp"
TOKEN = b"\x01\x02\x03\x04"
FIXTURES = [(b, k) for b in ("chromium", "firefox") for k in ("offer", "answer")]


def real(browser: str, kind: str) -> str:
    return (SDP / f"{browser}-{kind}.sdp").read_text()


@pytest.mark.parametrize("browser,kind", FIXTURES)
def test_a_real_sdp_survives_packing_and_rebuilding(browser, kind):
    p = from_sdp(real(browser, kind), kind, TOKEN)
    code = pack(p)
    assert unpack(code) == p
    rebuilt = to_sdp(unpack(code))
    assert from_sdp(rebuilt, kind, TOKEN) == p  # the rebuilt SDP says the same
    for line in (f"a=ice-ufrag:{p.ufrag}", f"a=ice-pwd:{p.pwd}", f"a=setup:{p.setup}", "webrtc-datachannel"):
        assert line in rebuilt


@pytest.mark.parametrize("browser,kind", FIXTURES)
def test_a_code_is_short_enough_for_a_qr_code_at_arm_length(browser, kind):
    code = pack(from_sdp(real(browser, kind), kind, TOKEN))
    assert len(code) <= 160, len(code)  # a version-8 QR code at level M holds 180 characters of binary
    assert len(code) < len(real(browser, kind)) / 4


def test_chromium_hides_local_addresses_behind_mdns_names_packed_as_16_bytes():
    p = from_sdp(real("chromium", "offer"), "offer", TOKEN)
    assert p.candidates and all(c.address.endswith(".local") for c in p.candidates)
    assert p.setup == "actpass" and p.hash == "sha-256" and len(p.fingerprint) == 32
    sdp = real("chromium", "offer")
    assert all(c.address in sdp for c in p.candidates)
    # one byte of kind, 16 of the UUID, 2 of the port per candidate
    no_cands = pairing.Pairing(**{**p.__dict__, "candidates": p.candidates[:1]})
    assert len(pack(p)) - len(pack(no_cands)) in range(24, 28)


def test_firefox_tcp_candidates_are_dropped_and_its_hex_ice_strings_packed_in_half():
    p = from_sdp(real("firefox", "answer"), "answer", TOKEN)
    assert len(p.candidates) == 2  # the two UDP ones; TCP active candidates (port 9) are of no use
    assert p.setup == "active"
    assert pairing._pack_text(p.pwd)[0] & 0x80 and len(pairing._pack_text(p.pwd)) == 1 + len(p.pwd) // 2


def test_ip_addresses_and_reflexive_candidates_round_trip():
    p = from_sdp(real("chromium", "answer"), "answer", TOKEN)
    cands = (Candidate("192.168.1.20", 50000), Candidate("fe80::1", 1234), Candidate("203.0.113.5", 4000, True))
    q = pairing.Pairing(**{**p.__dict__, "candidates": cands})
    assert unpack(pack(q)) == q
    assert "typ srflx" in to_sdp(q)


@pytest.mark.parametrize("damage", [
    lambda c: c[:-3],                                    # cut short
    lambda c: c[:20] + ("A" if c[20] != "A" else "B") + c[21:],  # one character changed
    lambda c: c + "AAAA",                                # bytes past the end
    lambda c: "",                                        # empty
    lambda c: "<script>alert(1)</script>",               # not base64url
    lambda c: "A" * 2000,                                # far too long
    lambda c: "QUJD",                                    # too short to hold anything
])
def test_a_damaged_code_raises_one_error_with_a_sentence(damage):
    code = pack(from_sdp(real("chromium", "offer"), "offer", TOKEN))
    with pytest.raises(PairingError) as err:
        unpack(damage(code))
    assert len(str(err.value)) > 15


def test_a_code_of_another_version_says_so():
    import base64, struct, zlib
    data = bytearray(base64.urlsafe_b64decode(pack(from_sdp(real("firefox", "offer"), "offer", TOKEN)) + "=="))
    data[0] = (2 << 4) | (data[0] & 15)
    body = bytes(data[:-4])
    code = base64.urlsafe_b64encode(body + struct.pack(">I", zlib.crc32(body))).decode().rstrip("=")
    with pytest.raises(PairingError, match="version 2"):
        unpack(code)


def test_a_code_broken_over_lines_by_a_chat_still_reads():
    code = pack(from_sdp(real("chromium", "answer"), "answer", TOKEN))
    assert unpack(code[:50] + "\n  " + code[50:]) == unpack(code)


@pytest.mark.parametrize("sdp,kind,why", [
    ("v=0\r\n", "offer", "exactly one data channel"),
    (real("chromium", "offer") + "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n", "offer", "exactly one"),
    (real("chromium", "offer").replace("a=ice-pwd", "a=x-pwd"), "offer", "lacks ice-pwd"),
    ("\n".join(ln for ln in real("chromium", "offer").splitlines() if "candidate" not in ln), "offer",
     "no local network"),
    (real("firefox", "offer").replace("sha-256", "md5"), "offer", "fingerprint"),
    (real("firefox", "answer").replace("setup:active", "setup:actpass"), "answer", "does not fit"),
    (None, "offer", "missing"),
])
def test_an_unusable_sdp_is_refused_with_why(sdp, kind, why):
    with pytest.raises(PairingError, match=why):
        from_sdp(sdp, kind, TOKEN)
