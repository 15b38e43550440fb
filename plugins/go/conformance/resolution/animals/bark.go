package animals

// Bark is what the dog says.
func (d *Dog) Bark() string {
	return d.Name + "!"
}
