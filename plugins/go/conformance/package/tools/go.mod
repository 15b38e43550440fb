module "example.com/tools"

go 1.21
