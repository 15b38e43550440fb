// Package shapes measures plane figures.
package shapes

import "fmt"

// Unit is how lengths are counted.
type Unit int

// Units of length.
const (
	// Millimetre is the smallest unit.
	Millimetre Unit = iota
	Centimetre
	metre
)

// Origin and scale of the plane.
var Origin, scale = Point[int]{}, 1.0

var (
	// Registry keeps the known shapes.
	Registry = map[string]Shape{}
	count    int // how many were made
	hidden   bool
)

// Measure is an alias kept for old callers.
type Measure = float64

// Shape is anything with an area.
type Shape interface {
	fmt.Stringer
	Sized
	// Area returns the surface.
	Area() float64
	perimeter() float64
}

// Number is a type-set constraint.
type Number interface {
	~int | ~float64
}

// Point is a position on the plane.
type Point[T Number] struct {
	// X and Y are coordinates.
	X, y T `json:"x"`
	Base
	*fmt.Formatter
	label string // shown in plots
	Tag   string
}

// Move shifts the point.
//
//go:noinline
func (p *Point[T]) Move(dx, dy T) {
	p.X += dx
}

func (p Point[T]) String() string { return fmt.Sprint(p.X) }

// Sum adds numbers.
func Sum[T Number, U any](xs []T, _ U) (total T) {
	type pair struct{ a, b T }
	for _, x := range xs {
		total += x
	}
	return total
}

func helper() {}
