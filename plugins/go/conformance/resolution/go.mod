module example.com/zoo

go 1.21
