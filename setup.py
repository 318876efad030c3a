"""What pyproject.toml cannot say: the engines' optional compiled playouts (natives()) and the package list: pnp/ and the three folders at the top of
the repository installed inside it (see [tool.setuptools.package-dir]), each with every sub-folder
whose name Python could import (setuptools warns of any it was not told about; a folder such as
zombie-run is data to Python, and pyproject's package-data takes it whole)."""
from pathlib import Path

from setuptools import Extension, setup

SHIPPED = {"pnp.shipped.data": "data", "pnp.shipped.templates": "templates", "pnp.shipped.docs": "docs"}


def folders(package: str, top: str) -> list[str]:
    """`package` and the dotted names of `top`'s sub-folders that are importable names."""
    names = [package]
    for path in sorted(Path(top).rglob("*")):
        parts = path.relative_to(top).parts
        if path.is_dir() and all(part.isidentifier() for part in parts) and "__pycache__" not in parts:
            names.append(".".join((package, *parts)))
    return names


def natives() -> list[Extension]:
    """Every engine's compiled playout (pnp/**/_native.c, pnp.engines.native), optional: without a
    C compiler the build goes on and the engine plays in pure Python."""
    return [Extension(".".join(path.with_suffix("").parts), [str(path)], optional=True,
                      extra_compile_args=["-O2"])
            for path in sorted(Path("pnp").rglob("_native.c"))]


setup(ext_modules=natives(),
      packages=[name for package, top in {"pnp": "pnp", **SHIPPED}.items() for name in folders(package, top)])
