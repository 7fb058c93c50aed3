package reference

import (
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"sync"
)

// DefaultPrec is the result precision, in bits, of the zero Context: 256 bits,
// 77 significant decimal digits, of which 76 are guaranteed.
const DefaultPrec = 256

// MaxWorkingPrec caps the working precision the Ziv loop may raise to.
const MaxWorkingPrec = 1 << 14

// Context holds the precision of results. Its zero value uses DefaultPrec.
type Context struct {
	// Prec is the result precision in bits; 0 means DefaultPrec. Values below
	// 64 are raised to 64.
	Prec uint
}

func (c Context) prec() uint {
	switch {
	case c.Prec == 0:
		return DefaultPrec
	case c.Prec < 64:
		return 64
	}
	return c.Prec
}

// ziv evaluates f at two working precisions and accepts the result when the
// two agree to prec+2 bits; otherwise it raises both and tries again, up to
// MaxWorkingPrec. Every truncation in f (series cut-offs, quadrature nodes,
// the precision of elementary functions) is tied to the working precision,
// so two evaluations at different precisions that agree to prec+2 bits are
// taken as correct to prec bits; the returned value is the more precise one
// rounded to prec bits, so its relative error is at most 2^(1-prec).
//
// An error from f at the lower precision is retried higher (cancellation may
// need more bits); an input error is returned at once.
func ziv(prec uint, f func(wp uint) (*big.Float, error)) (*big.Float, error) {
	lo := prec + 16
	vlo, errlo := f(lo)
	for hi := prec + 48; hi <= MaxWorkingPrec; hi += hi / 2 {
		vhi, errhi := f(hi)
		var ie *InputError
		if errors.As(errhi, &ie) || errors.Is(errhi, ErrTooLarge) {
			return nil, errhi
		}
		if errlo == nil && errhi == nil && agree(vlo, vhi, prec+2) {
			return newF(prec).Set(vhi), nil
		}
		vlo, errlo = vhi, errhi
	}
	if errlo != nil {
		return nil, fmt.Errorf("%w: %v", ErrPrecision, errlo)
	}
	return nil, fmt.Errorf("%w: no agreement to %d bits at working precision %d", ErrPrecision, prec, MaxWorkingPrec)
}

// agree reports whether |a-b| <= 2^-bits |b|. Two zeros never agree: a
// computed 0 means that everything cancelled at that working precision (a
// divergence of 5e-101 computed as log(1 + 1e-100) at 300 bits is 0 at both
// precisions), so the loop must go higher. Exact zeros are the callers' job:
// each function decides them in exact arithmetic before calling ziv.
func agree(a, b *big.Float, bits uint) bool {
	if a.IsInf() || b.IsInf() {
		return a.IsInf() && b.IsInf() && a.Sign() == b.Sign()
	}
	if a.Sign() == 0 || b.Sign() == 0 {
		return false
	}
	d := newF(b.Prec()+8).Sub(a, b)
	if d.Sign() == 0 {
		return true
	}
	return d.MantExp(nil) <= b.MantExp(nil)-int(bits)
}

// parallel runs f(0..n-1) on GOMAXPROCS goroutines and returns the first error.
func parallel(n int, f func(i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	next := make(chan int)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for range workers {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					once.Do(func() { firstErr = err })
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return firstErr
}
