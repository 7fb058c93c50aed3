module github.com/rdpcheck/rdpcheck

go 1.26

require (
	github.com/ALTree/bigfloat v0.2.0
	github.com/google/go-cmp v0.7.0
	gonum.org/v1/gonum v0.17.0
	pgregory.net/rapid v1.3.0
)
