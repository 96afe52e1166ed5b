// Compile Python to bytecode with Pyodide's own interpreter (run by tools/setup.py).
//   node pycompile.mjs VENDOR_PYODIDE stdlib SRC_ZIP OUT_ZIP   start-up stdlib zip (+ OUT's -rest.zip)
//   node pycompile.mjs VENDOR_PYODIDE app PY_DIR OUT_ZIP [EXTRA_JSON]  fray (+ EXTRA's modules) as .pyc
// The bytecode must come from the same Python as the wasm the page runs.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [vendor, mode, src, out, extra] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(vendor, "pyodide.mjs")).href);
// No column tables in the bytecode (a quarter smaller; tracebacks keep file and line).
const options = { indexURL: vendor + "/", env: { PYTHONNODEBUGRANGES: "1" } };
if (!existsSync(path.join(vendor, "python_stdlib.zip"))) {
  options.stdLibURL = path.join(vendor, "python_stdlib.pyc.zip");
}
const py = await loadPyodide(options);
py.FS.mkdirTree("/src");
py.FS.mkdirTree("/out");
const srcDir = mode === "stdlib" ? path.dirname(src) : src;
py.FS.mount(py.FS.filesystems.NODEFS, { root: srcDir }, "/src");
py.FS.mount(py.FS.filesystems.NODEFS, { root: path.dirname(out) }, "/out");
py.globals.set("MODE", mode);
py.globals.set("SRC", mode === "stdlib" ? "/src/" + path.basename(src) : "/src");
py.globals.set("OUT", "/out/" + path.basename(out));
// stdlib: the second zip, of the modules the page does not import as it starts.
py.globals.set("REST", "/out/" + path.basename(out).replace(".pyc.zip", "-rest.zip"));
// app: other packages to precompile into the zip, {"pkg/mod.py": source} (PyScript's own).
py.globals.set("EXTRA_JSON", extra ? readFileSync(extra, "utf8") : "{}");
py.runPython(readFileSync(new URL("./pycompile.py", import.meta.url), "utf8"));
