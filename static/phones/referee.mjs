// The referee's end of the phones' connections (docs/PHONES.md): one RTCPeerConnection and data channel per
// phone, driven by py/fray/ui/phones.py, which decides everything; this only carries texts and says what the
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
    const peer = {pc, channel, timer: 0};
    peers.set(id, peer);
    channel.onopen = () => { clearTimeout(peer.timer); tell(id, "open", ""); };
    channel.onclose = () => tell(id, "closed", "the phone left or lost the connection");
    channel.onmessage = (e) => { if (api.onMessage) api.onMessage(id, typeof e.data === "string" ? e.data : null); };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === "failed") tell(id, "failed", why(pc));
    };
    await pc.setLocalDescription(await pc.createOffer());
    return await gathered(pc);
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
