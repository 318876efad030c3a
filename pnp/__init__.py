"""pnp: a print-and-play forge for tabletop games."""

__version__ = "0.1.0"
