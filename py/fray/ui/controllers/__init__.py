"""The ui's controllers/ floor: the handlers: each changes the desk and returns, none draws."""
