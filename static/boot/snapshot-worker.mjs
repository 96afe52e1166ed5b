// Makes Fray's start-up snapshot off the main thread, after a visit the service
// worker started, and keeps it in the service worker's cache for the next visit
// (see the generated static/vendor/pyodide/fray-pyodide.mjs). Started by boot.js.
import { makeSnapshot, SNAPSHOT_URL } from "../vendor/pyodide/fray-pyodide.mjs";

onmessage = async () => {
  try {
    const names = (await caches.keys()).filter((n) => n.startsWith("fray-"));
    if (names.length !== 1) {
      postMessage("skipped: the offline cache is being updated");
      return;
    }
    const { bytes, build } = await makeSnapshot();
    const cache = await caches.open(names[0]);
    await cache.put(SNAPSHOT_URL, new Response(bytes, {
      headers: { "Content-Type": "application/octet-stream", "X-Fray-Build": build },
    }));
    postMessage("stored");
  } catch (err) {
    postMessage(`failed: ${err}`);
  }
};
