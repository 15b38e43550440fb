"""Shapes."""

import math
from dataclasses import dataclass

UNIT = 1.0
_registry = {}


# Not documentation: a blank line follows.

@dataclass
class Circle(Shape):
    """A circle.

    Its area grows with the square of the radius.
    """

    radius: float = UNIT

    def __init__(self, radius, label=None):
        self.radius = radius
        self._label = label

    @property
    def area(self) -> float:
        """The area."""
        return math.pi * self.radius ** 2

    async def fetch(self, *args, **kwargs):
        return None

    def _check(self):
        if self.radius < 0 and not self._label:
            raise ValueError(self._label)


def make(radius: float) -> Circle:
    return Circle(radius)
