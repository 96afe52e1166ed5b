"""The players' phones as markup: what a phone draws (its PC, then the table view) and the referee's Phones dialog.

A phone draws the markup its referee's page sends (static/phones/phone.mjs), so everything it shows is
built here from the phone's view (views/phone_view.py), every text escaped (`h`); the table part is the
table display's own markup (ui/markup/table_markup.py). Pure: no browser imports, tested in CPython.
"""
from __future__ import annotations

from typing import Any, Iterable

from . import table_markup
from .html import Markup, h


def phone_page(view: dict[str, Any]) -> Markup:
    """A phone's whole page: the party's PCs it may pick (first: a pick is made at pairing), its own PC (if it
    has one), then the table display's view."""
    me = view.get("me")
    mine = me if isinstance(me, dict) else None
    return h("div", {"class_": "phone-page"},
             party_pick(view.get("party") or [], str(mine.get("name", "")) if mine else ""),
             me_panel(mine) if mine else "", table_markup.page(view.get("table") or {}, controls=False))


def party_pick(party: list[dict[str, Any]], name: str) -> Markup:
    """The party's PCs this phone's player may claim (one tap, once), or nothing when the pick is settled."""
    if not party:
        return Markup("")
    ask = f"Not {name}? Tap your character:" if name else "Which character is yours? Tap it:"
    return h("section", {"class_": "me-pick", "data-testid": "phone-party", "aria-label": "Pick your character"},
             h("p", {}, ask),
             h("ul", {}, [h("li", {}, h("button", {"type": "button", "data-claim": str(c["id"]),
                                                  "data-testid": "phone-claim"}, c["name"])) for c in party]))


def me_panel(me: dict[str, Any]) -> Markup:
    """Its PC: name, HP, conditions with time left, "Your turn", the faces asked, the options it may propose."""
    turn = bool(me.get("turn"))
    pc = str(me.get("id", ""))
    conds = [str(c) for c in me.get("conditions") or ()]
    options = me.get("options") or []
    return h("section", {"class_": "me" + (" is-turn" if turn else ""), "data-testid": "phone-me",
                         "data-turn": "true" if turn else "false", "data-pc": pc, "aria-label": "Your character"},
             h("div", {"class_": "me-head"},
               h("h2", {"class_": "me-name", "data-testid": "phone-pc"}, me.get("name", "")),
               h("span", {"class_": "me-hp", "data-testid": "phone-hp"}, "HP ", me.get("hp", ""))),
             h("p", {"class_": "me-turn", "data-testid": "phone-turn"}, "Your turn") if turn else "",
             h("ul", {"class_": "me-conds", "data-testid": "phone-conditions"}, [h("li", {}, c) for c in conds])
             if conds else "",
             ask_form(pc, me["ask"]) if isinstance(me.get("ask"), dict) else "",
             h("ul", {"class_": "me-options", "data-testid": "phone-options", "aria-label": "Propose an action"},
               [h("li", {}, h("button", {"type": "button", "data-propose": str(o["index"]), "data-label": o["label"],
                                         "data-pc": pc, "data-testid": "phone-option"},
                              h("span", {}, o["label"]), h("span", {"class_": "fig"}, o.get("figure", ""))))
                for o in options]) if options else "")


def ask_form(pc: str, ask: dict[str, Any]) -> Markup:
    """The faces the referee's page waits for: one number field per die."""
    sides, count = int(ask.get("sides", 6)), int(ask.get("count", 1))
    return h("form", {"class_": "me-ask", "data-faces": str(ask.get("id", 0)), "data-sides": str(sides),
                      "data-pc": pc, "data-testid": "phone-ask"},
             h("label", {"for": "phone-f0"}, "Roll ", ask.get("words", "")),
             [h("input", {"id": f"phone-f{i}", "name": f"f{i}", "type": "number", "inputmode": "numeric",
                          "min": "1", "max": str(sides), "required": True, "aria-label": f"Face {i + 1} of d{sides}",
                          "data-testid": "phone-face"}) for i in range(count)],
             h("button", {"type": "submit", "data-testid": "phone-send-faces"}, "Send"))


# --- the referee's side ---------------------------------------------------------------------------

def dialog(offer_url: str, qr_svg: str, problem: str, rows: Iterable[dict[str, Any]],
           pcs: Iterable[tuple[str, str]], warnings: Iterable[str], stun: str = "", direct: bool = False,
           settings_shown: bool = False) -> Markup:
    """The Phones dialog: the offer to scan or copy, the answer's paste box, the phones paired (a row's `lost`:
    its connection is gone, and its "New code" says whose phone is back), the warnings, the settings (a STUN
    server for players elsewhere; players' choices applied at once)."""
    pcs = list(pcs)
    names = dict(pcs)
    offer = h("div", {"class_": "phones-offer"},
              h("div", {"class_": "phones-qr", "data-testid": "phones-qr"}, Markup(qr_svg)) if qr_svg else "",
              h("label", {"for": "phones-link"}, "Or send this link to the player:"),
              h("textarea", {"id": "phones-link", "readonly": True, "rows": "3", "data-testid": "phones-offer"},
                offer_url)) if offer_url else h("p", {"class_": "muted"}, "Making a code…")
    answer = h("form", {"class_": "phones-answer", "data-action": "phone-answer", "data-testid": "phones-answer-form"},
               h("label", {"for": "phones-answer"}, "2. Paste the code the phone shows (or scan it):"),
               h("textarea", {"id": "phones-answer", "name": "answer", "rows": "3", "maxlength": "2000",
                              "autocomplete": "off", "spellcheck": "false", "data-testid": "phones-answer"}),
               h("button", {"type": "submit", "data-testid": "phones-connect"}, "Connect"), " ",
               h("button", {"type": "button", "data-action": "phones-scan", "data-testid": "phones-scan"},
                 "Scan it with the camera"),
               h("p", {"class_": "why", "role": "alert", "data-testid": "phones-problem"}, problem))
    listed = [h("li", {"class_": "phones-row", "data-testid": "phones-row"},
                h("span", {"class_": "phones-name"}, f"Phone {r['id']}"),
                h("select", {"data-action": f"phone-pc:{r['id']}", "aria-label": f"Phone {r['id']} plays",
                             "data-testid": "phones-pc"},
                  h("option", {"value": "", "selected": not r["pc"]}, "no PC yet"),
                  [h("option", {"value": cid, "selected": cid == r["pc"]}, name) for cid, name in pcs]),
                h("span", {"class_": "phones-status", "data-testid": "phones-status"}, r["status"]),
                h("button", {"type": "button", "data-action": f"phone-again:{r['id']}", "data-testid": "phones-again",
                             "class_": "phones-back" if r.get("lost") else None,
                             "title": "A new code for this phone (after it locked or reloaded): its PC is kept"},
                  f"{names.get(r['pc'], 'This')}'s phone is back? New code" if r.get("lost") else "New code"),
                h("button", {"type": "button", "data-action": f"phone-drop:{r['id']}", "data-testid": "phones-drop"},
                  "Drop"))
              for r in rows]
    warned = list(warnings)
    return h("div", {"class_": "modal phones-modal", "data-testid": "phones-dialog"},
             h("div", {"class_": "modal-box phones", "role": "dialog", "aria-modal": "true",
                       "aria-labelledby": "phones-title"},
               h("h2", {"id": "phones-title"}, "Players' phones"),
               h("p", {"class_": "muted"}, "Each player's phone shows the fight as the table display does, and its "
                 "own character. Phones and this device must be on the same network."),
               h("h3", {}, "1. The player scans this code with the phone's camera"), offer, answer,
               h("h3", {}, "Paired phones"),
               h("ul", {"class_": "phones-list", "data-testid": "phones-list"}, listed) if listed
               else h("p", {"class_": "muted"}, "None yet."),
               h("section", {"class_": "phones-warnings", "data-testid": "phones-warnings"},
                 h("h3", {}, "Refused from phones"), h("ul", {}, [h("li", {}, w) for w in warned]))
               if warned else "",
               settings(stun, direct, settings_shown),
               h("div", {"class_": "dialog-actions"},
                 h("button", {"type": "button", "data-action": "phones-new", "data-testid": "phones-new"},
                   "Another phone"),
                 h("button", {"type": "button", "data-action": "phones-close", "data-testid": "phones-close"},
                   "Close"))))


def settings(stun: str, direct: bool, shown: bool) -> Markup:
    """The settings, behind their button (the dialog is drawn again on every change: its state is Python's)."""
    toggle = h("button", {"type": "button", "data-action": "phones-settings", "aria-expanded": str(shown).lower(),
                          "data-testid": "phones-settings"}, "Settings")
    if not shown:
        return toggle
    return h("section", {"class_": "phones-settings"}, toggle,
             h("label", {}, h("input", {"type": "checkbox", "data-action": "phones-direct", "checked": direct,
                                        "data-testid": "phones-direct"}),
               " Apply players' choices at once (no tap of mine)"),
             h("form", {"data-action": "phones-stun", "class_": "phones-stun"},
               h("label", {"for": "phones-stun"}, "STUN server, for players on another network (none: this network "
                 "only, no internet needed)"),
               h("input", {"id": "phones-stun", "name": "stun", "value": stun, "maxlength": "200",
                           "placeholder": "stun:stun.example.org:3478", "data-testid": "phones-stun",
                           "autocomplete": "off", "spellcheck": "false"}),
               h("button", {"type": "submit", "data-testid": "phones-stun-save"}, "Save")))


def proposal_bar(who: str, label: str) -> Markup:
    """A phone's proposed action, where the referee looks: one tap applies it (through the same checks)."""
    return h("div", {"class_": "phones-proposal", "role": "status", "data-testid": "phone-proposal"},
             h("span", {}, f"{who}'s player proposes: ", h("strong", {}, label)),
             h("button", {"type": "button", "data-action": "phone-apply", "data-testid": "phone-apply"}, "Apply"),
             h("button", {"type": "button", "data-action": "phone-dismiss", "data-testid": "phone-dismiss"},
               "Dismiss"))
