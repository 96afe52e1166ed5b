// Makes Fray's start-up snapshot off the main thread, after a visit the service worker started, and keeps
// it in the service worker's cache for the next visit (see the generated static/vendor/pyodide/fray-pyodide.mjs).
// Started by boot.js twice, one worker after the other (issue #57: one interpreter at a time beside the
// page's): "make" makes the snapshot and hands its bytes back; "check" restores them in a fresh interpreter,
// runs Fray's engine, and only then stores them.
import { makeSnapshot, checkSnapshot, SNAPSHOT_URL } from "../vendor/pyodide/fray-pyodide.mjs";

async function cacheName() {
  const names = (await caches.keys()).filter((n) => n.startsWith("fray-"));
  return names.length === 1 ? names[0] : null;
}

onmessage = async (e) => {
  const ask = e.data;
  try {
    if (!(await cacheName())) {
      postMessage("skipped: the offline cache is being updated");
      return;
    }
    if (ask === "make") {
      const { bytes, build } = await makeSnapshot();
      postMessage({ bytes, build }, [bytes.buffer]);
      return;
    }
    await checkSnapshot(ask.bytes, ask.build);
    const name = await cacheName();
    if (!name) {
      postMessage("skipped: the offline cache is being updated");
      return;
    }
    const cache = await caches.open(name);
    await cache.put(SNAPSHOT_URL, new Response(ask.bytes, {
      headers: { "Content-Type": "application/octet-stream", "X-Fray-Build": ask.build },
    }));
    postMessage("stored");
  } catch (err) {
    postMessage(`failed: ${err}`);
  }
};
