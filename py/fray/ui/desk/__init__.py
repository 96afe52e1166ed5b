"""The ui's desk/ floor: what the page holds between taps, and the operations on it that draw nothing."""
