package shapes

import "math"

// Dist is the distance from the origin.
func (p Point) Dist() float64 {
	return math.Hypot(p.X, p.Y)
}

// Scale stretches the point in place.
func (p *Point) Scale(k float64) {
	p.X *= k
	p.Y *= k
}
