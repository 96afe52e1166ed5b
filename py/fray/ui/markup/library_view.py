"""The library's markup: the list of encounters, the trash, the storage line, the import bar, the banner.

Pure functions of records (fray/library.py) and what the page knows of the
browser's storage; every name and summary goes through `h`, so it is text,
never HTML.
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import library, presets
from ...rules import titles
from .html import Markup, h


@dataclass(frozen=True)
class StorageLine:
    durable: bool
    problem: str  # why the library is in memory only
    used: float | None  # bytes
    quota: float | None
    persistence: str  # "granted", "not granted ...", "" (not asked yet)


def _mb(n: float) -> str:
    if n >= 1e9:
        return f"{n / 1e9:.1f} GB"
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


def storage_text(s: StorageLine) -> str:
    if not s.durable:
        return (f"Kept in memory only ({s.problem}): nothing here survives closing the tab. "
                "Use Export all or Save to keep it.")
    parts = ["Kept in this browser"]
    if s.used is not None and s.quota:
        parts.append(f"using {_mb(s.used)} of {_mb(s.quota)} allowed")
    if s.persistence:
        parts.append(f"persistent storage: {s.persistence}")
    return " · ".join(parts) + "."


def system_title(rec: library.Record) -> str:
    t = titles().get(rec["system"], rec["system"] or "?")
    return f"{t} · {rec['profile']}" if rec.get("profile") else t


def entry_row(rec: library.Record, now: int, current: str, renaming: str) -> Markup:
    rid = rec["id"]
    here = rid == current
    if renaming == rid:
        name = h("form", {"class_": "lib-rename", "data-action": f"lib-rename:{rid}"},
                 h("input", {"name": "name", "value": rec["name"], "maxlength": str(library.MAX_NAME),
                             "aria-label": "New name", "data-testid": f"lib-name-input-{rid}", "required": True}),
                 h("button", {"type": "submit", "data-testid": f"lib-rename-ok-{rid}"}, "Rename"))
    else:
        name = h("span", {"class_": "lib-name", "data-testid": f"lib-name-{rid}"}, rec["name"])
    if rec.get("broken"):
        detail = h("p", {"class_": "lib-broken", "data-testid": f"lib-broken-{rid}"},
                   "Could not be read, set aside (kept, not deleted): ", rec["broken"])
        buttons = [h("button", {"type": "button", "data-action": f"lib-download:{rid}"}, "Download as it is"),
                   h("button", {"type": "button", "data-action": f"lib-delete:{rid}", "class_": "danger"},
                     "Delete")]
    else:
        detail = h("p", {"class_": "lib-meta"},
                   h("span", None, system_title(rec)), " · ", h("span", None, rec["round"] or "not started"),
                   " · ", h("span", {"class_": "lib-when"}, library.when(rec["changed"], now)),
                   h("br"), h("span", {"class_": "lib-summary"}, rec["summary"]))
        buttons = [h("button", {"type": "button", "data-action": f"lib-open:{rid}", "data-testid": f"lib-open-{rid}",
                                "disabled": here}, "Open here" if not here else "Open (this tab)"),
                   h("button", {"type": "button", "data-action": f"lib-rename-start:{rid}",
                                "data-testid": f"lib-rename-{rid}"}, "Rename"),
                   h("button", {"type": "button", "data-action": f"lib-dup:{rid}", "data-testid": f"lib-dup-{rid}"},
                     "Duplicate"),
                   h("button", {"type": "button", "data-action": f"lib-delete:{rid}", "class_": "danger",
                                "data-testid": f"lib-delete-{rid}"}, "Delete")]
    return h("li", {"class_": "lib-entry" + (" here" if here else ""), "data-testid": f"lib-entry-{rid}",
                    "data-id": rid, "aria-current": "true" if here else None},
             h("div", {"class_": "lib-head"}, name, h("span", {"class_": "lib-here"}, "open here") if here else ""),
             detail, h("div", {"class_": "row lib-buttons"}, buttons))


def trash_row(rec: library.Record, now: int) -> Markup:
    rid = rec["id"]
    left = max(0, library.TRASH_DAYS - int((now - rec["deleted"]) // library.DAY_MS))
    return h("li", {"class_": "lib-entry trashed", "data-testid": f"trash-{rid}"},
             h("span", {"class_": "lib-name"}, rec["name"]),
             h("span", {"class_": "muted"}, f" deleted {library.when(rec['deleted'], now)}; restorable for "
                                           f"{left} more day{'s' if left != 1 else ''}"),
             h("span", {"class_": "lib-trash-buttons"},
               h("button", {"type": "button", "data-action": f"lib-restore:{rid}", "data-testid": f"restore-{rid}"},
                 "Restore"),
               h("button", {"type": "button", "data-action": f"lib-purge:{rid}", "data-testid": f"purge-{rid}",
                            "class_": "danger"}, "Delete for good")))


def dialog(records: list[library.Record], now: int, current: str, renaming: str, store_line: StorageLine,
           progress: tuple[int, int] | None, report: str) -> Markup:
    shown = library.shown(records)
    binned = library.trash(records, now)
    bar = ""
    if progress is not None:
        done, total = progress
        bar = h("div", {"class_": "lib-progress", "role": "status"},
                h("progress", {"max": str(max(total, 1)), "value": str(done), "data-testid": "import-progress",
                               "aria-label": "Import progress"}),
                h("span", None, f" {done} of {total}"))
    return h("div", {"class_": "modal lib-modal", "role": "dialog", "aria-modal": "true", "aria-labelledby": "lib-t",
                     "data-testid": "library"},
             h("div", {"class_": "modal-box lib-box"},
               h("div", {"class_": "lib-top"},
                 h("h2", {"id": "lib-t"}, "Library"),
                 h("button", {"type": "button", "data-action": "cancel", "data-testid": "library-close",
                              "aria-label": "Close the library"}, "Close")),
               h("p", {"class_": "muted lib-storage", "data-testid": "lib-storage"}, storage_text(store_line)),
               new_encounter(),
               h("div", {"class_": "row"},
                 h("button", {"type": "button", "data-action": "lib-export", "data-testid": "lib-export"},
                   "Export all"),
                 h("button", {"type": "button", "data-action": "open", "data-testid": "lib-open-file",
                              "title": "Open an encounter file as a new entry"}, "Open a file…"),
                 h("button", {"type": "button", "data-action": "lib-import", "data-testid": "lib-import",
                              "title": "Add a backup's entries (or an encounter file's) to the library"},
                   "Import…")),
               bar,
               h("p", {"class_": "lib-report", "role": "status", "data-testid": "lib-report"}, report) if report
               else "",
               h("ol", {"class_": "lib-list", "data-testid": "lib-list"},
                 [entry_row(r, now, current, renaming) for r in shown]) if shown
               else h("p", {"class_": "muted"}, "No saved encounters yet."),
               h("details", {"class_": "lib-trash", "data-testid": "lib-trash"},
                 h("summary", None, f"Trash ({len(binned)})"),
                 h("p", {"class_": "muted"}, f"Deleted encounters are kept {library.TRASH_DAYS} days."),
                 h("ul", {"class_": "lib-list"}, [trash_row(r, now) for r in binned])) if binned else ""))


def new_encounter() -> Markup:
    """A new, empty encounter in one tap: a button a system, with a line on what each is."""
    return h("section", {"class_": "lib-new", "aria-labelledby": "lib-new-t", "data-testid": "lib-new"},
             h("h3", {"id": "lib-new-t"}, "New encounter"),
             h("ul", {"class_": "lib-new-list"},
               [h("li", None,
                  h("button", {"type": "button", "data-action": f"lib-new:{system}:{profile}",
                               "data-testid": f"lib-new-{system}", "aria-describedby": f"lib-new-{system}-d"},
                    f"New {label} encounter"),
                  h("span", {"class_": "muted", "id": f"lib-new-{system}-d"}, line))
                for system, profile, label, line in presets.new_encounters()]))


def banner(name: str) -> Markup:
    """The read-only tab's banner (another tab has this encounter open)."""
    return h("div", {"class_": "lib-banner", "role": "alert", "data-testid": "readonly-banner"},
             h("p", None, h("strong", None, "Read-only: "), "“", name, "” is open in another tab. "
               "Its steps show here as they are saved; change it there, or take over here "
               "(the other tab then becomes read-only)."),
             h("div", {"class_": "row"},
               h("button", {"type": "button", "data-action": "take-over", "data-testid": "take-over"},
                 "Take over here"),
               h("button", {"type": "button", "data-action": "library", "data-testid": "banner-library"},
                 "Open the library")))
