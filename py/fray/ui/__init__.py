"""The browser layer: the only package that may import pyscript or js."""
