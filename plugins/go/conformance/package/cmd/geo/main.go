package main

import (
	"fmt"
	s "example.com/geo/shapes"
	. "example.com/geo/shapes/internal/calc"
	_ "embed"

	"example.com/tools/lint"
)

import "os"

func main() {
	p := s.NewPoint(Double(1))
	p.Scale(2)
	var origin s.Point = s.Point{X: 0}
	fmt.Println(p.Dist(), origin, lint.Check())
	os.Exit(0)
}
