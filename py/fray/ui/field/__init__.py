"""The ui's field/ floor: the field views: bands, grid, ruler, declarations, the before-the-fight dialog."""
