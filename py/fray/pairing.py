"""Pairing a phone with no server: a WebRTC offer or answer cut to what the connection needs, packed short.

A browser's SDP for one data channel is ~700 characters; a QR code read at arm's length wants far
fewer. The connection needs only the ICE user fragment and password, the DTLS certificate's
fingerprint, the DTLS role (`setup`), the media id and the candidates' addresses and ports, plus the
join token that ties an answer to the one offer it answers (docs/PHONES.md). `pack` writes those as
bytes with a CRC-32 and encodes them base64url (~140 characters for Chromium's offer); `unpack` reads
them back, and `to_sdp` rebuilds a full SDP the other browser accepts. Chromium and Firefox hide a
local IP behind an mDNS name, a random UUID + ".local": it is packed as its 16 bytes. Anything
malformed, truncated, altered or out of bounds raises `PairingError`, with a sentence a person reads.
Pure: tested under CPython on real browsers' SDP (tests/unit/test_pairing.py).
"""
from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import struct
import uuid
import zlib
from dataclasses import dataclass

VERSION = 1
KINDS = ("offer", "answer")
SETUPS = ("actpass", "active", "passive")
HASHES = {"sha-1": 20, "sha-256": 32, "sha-384": 48, "sha-512": 64}
MAX_CANDIDATES = 8
MAX_CODE = 600  # characters of a code: a longer paste is not a pairing code
TOKEN_BYTES = 4
_ICE = re.compile(r"[A-Za-z0-9+/]+")
_MID = re.compile(r"[A-Za-z0-9_.\-]{1,16}")
_HEX = re.compile(r"(?:[0-9a-f]{2})+")
_MDNS = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.local", re.I)
_V4, _V6, _NAME = 4, 6, 16  # a candidate's address kind; +0x80 when it is server-reflexive
_SRFLX = 0x80


class PairingError(ValueError):
    """A pairing code or SDP that cannot be used, and why, in words."""


@dataclass(frozen=True)
class Candidate:
    """One ICE candidate: an IP address or an mDNS name (`<uuid>.local`), a UDP port, host or server-reflexive."""
    address: str
    port: int
    reflexive: bool = False


@dataclass(frozen=True)
class Pairing:
    """What one side of a phone's connection needs from the other."""
    kind: str  # "offer" (the referee's) or "answer" (the phone's)
    token: bytes  # the join token: an answer carries its offer's
    ufrag: str
    pwd: str
    hash: str  # "sha-256"...
    fingerprint: bytes
    setup: str  # DTLS role: "actpass" in an offer, "active" or "passive" in an answer
    mid: str
    candidates: tuple[Candidate, ...]

    def __post_init__(self) -> None:
        check(self)


def check(p: Pairing) -> None:
    """Every field within what a browser writes and what the packing holds, or PairingError."""
    if p.kind not in KINDS:
        raise PairingError(f"a pairing is an offer or an answer, not {p.kind!r}")
    if len(p.token) != TOKEN_BYTES:
        raise PairingError(f"the join token must be {TOKEN_BYTES} bytes")
    if not (_ICE.fullmatch(p.ufrag) and 4 <= len(p.ufrag) <= 64):
        raise PairingError("the ICE user fragment must be 4 to 64 letters, digits, + or /")
    if not (_ICE.fullmatch(p.pwd) and 22 <= len(p.pwd) <= 64):
        raise PairingError("the ICE password must be 22 to 64 letters, digits, + or /")
    if HASHES.get(p.hash) != len(p.fingerprint):
        raise PairingError(f"the certificate fingerprint must be a {'/'.join(HASHES)} digest")
    if p.setup not in SETUPS or (p.kind == "offer") != (p.setup == "actpass"):
        raise PairingError(f"DTLS setup {p.setup!r} does not fit an {p.kind}")
    if not _MID.fullmatch(p.mid):
        raise PairingError("the media id must be 1 to 16 plain characters")
    if not 1 <= len(p.candidates) <= MAX_CANDIDATES:
        raise PairingError(f"a pairing needs 1 to {MAX_CANDIDATES} candidates; this one has {len(p.candidates)}"
                           " (no local network address was found)")
    for c in p.candidates:
        if not 1 <= c.port <= 65535:
            raise PairingError(f"candidate port {c.port} is out of range")
        _address_bytes(c.address)


# --- SDP → Pairing -------------------------------------------------------------------------------

def from_sdp(sdp: str, kind: str, token: bytes) -> Pairing:
    """The parts of a browser's SDP (offer or answer, ICE gathered) that the connection needs."""
    if not isinstance(sdp, str) or len(sdp) > 20_000:
        raise PairingError("the session description is missing or too long")
    lines = [ln.strip() for ln in sdp.replace("\r\n", "\n").split("\n") if ln.strip()]
    media = [ln for ln in lines if ln.startswith("m=")]
    if len(media) != 1 or "webrtc-datachannel" not in media[0]:
        raise PairingError("the session description must hold exactly one data channel")
    attrs: dict[str, str] = {}
    candidates: list[Candidate] = []
    for ln in lines:
        if not ln.startswith("a="):
            continue
        name, _, value = ln[2:].partition(":")
        if name == "candidate":
            cand = _candidate(value)
            if cand is not None and cand not in candidates and len(candidates) < MAX_CANDIDATES:
                candidates.append(cand)
        else:
            attrs.setdefault(name, value)
    missing = [k for k in ("ice-ufrag", "ice-pwd", "fingerprint", "setup") if k not in attrs]
    if missing:
        raise PairingError("the session description lacks " + ", ".join(missing))
    algo, _, hexes = attrs["fingerprint"].partition(" ")
    try:
        digest = bytes.fromhex(hexes.replace(":", ""))
    except ValueError:
        raise PairingError("the certificate fingerprint is not hexadecimal") from None
    return Pairing(kind, bytes(token), attrs["ice-ufrag"], attrs["ice-pwd"], algo.lower(), digest,
                   attrs["setup"], attrs.get("mid", "0"), tuple(candidates))


def _candidate(value: str) -> Candidate | None:
    """A UDP host or server-reflexive candidate; None for TCP, relay or anything else (not needed)."""
    parts = value.split()
    if len(parts) < 8 or parts[2].lower() != "udp" or parts[6] != "typ" or parts[7] not in ("host", "srflx"):
        return None
    if parts[1] != "1" or not parts[5].isdigit():
        return None
    try:
        _address_bytes(parts[4])
    except PairingError:
        return None
    return Candidate(parts[4].lower(), int(parts[5]), parts[7] == "srflx")


# --- Pairing ↔ bytes ↔ text --------------------------------------------------------------------

def pack(p: Pairing) -> str:
    """The pairing as base64url text (no padding), CRC-checked."""
    out = bytearray([(VERSION << 4) | KINDS.index(p.kind) << 2 | SETUPS.index(p.setup)])
    out += p.token
    for text in (p.ufrag, p.pwd, p.mid):
        out += _pack_text(text)
    out.append(list(HASHES).index(p.hash))
    out += p.fingerprint
    out.append(len(p.candidates))
    for c in p.candidates:
        raw = _address_bytes(c.address)
        kind = {4: _V4, 16: _NAME if c.address.endswith(".local") else _V6}[len(raw)]
        out.append(kind | (_SRFLX if c.reflexive else 0))
        out += raw + struct.pack(">H", c.port)
    out += struct.pack(">I", zlib.crc32(bytes(out)))
    return base64.urlsafe_b64encode(bytes(out)).decode("ascii").rstrip("=")


def unpack(code: str) -> Pairing:
    """The pairing a code holds; PairingError if it is not one, was cut short or altered."""
    if not isinstance(code, str):
        raise PairingError("a pairing code is text")
    code = "".join(code.split())  # a code pasted from a chat may be broken over lines
    if not code:
        raise PairingError("the pairing code is empty")
    if len(code) > MAX_CODE or not re.fullmatch(r"[A-Za-z0-9_\-]+", code):
        raise PairingError("this is not a pairing code (letters, digits, - and _ only, at most "
                           f"{MAX_CODE} characters)")
    try:
        data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        raise PairingError("this is not a pairing code (it is cut short)") from None
    if len(data) < 8 or struct.unpack(">I", data[-4:])[0] != zlib.crc32(data[:-4]):
        raise PairingError("the pairing code is damaged: copy it again, whole")
    r = _Reader(data[:-4])
    head = r.byte()
    if head >> 4 != VERSION:
        raise PairingError(f"this pairing code is of version {head >> 4}; this page reads version {VERSION}")
    kind, setup = (head >> 2) & 3, head & 3
    if kind >= len(KINDS) or setup >= len(SETUPS):
        raise PairingError("the pairing code is damaged: copy it again, whole")
    token = r.take(TOKEN_BYTES)
    ufrag, pwd, mid = r.text(), r.text(), r.text()
    algo = r.byte()
    if algo >= len(HASHES):
        raise PairingError("the pairing code names an unknown fingerprint hash")
    name = list(HASHES)[algo]
    digest = r.take(HASHES[name])
    cands = tuple(_read_candidate(r) for _ in range(r.byte()))
    if r.left():
        raise PairingError("the pairing code is damaged: it has bytes past its end")
    return Pairing(KINDS[kind], token, ufrag, pwd, name, digest, SETUPS[setup], mid, cands)


def _pack_text(text: str) -> bytes:
    if _HEX.fullmatch(text) and len(text) <= 127:  # Firefox's ICE strings are hex: half the bytes
        return bytes([0x80 | len(text)]) + bytes.fromhex(text)
    return bytes([len(text)]) + text.encode("ascii")


def _address_bytes(address: str) -> bytes:
    m = _MDNS.fullmatch(address)
    if m:
        return uuid.UUID(m.group(1)).bytes
    try:
        return ipaddress.ip_address(address).packed
    except ValueError:
        raise PairingError(f"candidate address {address[:60]!r} is neither an IP address nor an mDNS name") from None


def _read_candidate(r: "_Reader") -> Candidate:
    kind = r.byte()
    base, reflexive = kind & ~_SRFLX, bool(kind & _SRFLX)
    if base == _V4:
        address = str(ipaddress.IPv4Address(r.take(4)))
    elif base == _V6:
        address = str(ipaddress.IPv6Address(r.take(16)))
    elif base == _NAME:
        address = f"{uuid.UUID(bytes=r.take(16))}.local"
    else:
        raise PairingError("the pairing code holds a candidate of an unknown kind")
    return Candidate(address, struct.unpack(">H", r.take(2))[0], reflexive)


class _Reader:
    """Bytes read in order; running past the end is a PairingError."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise PairingError("the pairing code is cut short: copy it again, whole")
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def byte(self) -> int:
        return self.take(1)[0]

    def text(self) -> str:
        head = self.byte()
        n = head & 0x7F
        if head & 0x80:
            return self.take(n // 2).hex()
        raw = self.take(n)
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            raise PairingError("the pairing code is damaged: copy it again, whole") from None

    def left(self) -> int:
        return len(self.data) - self.at


# --- Pairing → SDP -----------------------------------------------------------------------------

def to_sdp(p: Pairing, session_id: int = 1) -> str:
    """A full SDP for one data channel that a browser accepts as the remote description."""
    fp = ":".join(f"{b:02X}" for b in p.fingerprint)
    lines = ["v=0", f"o=- {session_id} 2 IN IP4 127.0.0.1", "s=-", "t=0 0", f"a=group:BUNDLE {p.mid}",
             "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"]
    for i, c in enumerate(p.candidates):
        priority = (126 if not c.reflexive else 100) << 24 | (65535 - i) << 8 | 255  # RFC 8445 5.1.2
        lines.append(f"a=candidate:{i + 1} 1 udp {priority} {c.address} {c.port} typ "
                     + ("srflx raddr 0.0.0.0 rport 0" if c.reflexive else "host"))
    lines += [f"a=ice-ufrag:{p.ufrag}", f"a=ice-pwd:{p.pwd}", f"a=fingerprint:{p.hash} {fp}",
              f"a=setup:{p.setup}", f"a=mid:{p.mid}", "a=sctp-port:5000", "a=max-message-size:262144"]
    return "\r\n".join(lines) + "\r\n"
