"""Boot the page (temporary probe)."""
from pyscript import document, window


def start() -> None:
    root = document.documentElement
    document.getElementById("app").hidden = False
    document.getElementById("boot").hidden = True
    root.dataset.ready = "true"
    window.performance.mark("fray-ready")
