"""Fray: a combat table for tabletop referees (OLOG, OSE house rules, Ogre)."""
__version__ = "0.1.0"
