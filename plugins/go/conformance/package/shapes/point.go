// Package shapes holds plane figures.
package shapes

import "example.com/geo/shapes/internal/calc"

// Point is a position on the plane.
type Point struct {
	X, Y float64
}

// NewPoint makes a point at (x, x).
func NewPoint(x float64) Point {
	return Point{X: x, Y: calc.Double(x)}
}
