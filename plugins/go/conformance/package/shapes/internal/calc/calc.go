package calc

// Double returns twice x.
func Double(x float64) float64 { return 2 * x }
