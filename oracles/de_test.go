package oracles

import (
	"math/big"
	"testing"

	"github.com/ALTree/bigfloat"
)

// The DE engine on integrals with textbook values.
func TestDEKnownIntegrals(t *testing.T) {
	t.Parallel()
	const wp = testPrec + 40
	tb := TargetBits(testPrec)
	one := fint(1, wp)
	// int_{-1}^{1} dx/(1+x^2) = pi/2 (poles at +-i: tanh-sinh).
	f1 := func(z *big.Float, _ float64) *big.Float {
		d := newF(wp).Mul(z, z)
		d.Add(d, one)
		return d.Quo(one, d)
	}
	s, st, err := deIntegrate([]*dePiece{newTanhSinhPiece(fint(-1, wp), one, wp)}, f1, tb)
	if err != nil {
		t.Fatal(err)
	}
	halfPi := new(big.Float).SetPrec(wp).Quo(piMachinTest(wp), fint(2, wp))
	expectDigits(t, "int 1/(1+x^2) = pi/2", s, halfPi, minDigits)
	t.Logf("1/(1+x^2): %+v", st)
	// int_0^1 sqrt(x) dx = 2/3 (endpoint singularity: tanh-sinh's strength).
	f2 := func(z *big.Float, _ float64) *big.Float { return newF(wp).Sqrt(z) }
	s, _, err = deIntegrate([]*dePiece{newTanhSinhPiece(newF(wp), one, wp)}, f2, tb)
	if err != nil {
		t.Fatal(err)
	}
	expectDigits(t, "int sqrt(x) = 2/3", s, newF(wp).Quo(fint(2, wp), fint(3, wp)), minDigits)
	// int_0^inf x e^{-x} dx = 1 and int_{-inf}^0 e^{3x} dx = 1/3 (exp-sinh).
	f3 := func(z *big.Float, _ float64) *big.Float {
		e := bigfloat.Exp(newF(wp).Neg(z))
		return e.Mul(e, z)
	}
	s, _, err = deIntegrate([]*dePiece{newExpSinhPiece(newF(wp), one, false, wp)}, f3, tb)
	if err != nil {
		t.Fatal(err)
	}
	expectDigits(t, "int x e^-x = 1", s, one, minDigits)
	f4 := func(z *big.Float, _ float64) *big.Float { return bigfloat.Exp(newF(wp).Mul(z, fint(3, wp))) }
	s, _, err = deIntegrate([]*dePiece{newExpSinhPiece(newF(wp), newF(wp).Quo(one, fint(3, wp)), true, wp)}, f4, tb)
	if err != nil {
		t.Fatal(err)
	}
	expectDigits(t, "int_{-inf}^0 e^{3x} = 1/3", s, newF(wp).Quo(one, fint(3, wp)), minDigits)
}

// piMachinTest is pi from its decimal expansion (provenance: published
// digits of pi), independent of the package's Machin series.
func piMachinTest(p uint) *big.Float {
	x, _, _ := new(big.Float).SetPrec(p).Parse("3.14159265358979323846264338327950288419716939937510"+
		"58209749445923078164062862089986280348253421170679", 10)
	return x
}

func TestPiLn2Constants(t *testing.T) {
	expectDigits(t, "pi", pi(320), piMachinTest(330), 95)
	// ln 2 published digits
	l2, _, _ := new(big.Float).SetPrec(340).Parse("0.69314718055994530941723212145817656807550013436025"+
		"52541206800094933936219696947156058633269964186875", 10)
	expectDigits(t, "ln2", ln2(320), l2, 95)
}
