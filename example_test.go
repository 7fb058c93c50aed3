package rdpcheck_test

import (
	"errors"
	"fmt"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/fast"
	"github.com/rdpcheck/rdpcheck/reference"
)

// One Conversion value serves both packages: fast.Conversion and
// reference.Conversion are rdpcheck.Conversion. (The improved eps at order 32
// is 0.3 + log1p(-1/32) - (log 1e-5 + log 32)/31 = 0.52784.)
func ExampleConversion() {
	conv := rdpcheck.Improved
	orders, curve := []float64{2, 8, 32}, []float64{0.01, 0.05, 0.3}
	eps, order, err := fast.Epsilon(orders, curve, 1e-5, conv)
	fmt.Printf("%v: eps %.4f at order %v, err %v\n", conv, eps, order, err)
	fmt.Println(rdpcheck.Classic, fast.Classic == reference.Classic)
	// Output:
	// improved: eps 0.5278 at order 32, err <nil>
	// classic true
}

// The error kinds are shared: errors.Is answers the same whichever
// package's name is used, for an error from either package.
func ExampleErrInput() {
	_, ferr := fast.SGM(1.5, 1, 2)
	_, rerr := reference.SGM(1.5, 1, 2)
	for _, err := range []error{ferr, rerr} {
		fmt.Println(err)
		fmt.Println(errors.Is(err, rdpcheck.ErrInput), errors.Is(err, fast.ErrInput), errors.Is(err, reference.ErrInput))
	}
	var ie *rdpcheck.InputError
	if errors.As(rerr, &ie) {
		fmt.Printf("package %s, function %s, argument %s\n", ie.Pkg, ie.Func, ie.Arg)
	}
	// Output:
	// fast.SGM: q = 1.5: must be in [0, 1]
	// true true true
	// reference.SGM: q = 1.5: sampling rate must be in [0, 1]
	// true true true
	// package reference, function SGM, argument q
}

// Orders above MaxIntegerOrder are refused by both packages with the same
// kind of error.
func ExampleErrTooLarge() {
	_, ferr := fast.SGM(0.01, 1, rdpcheck.MaxIntegerOrder+1)
	_, rerr := reference.SGM(0.01, 1, rdpcheck.MaxIntegerOrder+1)
	fmt.Println(errors.Is(ferr, rdpcheck.ErrTooLarge), errors.Is(rerr, fast.ErrTooLarge))
	// Output:
	// true true
}
