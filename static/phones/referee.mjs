// The referee's end of the phones' connections (docs/PHONES.md): one RTCPeerConnection and data channel per
// phone, driven by py/fray/ui/controllers/phones.py, which decides everything; this only carries texts and says what the
// connection does. Loaded on the first tap on "Phones".
import {config, gathered, why, qrSvg, CONNECT_MS} from "./peer.mjs";

const peers = new Map();  // phone number -> {pc, channel, timer}

export const api = {
  onMessage: null,  // (id, text): a phone's message, unchecked (Python checks it)
  onState: null,    // (id, state, detail): "open", "closed", "failed"

  async offer(id, stun) {
    api.drop(id);
    const pc = new RTCPeerConnection(config(stun));
    const channel = pc.createDataChannel("fray", {ordered: true});
    const peer = {pc, channel, timer: 0, interrupted: false};
    peers.set(id, peer);
    channel.onopen = () => { clearTimeout(peer.timer); tell(id, "open", ""); };
    channel.onclose = () => tell(id, "closed", "the phone left or lost the connection");
    channel.onmessage = (e) => { if (api.onMessage) api.onMessage(id, typeof e.data === "string" ? e.data : null); };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === "failed") tell(id, "failed", why(pc));
    };
    // A phone that locks or changes network for a moment: ICE keeps trying by itself; say so, and when it is back.
    pc.oniceconnectionstatechange = () => {
      const ice = pc.iceConnectionState;
      if (ice === "disconnected") { peer.interrupted = true; tell(id, "interrupted", ""); }
      if ((ice === "connected" || ice === "completed") && peer.interrupted && channel.readyState === "open") {
        peer.interrupted = false;
        tell(id, "open", "");
      }
    };
    await pc.setLocalDescription(await pc.createOffer());
    return await gathered(pc, 5000, stun ? 0 : 150);
  },

  async accept(id, sdp) {
    const peer = peers.get(id);
    if (!peer) throw new Error("this phone's offer is gone: make a new one");
    await peer.pc.setRemoteDescription({type: "answer", sdp});
    peer.timer = setTimeout(() => {
      if (peer.channel.readyState !== "open") tell(id, "failed", "no connection within 10 s: " + why(peer.pc));
    }, CONNECT_MS);
  },

  send(id, text) {
    const peer = peers.get(id);
    if (peer && peer.channel.readyState === "open") peer.channel.send(text);
  },

  drop(id) {
    const peer = peers.get(id);
    if (!peer) return;
    peers.delete(id);
    clearTimeout(peer.timer);
    peer.channel.onclose = null;
    try { peer.channel.close(); peer.pc.close(); } catch (e) { /* closed already */ }
  },

  qr: (text) => qrSvg(text, 4),
};

function tell(id, state, detail) {
  if (peers.has(id) && api.onState) api.onState(id, state, detail);
}

window.frayPhones = api;

// --- reading a phone's QR code with this device's camera -------------------------------------------------

const JSQR = "./static/vendor/jsqr/jsQR.js";  // pinned in tools/vendor.json: where there is no BarcodeDetector
let scanning = null;

function jsqr() {
  if (window.jsQR) return Promise.resolve(window.jsQR);
  return new Promise((ok, fail) => {
    const s = document.createElement("script");
    s.src = new URL(JSQR, document.baseURI).href;
    s.onload = () => ok(window.jsQR);
    s.onerror = () => fail(new Error("the QR reader could not be loaded"));
    document.head.appendChild(s);
  });
}

async function detector() {
  if ("BarcodeDetector" in window) {
    try {
      const formats = await BarcodeDetector.getSupportedFormats();
      if (formats.includes("qr_code")) {
        const d = new BarcodeDetector({formats: ["qr_code"]});
        return async (video) => { const found = await d.detect(video); return found.length ? found[0].rawValue : null; };
      }
    } catch (e) { /* fall back to jsQR */ }
  }
  const read = await jsqr();
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  return async (video) => {
    const w = video.videoWidth, h = video.videoHeight;
    if (!w || !h) return null;
    canvas.width = w; canvas.height = h;
    ctx.drawImage(video, 0, 0, w, h);
    const found = read(ctx.getImageData(0, 0, w, h).data, w, h, {inversionAttempts: "dontInvert"});
    return found ? found.data : null;
  };
}

// The text of the first QR code the camera sees; rejects when the referee stops or the camera is refused.
api.scan = async function scan() {
  api.stopScan();
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) throw new Error("this browser has no camera access");
  const stream = await navigator.mediaDevices.getUserMedia({video: {facingMode: "environment"}, audio: false});
  const box = document.createElement("div");
  box.className = "phones-camera";
  box.dataset.testid = "phones-camera";
  box.innerHTML = '<video muted playsinline autoplay></video><p>Point the camera at the phone\'s code.</p>' +
                  '<button type="button" data-testid="phones-camera-stop">Stop the camera</button>';
  document.body.appendChild(box);
  const video = box.querySelector("video");
  video.srcObject = stream;
  const job = scanning = {stop: null};
  const done = () => { stream.getTracks().forEach((t) => t.stop()); box.remove(); if (scanning === job) scanning = null; };
  try {
    await video.play();
    const detect = await detector();
    return await new Promise((ok, fail) => {
      job.stop = () => fail(new Error("stopped"));
      box.querySelector("button").onclick = () => job.stop();
      const tick = async () => {
        if (scanning !== job) return;
        let text = null;
        try { text = await detect(video); } catch (e) { text = null; }
        if (text) ok(text); else setTimeout(tick, 150);
      };
      tick();
    });
  } finally {
    done();
  }
};

api.stopScan = () => { if (scanning && scanning.stop) scanning.stop(); };
