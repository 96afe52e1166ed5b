"""The map image drawn under the grid's squares (issue #55): the `<image>` from its blob URL, under the lines and
walls, placed and faded as set; the Setup section that lines it up, every value shown as text."""
from __future__ import annotations

from dataclasses import replace

import fray.rules  # noqa: F401  (installs the systems the loader looks up)
from fray.engine import map_image as mi
from fray.engine.session import Session
from fray.rules import get as get_ruleset
from fray.rules.ose.examples import detailed
from fray.ui.field import grid_svg, map_layer
from fray.ui.markup import map_image_markup
from fray.views.grid import grid_model

from test_map_image import png


def _model(image: mi.MapImage | None):
    enc = detailed(1)
    enc = replace(enc, map=replace(enc.map, image=image))
    s = Session(enc, ruleset=get_ruleset("ose"))
    return grid_model(s.state, s.ruleset)


def test_the_map_image_is_drawn_under_the_squares_and_walls_once_its_url_is_ready():
    image = mi.check(png(1600, 1200)).scaled(100).moved(-1, 0.5).faded(0.6)
    m = _model(image)
    assert "map-image" not in grid_svg.base_layer(m)  # its bytes not read yet: the grid alone, no broken image
    map_layer.URLS[image.key] = "blob:http://localhost/abc"
    drawn = grid_svg.base_layer(m)
    at = drawn.index('data-testid="map-image"')
    assert drawn.index('class="board"') < at < drawn.index('class="board-lines"') < drawn.index('class="walls"')
    s = grid_svg.S
    assert f'x="{-s}" y="{s // 2}" width="{16 * s}" height="{12 * s}" opacity="0.6"' in drawn
    assert 'pointer-events="none"' in drawn  # taps reach the squares and tokens


def test_a_grid_without_an_image_draws_as_before():
    assert "<image" not in grid_svg.base_layer(_model(None))


def test_the_setup_section_offers_an_image_for_a_grid_and_shows_its_placement():
    assert map_image_markup.render(None, "bands") == ""
    empty = str(map_image_markup.render(None, "grid"))
    assert 'type="file"' in empty and 'accept="image/png,image/jpeg,image/webp"' in empty and "Remove" not in empty
    image = mi.check(png(1400, 1050)).scaled(70).faded(0.5)
    shown = str(map_image_markup.render(image, "grid"))
    assert "1400 × 1050 pixels; one square is 70 of them." in shown
    assert 'data-testid="map-image-opacity" aria-label="Opacity (%)"' in shown and 'value="50"' in shown
    hidden = str(map_image_markup.render(replace(image, table=False), "grid"))
    assert shown.count("checked") == 1 and hidden.count("checked") == 0  # the table display's choice


def test_the_table_display_shows_the_image_only_where_the_referee_chooses():
    from fray.ui.markup import table_markup
    from fray.views.table_view import table_view
    image = mi.check(png(480, 320)).scaled(20).moved(0.5, 0)
    for shown in (True, False):
        enc = detailed(1)
        enc = replace(enc, map=replace(enc.map, image=replace(image, table=shown)))
        view = table_view(Session(enc, ruleset=get_ruleset("ose")).state, field="grid")
        if not shown:
            assert "image" not in view["grid"]
            continue
        assert view["grid"]["image"] == {"key": image.key, "box": [0.5, 0, 24, 16], "opacity": 0.7}
        assert "table-map-image" not in table_markup.grid_svg(view["grid"], {})  # no URL in this window yet
        # Only this window's own blob URL is drawn, never an address the message carries.
        for url, drawn in (("blob:http://localhost/1", True), ("javascript:alert(1)", False)):
            markup = str(table_markup.grid_svg({**view["grid"], "image": {**view["grid"]["image"], "url": url}}, {}))
            assert ("table-map-image" in markup) is drawn
            if drawn:
                cell = table_markup.CELL
                assert f'x="{0.5 * cell:g}" y="0" width="{24 * cell:g}" height="{16 * cell:g}"' in markup


def test_two_taps_on_the_preview_line_a_drawn_square_up_with_the_nearest_map_square():
    image = mi.check(png(1400, 1050)).scaled(50)  # the image's squares are 70 pixels: drawn too big
    # Its square at pixels (210, 140)-(280, 210) is drawn at map (4.2, 2.8)-(5.6, 4.2): tapped there.
    lined = mi.from_taps(image, (210 / 50, 140 / 50), (280 / 50, 210 / 50))
    assert (lined.square, lined.x, lined.y) == (70, 1, 1)  # that square is now map square (4, 3)
    shown = str(map_image_markup.render(image, "grid", taps=1))
    assert "Now tap the opposite corner of that square." in shown and 'aria-pressed="true"' in shown
