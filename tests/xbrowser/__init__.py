"""Cross-engine journeys (a package, so its conftest is not the `conftest` that tests/e2e imports from)."""
