package animals

// Dog barks.
type Dog struct {
	Name  string
	Owner *Person
}

// Person owns dogs.
type Person struct {
	Name string
}

// NewDog makes a dog.
func NewDog(name string, owner *Person) *Dog {
	return &Dog{Name: name, Owner: owner}
}
