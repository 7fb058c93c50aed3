// Package fuzz holds rdpcheck's native Go fuzz targets (go test -fuzz) for
// the numeric corners where float accountants break: FuzzSGM, FuzzDivergence,
// FuzzConversion, FuzzAccountant, and FuzzLaws (the laws of package
// properties through rapid.MakeFuzz). Each target checks that nothing
// panics, that invalid input gives a typed error, that valid input gives a
// finite or +Inf non-negative value, the laws on nearby inputs, and
// agreement with the reference at 64 bits where that is cheap.
//
// The seed corpus (f.Add and testdata/fuzz/FuzzName/) holds the known hard
// inputs; it runs with plain go test ./fuzz. See README.md for long runs.
package fuzz
