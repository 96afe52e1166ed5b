"""Draw the app icons (PNG) from static/icons/icon.svg with headless Chromium.

Run once when the SVG changes, then commit the PNGs:
    .venv/bin/python tools/icons.py
Writes static/icons/icon-192.png and icon-512.png (the SVG as it is),
icon-maskable-512.png (full-bleed background, the drawing inside the central
safe zone, for launchers that crop to a circle or squircle) and
apple-touch-icon.png (180 px, full-bleed: iOS rounds the corners itself).
Needs Playwright (tests/requirements.txt) and Chromium ($CHROMIUM or /usr/bin/chromium).
"""
from __future__ import annotations

import os
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
ICONS = ROOT / "static" / "icons"
BACKGROUND = "#1f2a36"


def page(svg: str, size: int, full_bleed: bool, inset: float) -> str:
    inner = re.sub(r"<svg[^>]*>|</svg>", "", svg)
    if full_bleed:
        # Drop the rounded background rect; paint the whole square instead.
        inner = re.sub(r'<rect width="64" height="64"[^>]*/>', "", inner)
    pad = 64 * inset
    box = f"{-pad} {-pad} {64 + 2 * pad} {64 + 2 * pad}"
    bg = f'<rect x="{-pad}" y="{-pad}" width="{64 + 2 * pad}" height="{64 + 2 * pad}" fill="{BACKGROUND}"/>' \
        if full_bleed else ""
    return (f'<html><body style="margin:0;background:transparent">'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="{box}">'
            f"{bg}{inner}</svg></body></html>")


def main() -> None:
    from playwright.sync_api import sync_playwright

    svg = (ICONS / "icon.svg").read_text()
    exe = os.environ.get("CHROMIUM") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium")
                                         else shutil.which("chromium"))
    jobs = [("icon-192.png", 192, False, 0.0), ("icon-512.png", 512, False, 0.0),
            ("icon-maskable-512.png", 512, True, 0.12), ("apple-touch-icon.png", 180, True, 0.06)]
    with sync_playwright() as pw:
        args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        browser = pw.chromium.launch(args=args, **({"executable_path": exe} if exe else {}))
        for name, size, full, inset in jobs:
            pg = browser.new_page(viewport={"width": size, "height": size})
            pg.set_content(page(svg, size, full, inset))
            pg.screenshot(path=str(ICONS / name), omit_background=True,
                          clip={"x": 0, "y": 0, "width": size, "height": size})
            pg.close()
            print(f"wrote static/icons/{name}")
        browser.close()


if __name__ == "__main__":
    main()
