"""Only the package list, which pyproject.toml cannot say: the pnp* packages found in pnp/ plus the
three folders at the top of the repository installed inside it (see [tool.setuptools.package-dir])."""
from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["pnp", "pnp.*"]), "pnp.shipped.data", "pnp.shipped.templates",
                 "pnp.shipped.docs"])
