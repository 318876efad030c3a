"""Adapters that put the rules engines behind other libraries' interfaces.

``pnp.adapters.pettingzoo``: a PettingZoo AEC environment per engine that declares its
``agent_encoding`` (the shipped games, and any plugin engine; docs/agents.md). It
needs the optional extra ``agents`` (``pip install 'pnp[agents]'``); this package imports nothing
heavy, so ``pnp`` itself never loads PettingZoo, Gymnasium or NumPy.
"""

EXTRA_HINT = "pip install 'pnp[agents]'"   # named by every ImportError of a missing extra
