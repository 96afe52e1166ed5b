"""The phone's pairing codec (static/phones/pairing.mjs) against py/fray/pairing.py, under Node: the same real
SDP texts give the same codes, each reads the other's, and both refuse the same damaged codes."""
from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

import pytest

from fray.pairing import PairingError, from_sdp, pack, to_sdp, unpack

ROOT = pathlib.Path(__file__).resolve().parents[2]
SDP = pathlib.Path(__file__).parent / "fixtures" / "sdp"
TOKEN = b"\x09\x08\x07\x06"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node is not installed (apt-get install nodejs)")

SCRIPT = """
import {fromSdp, pack, unpack, toSdp} from %(module)s;
import fs from "node:fs";
const job = JSON.parse(fs.readFileSync(0, "utf8"));
const out = {packed: {}, rebuilt: {}, refused: {}};
for (const [name, sdp, kind] of job.sdp) out.packed[name] = pack(fromSdp(sdp, kind, Uint8Array.from(job.token)));
for (const [name, code] of job.codes) out.rebuilt[name] = toSdp(unpack(code));
for (const code of job.bad) { try { unpack(code); out.refused[code] = ""; } catch (e) { out.refused[code] = e.constructor.name + ": " + e.message; } }
console.log(JSON.stringify(out));
"""


def run_js(job: dict) -> dict:
    module = json.dumps((ROOT / "static" / "phones" / "pairing.mjs").as_uri())
    proc = subprocess.run([NODE, "--input-type=module", "-e", SCRIPT % {"module": module}], input=json.dumps(job),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def fixtures():
    return [(f"{b}-{k}", (SDP / f"{b}-{k}.sdp").read_text(), k) for b in ("chromium", "firefox")
            for k in ("offer", "answer")]


def test_both_codecs_write_and_read_the_same_codes():
    codes = {name: pack(from_sdp(sdp, kind, TOKEN)) for name, sdp, kind in fixtures()}
    odd = from_sdp(fixtures()[1][1], "answer", TOKEN)
    from fray.pairing import Candidate, Pairing
    odd = Pairing(**{**odd.__dict__, "candidates": (Candidate("192.168.1.20", 50000), Candidate("fe80::1", 1234),
                                                    Candidate("2001:db8::8:800:200c:417a", 9, True))})
    codes["addresses"] = pack(odd)
    out = run_js({"token": list(TOKEN), "sdp": fixtures(), "codes": list(codes.items()), "bad": []})
    for name, _, _ in fixtures():
        assert out["packed"][name] == codes[name], name  # the phone's answer code is the referee's format
    for name, code in codes.items():
        assert out["rebuilt"][name] == to_sdp(unpack(code)), name


def test_both_codecs_refuse_the_same_damaged_codes():
    good = pack(from_sdp(fixtures()[0][1], "offer", TOKEN))
    bad = [good[:-3], good[:30] + ("A" if good[30] != "A" else "B") + good[31:], good + "AAAA", "", "<b>x</b>",
           "A" * 700, "QUJD", good[:-1]]
    out = run_js({"token": list(TOKEN), "sdp": [], "codes": [], "bad": bad})
    for code in bad:
        with pytest.raises(PairingError):
            unpack(code)
        assert out["refused"][code].startswith("PairingError: "), (code, out["refused"][code])
