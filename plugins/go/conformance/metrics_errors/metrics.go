package metrics

// Classify names the sign of n.
func Classify(n int, strict bool) string {
	if n < 0 && strict {
		return "negative"
	} else if n == 0 || !strict {
		return "zero"
	} else {
		return "positive"
	}
}

// Drain reads until done or limit.
func Drain(ch chan int, done <-chan struct{}, limit int) (total int) {
	for i := 0; i < limit; i++ {
		select {
		case v := <-ch:
			switch {
			case v > 10:
				total += v
			case v < 0:
				return
			default:
			}
		case <-done:
			return
		}
	}
	add := func(x int) { total += x }
	add(1)
	return
}

type Stack struct{ items []int }

func (s *Stack) Push(a, b int) {
	s.items = append(s.items, a, b)
}
