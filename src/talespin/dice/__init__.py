"""The dice engine: exact distributions, exploding dice, rolling and notation.

Nothing here does I/O or imports an adapter; randomness is always passed in.
"""

from .distribution import Distribution, Probability
from .errors import DiceError, FacesError, LimitExceeded, NotationError
from .exploding import exploding_die, exploding_mean, pool_total
from .fast import exploding_die_array, pool_total_array
from .roller import Chain, PoolRoll, Rng, chains_from_faces, roll_chain, roll_pool

__all__ = [
    "Chain",
    "DiceError",
    "Distribution",
    "FacesError",
    "LimitExceeded",
    "NotationError",
    "PoolRoll",
    "Probability",
    "Rng",
    "chains_from_faces",
    "exploding_die",
    "exploding_die_array",
    "exploding_mean",
    "pool_total",
    "pool_total_array",
    "roll_chain",
    "roll_pool",
]
