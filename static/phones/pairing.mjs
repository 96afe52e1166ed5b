// The pairing codec on the phone's side: py/fray/pairing.py in JavaScript, byte for byte (docs/PHONES.md).
// The phone's page runs no Python (it must start at once), so it reads the referee's offer code and packs
// its answer here. tests/unit/test_pairing_js.py checks under Node that both codecs write the same codes
// from the same real SDP texts and refuse the same damaged ones.

export const VERSION = 1;
const KINDS = ["offer", "answer"];
const SETUPS = ["actpass", "active", "passive"];
const HASHES = [["sha-1", 20], ["sha-256", 32], ["sha-384", 48], ["sha-512", 64]];
const MAX_CANDIDATES = 8, MAX_CODE = 600, TOKEN_BYTES = 4;
const V4 = 4, V6 = 6, NAME = 16, SRFLX = 0x80;
const ICE = /^[A-Za-z0-9+/]+$/, MID = /^[A-Za-z0-9_.\-]{1,16}$/, HEX = /^(?:[0-9a-f]{2})+$/;
const MDNS = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.local$/i;

export class PairingError extends Error {}

const fail = (why) => { throw new PairingError(why); };
const CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes) {
  let c = 0xFFFFFFFF;
  for (const b of bytes) c = CRC[(c ^ b) & 0xFF] ^ (c >>> 8);
  return (c ^ 0xFFFFFFFF) >>> 0;
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (s) => Uint8Array.from(s.match(/../g) || [], (x) => parseInt(x, 16));

export function check(p) {
  if (!KINDS.includes(p.kind)) fail(`a pairing is an offer or an answer, not ${p.kind}`);
  if (!(p.token instanceof Uint8Array) || p.token.length !== TOKEN_BYTES) fail(`the join token must be ${TOKEN_BYTES} bytes`);
  if (!(ICE.test(p.ufrag) && p.ufrag.length >= 4 && p.ufrag.length <= 64)) fail("the ICE user fragment must be 4 to 64 letters, digits, + or /");
  if (!(ICE.test(p.pwd) && p.pwd.length >= 22 && p.pwd.length <= 64)) fail("the ICE password must be 22 to 64 letters, digits, + or /");
  const h = HASHES.find(([n]) => n === p.hash);
  if (!h || h[1] !== p.fingerprint.length) fail("the certificate fingerprint must be a sha-1/sha-256/sha-384/sha-512 digest");
  if (!SETUPS.includes(p.setup) || (p.kind === "offer") !== (p.setup === "actpass")) fail(`DTLS setup ${p.setup} does not fit an ${p.kind}`);
  if (!MID.test(p.mid)) fail("the media id must be 1 to 16 plain characters");
  if (p.candidates.length < 1 || p.candidates.length > MAX_CANDIDATES)
    fail(`a pairing needs 1 to ${MAX_CANDIDATES} candidates; this one has ${p.candidates.length} (no local network address was found)`);
  for (const c of p.candidates) {
    if (!(c.port >= 1 && c.port <= 65535)) fail(`candidate port ${c.port} is out of range`);
    addressBytes(c.address);
  }
  return p;
}

// --- SDP → pairing ---------------------------------------------------------------------------------

export function fromSdp(sdp, kind, token) {
  if (typeof sdp !== "string" || sdp.length > 20000) fail("the session description is missing or too long");
  const lines = sdp.replace(/\r\n/g, "\n").split("\n").map((l) => l.trim()).filter(Boolean);
  const media = lines.filter((l) => l.startsWith("m="));
  if (media.length !== 1 || !media[0].includes("webrtc-datachannel")) fail("the session description must hold exactly one data channel");
  const attrs = {}, candidates = [];
  for (const ln of lines) {
    if (!ln.startsWith("a=")) continue;
    const at = ln.indexOf(":");
    const name = at < 0 ? ln.slice(2) : ln.slice(2, at), value = at < 0 ? "" : ln.slice(at + 1);
    if (name === "candidate") {
      const c = candidate(value);
      if (c && !candidates.some((d) => d.address === c.address && d.port === c.port && d.reflexive === c.reflexive)
          && candidates.length < MAX_CANDIDATES) candidates.push(c);
    } else if (!(name in attrs)) attrs[name] = value;
  }
  const missing = ["ice-ufrag", "ice-pwd", "fingerprint", "setup"].filter((k) => !(k in attrs));
  if (missing.length) fail("the session description lacks " + missing.join(", "));
  const sp = attrs.fingerprint.indexOf(" ");
  const algo = sp < 0 ? attrs.fingerprint : attrs.fingerprint.slice(0, sp);
  const digits = (sp < 0 ? "" : attrs.fingerprint.slice(sp + 1)).replace(/:/g, "");
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(digits)) fail("the certificate fingerprint is not hexadecimal");
  return check({kind, token: Uint8Array.from(token), ufrag: attrs["ice-ufrag"], pwd: attrs["ice-pwd"],
                hash: algo.toLowerCase(), fingerprint: fromHex(digits.toLowerCase()), setup: attrs.setup,
                mid: attrs.mid ?? "0", candidates});
}

function candidate(value) {
  const p = value.split(/\s+/);
  if (p.length < 8 || p[2].toLowerCase() !== "udp" || p[6] !== "typ" || !["host", "srflx"].includes(p[7])) return null;
  if (p[1] !== "1" || !/^\d+$/.test(p[5])) return null;
  try { addressBytes(p[4]); } catch (e) { return null; }
  return {address: p[4].toLowerCase(), port: parseInt(p[5], 10), reflexive: p[7] === "srflx"};
}

// --- addresses -----------------------------------------------------------------------------------

function addressBytes(address) {
  const m = MDNS.exec(address);
  if (m) return fromHex(m[1].replace(/-/g, "").toLowerCase());
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.every((x, i) => x <= 255 && String(x) === v4[i + 1])) return Uint8Array.from(parts);
  }
  if (address.includes(":")) {
    const v6 = ipv6Bytes(address);
    if (v6) return v6;
  }
  fail(`candidate address '${String(address).slice(0, 60)}' is neither an IP address nor an mDNS name`);
}

function ipv6Bytes(a) {
  if (!/^[0-9a-fA-F:]+$/.test(a) || (a.match(/::/g) || []).length > 1) return null;
  const [head, tail] = a.includes("::") ? a.split("::") : [a, null];
  const h = head ? head.split(":") : [], t = tail ? tail.split(":") : [];
  if (tail === null ? h.length !== 8 : h.length + t.length > 7) return null;
  const groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  if (groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => { const v = parseInt(g, 16); out[2 * i] = v >> 8; out[2 * i + 1] = v & 255; });
  return out;
}

function ipv6Text(b) {  // RFC 5952, as Python's ipaddress writes it
  const g = [];
  for (let i = 0; i < 16; i += 2) g.push((b[i] << 8) | b[i + 1]);
  let best = -1, bestLen = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j;
  }
  const s = g.map((x) => x.toString(16));
  if (best < 0) return s.join(":");
  return s.slice(0, best).join(":") + "::" + s.slice(best + bestLen).join(":");
}

const uuidText = (b) => { const x = hex(b); return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`; };

// --- pairing ↔ bytes ↔ text ------------------------------------------------------------------------

function packText(text) {
  if (HEX.test(text) && text.length <= 127) return [0x80 | text.length, ...fromHex(text)];
  return [text.length, ...Array.from(text, (ch) => ch.charCodeAt(0))];
}

const b64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function pack(p) {
  check(p);
  const out = [(VERSION << 4) | (KINDS.indexOf(p.kind) << 2) | SETUPS.indexOf(p.setup), ...p.token];
  for (const t of [p.ufrag, p.pwd, p.mid]) out.push(...packText(t));
  out.push(HASHES.findIndex(([n]) => n === p.hash), ...p.fingerprint, p.candidates.length);
  for (const c of p.candidates) {
    const raw = addressBytes(c.address);
    const kind = raw.length === 4 ? V4 : MDNS.test(c.address) ? NAME : V6;
    out.push(kind | (c.reflexive ? SRFLX : 0), ...raw, c.port >> 8, c.port & 255);
  }
  const crc = crc32(out);
  out.push(crc >>> 24, (crc >>> 16) & 255, (crc >>> 8) & 255, crc & 255);
  return b64url(out);
}

export function unpack(code) {
  if (typeof code !== "string") fail("a pairing code is text");
  code = code.replace(/\s+/g, "");
  if (!code) fail("the pairing code is empty");
  if (code.length > MAX_CODE || !/^[A-Za-z0-9_\-]+$/.test(code))
    fail(`this is not a pairing code (letters, digits, - and _ only, at most ${MAX_CODE} characters)`);
  if (code.length % 4 === 1) fail("this is not a pairing code (it is cut short)");
  const bin = atob(code.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - code.length % 4) % 4));
  const data = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  const n = data.length - 4;
  if (data.length < 8 || ((data[n] << 24) | (data[n + 1] << 16) | (data[n + 2] << 8) | data[n + 3]) >>> 0 !== crc32(data.subarray(0, n)))
    fail("the pairing code is damaged: copy it again, whole");
  let at = 0;
  const take = (k) => { if (at + k > n) fail("the pairing code is cut short: copy it again, whole"); at += k; return data.slice(at - k, at); };
  const byte = () => take(1)[0];
  const text = () => {
    const head = byte(), len = head & 0x7F;
    if (head & 0x80) return hex(take(len >> 1));
    const raw = take(len);
    if (raw.some((b) => b > 127)) fail("the pairing code is damaged: copy it again, whole");
    return String.fromCharCode(...raw);
  };
  const head = byte();
  if (head >> 4 !== VERSION) fail(`this pairing code is of version ${head >> 4}; this page reads version ${VERSION}`);
  const kind = (head >> 2) & 3, setup = head & 3;
  if (kind >= KINDS.length || setup >= SETUPS.length) fail("the pairing code is damaged: copy it again, whole");
  const token = take(TOKEN_BYTES), ufrag = text(), pwd = text(), mid = text();
  const algo = byte();
  if (algo >= HASHES.length) fail("the pairing code names an unknown fingerprint hash");
  const fingerprint = take(HASHES[algo][1]);
  const count = byte(), candidates = [];
  for (let i = 0; i < count; i++) {
    const k = byte(), base = k & ~SRFLX;
    let address;
    if (base === V4) address = Array.from(take(4)).join(".");
    else if (base === V6) address = ipv6Text(take(16));
    else if (base === NAME) address = uuidText(take(16)) + ".local";
    else fail("the pairing code holds a candidate of an unknown kind");
    const port = take(2);
    candidates.push({address, port: (port[0] << 8) | port[1], reflexive: Boolean(k & SRFLX)});
  }
  if (at !== n) fail("the pairing code is damaged: it has bytes past its end");
  return check({kind: KINDS[kind], token, ufrag, pwd, hash: HASHES[algo][0], fingerprint, setup: SETUPS[setup], mid, candidates});
}

// --- pairing → SDP ---------------------------------------------------------------------------------

export function toSdp(p, sessionId = 1) {
  const fp = Array.from(p.fingerprint, (b) => b.toString(16).toUpperCase().padStart(2, "0")).join(":");
  const lines = ["v=0", `o=- ${sessionId} 2 IN IP4 127.0.0.1`, "s=-", "t=0 0", `a=group:BUNDLE ${p.mid}`,
                 "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"];
  p.candidates.forEach((c, i) => {
    const priority = (((c.reflexive ? 100 : 126) << 24) >>> 0) + ((65535 - i) << 8) + 255;
    lines.push(`a=candidate:${i + 1} 1 udp ${priority} ${c.address} ${c.port} typ ` +
               (c.reflexive ? "srflx raddr 0.0.0.0 rport 0" : "host"));
  });
  lines.push(`a=ice-ufrag:${p.ufrag}`, `a=ice-pwd:${p.pwd}`, `a=fingerprint:${p.hash} ${fp}`,
             `a=setup:${p.setup}`, `a=mid:${p.mid}`, "a=sctp-port:5000", "a=max-message-size:262144");
  return lines.join("\r\n") + "\r\n";
}
