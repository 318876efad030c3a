"""The text layer: fonts from PyPI packages and line layout with their real metrics."""
