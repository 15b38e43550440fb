"""Shapes, re-exported from their modules."""

from .geometry import Circle
from .geometry.area import area as compute_area
from . import units

__all__ = ["Circle", "compute_area", "units"]
