"""The ui's markup/ floor: pure functions from view models to markup, every text escaped."""
