from ..units import METRE


class Circle:
    def __init__(self, radius=METRE):
        self.radius = radius
