import math

from .circle import Circle


def area(circle: Circle) -> float:
    return math.pi * circle.radius ** 2
