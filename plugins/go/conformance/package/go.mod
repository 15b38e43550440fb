module example.com/geo // the geometry module

go 1.21

require example.com/tools v0.1.0
