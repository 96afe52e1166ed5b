"""The Setup's map image section: choose or paste an image, then line it up (offset, one square, opacity).

Pure markup from the draft's placement (engine/map_image.py `MapImage`); its actions are
ui/controllers/map_image_ui.py's. Shown for a map of squares only (OSE detailed, Ogre).
"""
from __future__ import annotations

from ...engine import map_image
from ...engine.map_image import MapImage
from .html import Markup, esc, h

ACCEPT = ",".join(map_image.TYPES)


def _number(label: str, key: str, value: float, **attrs: str) -> Markup:
    return h("label", {"class_": "f"}, h("span", None, label),
             h("input", {"type": "number", "value": f"{value:g}", "data-action": f"map-image-set:{key}",
                         "data-testid": f"map-image-{key}", "aria-label": label, "inputmode": "decimal", **attrs}))


CELL = 10  # preview units a square, as the grid's


def preview(image: MapImage, width: int, height: int, url: str) -> Markup:
    """The map's squares over the image, small, to line it up by dragging it (ui/controllers/map_image_ui.py
    `pointer`); an image not read yet shows the squares alone."""
    left, top, w, h_ = (round(v, 3) for v in image.box(CELL))
    picture = (f'<image class="mi-img" href="{esc(url)}" x="{left:g}" y="{top:g}" width="{w:g}" height="{h_:g}" '
               f'opacity="{image.opacity:g}" preserveAspectRatio="none"/>') if url else ""
    lines = (f'<pattern id="mi-sq" width="{CELL}" height="{CELL}" patternUnits="userSpaceOnUse"><path '
             f'd="M{CELL} 0H0V{CELL}" fill="none" stroke="#3b382f" stroke-opacity="0.6" stroke-width="0.4"/>'
             f'</pattern><rect width="{width * CELL}" height="{height * CELL}" fill="url(#mi-sq)"/>')
    return Markup(f'<svg class="mi-preview" data-map-drag="" data-testid="map-image-preview" role="img" '
                  f'aria-label="The map image under the squares: drag it to line it up" '
                  f'viewBox="0 0 {width * CELL} {height * CELL}" xmlns="http://www.w3.org/2000/svg" '
                  f'style="width:100%;max-width:36rem;touch-action:none;cursor:move;background:#ece8dc">'
                  f'{picture}{lines}</svg>')


def render(image: MapImage | None, view: str, size: tuple[int, int] = (24, 16), url: str = "",
           taps: int | None = None) -> Markup | str:
    """The section, or "" where the field is not a grid; `size` the map's squares, `url` the image's, `taps`
    the corners tapped while lining it up by two taps (None when not)."""
    if view != "grid":
        return ""
    pick = h("div", {"class_": "row"},
             h("label", {"class_": "f"}, h("span", None, "Choose an image" if image is None else "Another image"),
               h("input", {"type": "file", "accept": ACCEPT, "data-action": "map-image-file",
                           "data-testid": "map-image-file", "aria-label": "Map image file"})),
             h("button", {"type": "button", "data-action": "map-image-paste", "data-testid": "map-image-paste"},
               "Paste an image"))
    hint = h("p", {"class_": "hint"}, f"PNG, JPEG or WebP, up to {map_image.MAX_BYTES // 1024 // 1024} MB, drawn "
             "under the squares (the walls go on top). Drag it below, or set its edges, to line it up. It is kept in this browser and in the saved file.")
    if image is None:
        return h("section", {"class_": "ed-map-image", "data-testid": "map-image-setup"},
                 h("h3", None, "Map image"), hint, pick)
    lo, hi = map_image.SQUARE_PX
    told = h("p", {"class_": "hint", "data-testid": "map-image-size"},
             f"{image.width} × {image.height} pixels; one square is {image.square:g} of them.")
    fields = h("div", {"class_": "row ed-map-fields"},
               _number("Left edge (squares)", "x", image.x, step="0.1"),
               _number("Top edge (squares)", "y", image.y, step="0.1"),
               _number("One square (image pixels)", "square", image.square, step="0.5", min=f"{lo:g}",
                       max=f"{hi:g}"),
               _number("Opacity (%)", "opacity", round(image.opacity * 100), step="5", min="10", max="100"))
    nudges = h("div", {"class_": "row", "role": "group", "aria-label": "Move the image a tenth of a square"},
               [h("button", {"type": "button", "data-action": f"map-image-nudge:{d}",
                             "data-testid": f"map-image-nudge-{d}", "aria-label": f"Move the image {d}"}, arrow)
                for d, arrow in (("left", "←"), ("up", "↑"), ("down", "↓"), ("right", "→"))])
    corners = h("div", {"class_": "row"},
                h("button", {"type": "button", "data-action": "map-image-corners", "data-testid": "map-image-corners",
                             "aria-pressed": "false" if taps is None else "true"},
                  "Line up by two taps" if taps is None else "Stop lining up"),
                h("span", {"class_": "hint", "role": "status", "data-testid": "map-image-corners-say"},
                  "" if taps is None else ("Tap one corner of a square drawn on the image, above." if taps == 0
                                           else "Now tap the opposite corner of that square.")))
    table = h("label", {"class_": "f f-bool"},
              h("input", {"type": "checkbox", "checked": image.table, "data-action": "map-image-set:table",
                          "data-testid": "map-image-table"}),
              h("span", None, "Show it on the table display"))
    remove = h("button", {"type": "button", "data-action": "map-image-remove", "data-testid": "map-image-remove",
                          "class_": "danger"}, "Remove the image")
    return h("section", {"class_": "ed-map-image", "data-testid": "map-image-setup"},
             h("h3", None, "Map image"), hint, told, preview(image, *size, url), corners, fields, nudges, table,
             pick, remove)
