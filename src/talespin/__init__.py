"""talespin: rules engines, exact odds and a live game table for Inciting Incident and Ascend.

The package is layered (imports flow one way):

``dice`` → ``systems`` → ``table`` → adapters (``cli``, ``web``, ``store``, ``lab``).
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
