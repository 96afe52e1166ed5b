"""Entry point that PyScript runs: start the Fray page."""
from fray.ui import app

app.start()
