"""The pure engine: dice, model, geometry, state, session, storage (no browser imports)."""
