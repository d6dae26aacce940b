"""The dice engine: exact distributions, exploding dice, rolling, notation and sampling.

Nothing here does I/O or imports an adapter; randomness is always passed in.

>>> import random
>>> odds("2d6! + 1").distribution.p_at_least(20)
Fraction(17, 432)
>>> roll("3d6", random.Random(1)).to_json()["notation"]
'3d6'
"""

from .distribution import Distribution, Probability
from .errors import DiceError, FacesError, LimitExceeded, NotationError
from .exploding import add_exploding_die, exploding_die, exploding_mean, pool_total
from .expression_odds import DEFAULT_CAP, Odds, odds
from .fast import exploding_die_array, pool_total_array
from .grid import at_least_grid, at_least_grid_exact
from .notation import Constant, Dice, Expression, Part, SuccessCount, parse
from .roller import Chain, PoolRoll, Rng, chains_from_faces, generator, roll_chain, roll_pool
from .rolls import ExpressionRoll, PartRoll, roll, roll_from_faces
from .sampling import sample_exploding_die, sample_exploding_totals

__all__ = [
    "DEFAULT_CAP",
    "Chain",
    "Constant",
    "Dice",
    "DiceError",
    "Distribution",
    "Expression",
    "ExpressionRoll",
    "FacesError",
    "LimitExceeded",
    "NotationError",
    "Odds",
    "Part",
    "PartRoll",
    "PoolRoll",
    "Probability",
    "Rng",
    "SuccessCount",
    "add_exploding_die",
    "at_least_grid",
    "at_least_grid_exact",
    "chains_from_faces",
    "exploding_die",
    "exploding_die_array",
    "exploding_mean",
    "generator",
    "odds",
    "parse",
    "pool_total",
    "pool_total_array",
    "roll",
    "roll_chain",
    "roll_from_faces",
    "roll_pool",
    "sample_exploding_die",
    "sample_exploding_totals",
]
