package main

import (
	"fmt"

	"example.com/zoo/animals"
)

func walk(d *animals.Dog) string {
	return d.Bark()
}

func main() {
	owner := animals.Person{Name: "Ann"}
	d := animals.NewDog("Rex", &owner)
	fmt.Println(walk(d), d.Owner.Name)
}
