module github.com/filterengine/filterengine/gen

go 1.24

replace github.com/filterengine/filterengine => ../
