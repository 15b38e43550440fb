package metrics

func Fine() int { return 1 }

func Broken( {
	x := 
}

type Later struct{}
