module example.com/refs

go 1.22
