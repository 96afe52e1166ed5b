"""The ui's dom/ floor: the browser's own objects, each wrapped once (DOM patching, IndexedDB, the table's channel)."""
