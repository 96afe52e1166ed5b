"""The ui's page/ floor: the one drawing order and each slot's drawing."""
