package refs

import (
	"errors"
	str "strings"
)

type Reader interface {
	Read(p []byte) (int, error)
}

type ReadCloser interface {
	Reader
	Close() error
}

type Base struct{ ID int }

type Item struct {
	Base
	*errors.Frame
	Name string
}

func Collect[T any](xs []T, keep func(T) bool) (out []T) {
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return
}

func Use(r ReadCloser, items map[string]*Item) error {
	n, err := r.Read(nil)
	if err != nil {
		return errors.New(str.ToUpper("read"))
	}
	names := Collect[string](nil, func(s string) bool { return s != "" })
	item := Item{Name: "x", Base: Base{ID: n}}
	items[item.Name] = &item
	n++
	switch v := any(item).(type) {
	case Item:
		item = v
	}
	var total = len(names)
	_ = total
	return r.Close()
}
