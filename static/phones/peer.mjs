// What both ends of a phone's connection share (docs/PHONES.md): the WebRTC settings, waiting for ICE, QR codes.
import qrcode from "../vendor/qrcode/qrcode.mjs";

export const CONNECT_MS = 10000;  // no connection by then: say so, and why as far as the browser tells

// No STUN server by default: the connection stays on the local network, and no request leaves it.
export function config(stun) {
  return {iceServers: stun ? [{urls: stun}] : []};
}

// The description once ICE has gathered the candidates (a code carries them all: no trickling). With no STUN
// server (`quiet` ms) it is taken once the local addresses have come and none more for a moment: the
// browser's own "complete" can come several times later on a slow phone.
export async function gathered(pc, ms = 5000, quiet = 0) {
  if (pc.iceGatheringState !== "complete") {
    await new Promise((ok) => {
      let timer = 0;
      pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && ok());
      if (quiet) {
        pc.addEventListener("icecandidate", (e) => {
          if (e.candidate) { clearTimeout(timer); timer = setTimeout(ok, quiet); }
        });
      }
      setTimeout(ok, ms);
    });
  }
  return pc.localDescription.sdp;
}

// Why a connection failed, in words, from what the browser says.
export function why(pc) {
  const ice = pc.iceConnectionState, conn = pc.connectionState;
  if (ice === "failed" || conn === "failed") return "the devices could not reach each other (not on the same network, or a firewall)";
  if (ice === "new" || ice === "checking") return "no answer from the other device (ICE " + ice + ")";
  return "the connection is " + conn;
}

// A QR code of `text` as an SVG element's markup (byte mode, error correction M).
export function qrSvg(text, cell = 4) {
  const qr = qrcode(0, "M");
  qr.addData(text, "Byte");
  qr.make();
  return qr.createSvgTag({cellSize: cell, margin: cell * 4, scalable: true, alt: "QR code", title: ""});
}
