// A player's phone (docs/PHONES.md): answers the referee's offer (the URL's fragment), then draws the markup
// the referee's page sends and sends back only what its player taps: faces asked for, an option proposed.
// Every message received is checked for shape before anything is drawn.
import {unpack, toSdp, fromSdp, pack, PairingError} from "./pairing.mjs";
import {config, gathered, why, qrSvg, CONNECT_MS} from "./peer.mjs";

const $ = (id) => document.getElementById(id);
const root = $("phone");
let channel = null, turn = false, dropped = false;
const SEAT = "fray.phone.seat";  // this tab's seat once it has joined: {code (the link's fragment), name (its PC)}

function seat() {
  try { return JSON.parse(sessionStorage.getItem(SEAT) || "null"); } catch (e) { return null; }
}

function keep(name) {
  try { sessionStorage.setItem(SEAT, JSON.stringify({code: location.hash, name})); } catch (e) { /* no storage */ }
}

// What to do when the connection is gone: a code works once, and WebRTC needs a new offer from the referee.
function comeBack(why) {
  const name = (seat() || {}).name || "";
  const back = name ? `"${name}'s phone is back? New code"` : `"New code" beside this phone`;
  status(`${why} Ask the referee to tap ${back} in Phones, then scan the new code with this phone's camera ` +
         "(or open the link they send).", "gone");
  $("pair").hidden = false;
  $("pair-answer").hidden = true;
}

function status(text, state) {
  $("pair-status").textContent = text;
  if (state) root.dataset.state = state;
}

function note(text) {
  const el = $("phone-note");
  el.textContent = text;
  el.hidden = !text;
}

function send(msg) {
  if (channel && channel.readyState === "open") channel.send(JSON.stringify({fray: "phone", v: 1, ...msg}));
}

// A referee's message: {"fray": "phone", "v": 1, "type": "view" | "refused" | "bye", ...}; anything else is ignored.
function receive(data) {
  let msg;
  try { msg = typeof data === "string" && data.length < 4000000 ? JSON.parse(data) : null; } catch (e) { msg = null; }
  if (!msg || msg.fray !== "phone" || msg.v !== 1) { console.info("Fray: ignored a message that is not the referee's"); return; }
  if (msg.type === "view" && typeof msg.html === "string") {
    $("pair").hidden = true;
    $("view").innerHTML = msg.html;  // built and escaped by the referee's page (py/fray/ui/markup/phones_markup.py)
    root.dataset.seq = String(msg.seq);
    const pcName = $("view").querySelector("[data-testid=phone-pc]");
    keep(pcName ? pcName.textContent : "");
    const mine = $("view").querySelector("[data-turn]");
    const now = Boolean(mine && mine.dataset.turn === "true");
    if (now && !turn && navigator.vibrate) navigator.vibrate(200);
    turn = now;
  } else if (msg.type === "refused" && typeof msg.why === "string") {
    note("The referee's page refused that: " + msg.why);
  } else if (msg.type === "bye") {
    dropped = true;  // the channel's close that follows says nothing more
    try { sessionStorage.removeItem(SEAT); } catch (e) { /* no storage */ }
    status("The referee dropped this phone. Scan a new code to join again.", "dropped");
    $("pair").hidden = false;
    $("view").innerHTML = "";
  }
}

document.addEventListener("click", (e) => {
  const c = e.target.closest("[data-claim]");
  if (c) {
    send({type: "claim", pc: c.dataset.claim});
    note("Asked the referee's page for " + c.textContent);
    return;
  }
  const b = e.target.closest("[data-propose]");
  if (!b) return;
  send({type: "propose", option: Number(b.dataset.propose), label: b.dataset.label, pc: b.dataset.pc});
  note("Proposed to the referee: " + b.dataset.label);
});

document.addEventListener("submit", (e) => {
  const form = e.target.closest("form[data-faces]");
  if (!form) return;
  e.preventDefault();
  const faces = Array.from(form.querySelectorAll("input[name^=f]"), (i) => Number(i.value));
  if (faces.some((f) => !Number.isInteger(f) || f < 1 || f > Number(form.dataset.sides))) {
    note(`Each face must be a number from 1 to ${form.dataset.sides}.`);
    return;
  }
  send({type: "faces", ask: Number(form.dataset.faces), faces, pc: form.dataset.pc});
  note("Sent: " + faces.join(", "));
});

$("pair-copy").addEventListener("click", async () => {
  const text = $("pair-code").value;
  try { await navigator.clipboard.writeText(text); note("Copied: send it to the referee."); }
  catch (e) { $("pair-code").select(); note("Select the code and copy it."); }
});

async function join() {
  const was = seat();
  if (was && was.code === location.hash) {  // a reload of a code that has joined: it cannot join again
    comeBack(`This phone was ${was.name ? was.name + "'s" : "at the table"}; the page reloaded, so its connection is gone.`);
    return;
  }
  let offer;
  try {
    offer = unpack(decodeURIComponent(location.hash.slice(1)));
    if (offer.kind !== "offer") throw new PairingError("this is a phone's answer, not the referee's offer");
  } catch (e) {
    status("This link cannot join a table: " + (e instanceof PairingError ? e.message : "it is not a Fray pairing link") +
           ". Ask the referee for a new code.", "bad-code");
    return;
  }
  const stun = new URLSearchParams(location.search).get("stun");
  const pc = new RTCPeerConnection(config(stun));
  pc.ondatachannel = (e) => {
    channel = e.channel;
    channel.onopen = () => { status("Connected: waiting for the fight…", "open"); send({type: "hello"}); };
    channel.onmessage = (m) => receive(m.data);
    channel.onclose = () => { if (!dropped) comeBack("The connection to the referee is closed."); };
    if (channel.readyState === "open") channel.onopen();
  };
  pc.oniceconnectionstatechange = () => {
    // A phone that locks or changes network for a moment: ICE keeps trying by itself, and the channel lives on.
    if (pc.iceConnectionState === "disconnected") note("The connection is interrupted: waiting for it to come back…");
    if (pc.iceConnectionState === "connected" && channel && channel.readyState === "open") { note(""); send({type: "hello"}); }
    if (pc.iceConnectionState === "checking") {
      setTimeout(() => { if (!channel || channel.readyState !== "open") status("No connection: " + why(pc) + ". The table display works without a network.", "failed"); }, CONNECT_MS);
    }
  };
  await pc.setRemoteDescription({type: "offer", sdp: toSdp(offer)});
  await pc.setLocalDescription(await pc.createAnswer());
  let code;
  try {
    code = pack(fromSdp(await gathered(pc, 5000, stun ? 0 : 150), "answer", offer.token));
  } catch (e) {
    status("This phone cannot answer: " + e.message, "failed");
    return;
  }
  $("pair-code").value = code;
  $("pair-qr").innerHTML = qrSvg(code, 5);
  $("pair-answer").hidden = false;
  status("Almost there: the referee reads your code.", "answered");
}

// For the tests of a hostile phone: send any text as this phone.
window.frayPhone = {sendRaw: (text) => channel && channel.readyState === "open" && channel.send(text)};

// A phone that wakes: the view again, in case the screen was asleep through a change (nothing to do if it is closed).
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") send({type: "hello"}); });

// A new code opened in this tab (the referee's "New code", a link pasted): join afresh with it.
window.addEventListener("hashchange", () => location.reload());

join().catch((e) => status("This phone cannot join: " + e.message, "failed"));

// The offline copy (sw.js): this page and what it loads, kept after one visit, so that a reload with no network
// still opens it. A device that has the referee's whole app registered keeps that (it lists these files too).
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.getRegistration("./").then((reg) => {
    if (!reg) return navigator.serviceWorker.register("./sw.js?for=phone", {updateViaCache: "none"});
  }).catch((e) => console.warn("Fray: this phone's page is not kept offline (" + e + ")."));
}
