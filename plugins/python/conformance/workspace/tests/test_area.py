from shapes import Circle, compute_area
import shapes.units


def test_area():
    assert compute_area(Circle(shapes.units.METRE)) > 3
