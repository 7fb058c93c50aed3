package reference

import (
	"math/big"
	"testing"
)

// relErr returns |got-want|/|want| as a float64, for digit counting.
func relErr(got, want *big.Float) float64 {
	d := new(big.Float).SetPrec(want.Prec()+64).Sub(got, want)
	if want.Sign() == 0 {
		f, _ := d.Float64()
		return abs(f)
	}
	d.Quo(d, want)
	f, _ := d.Float64()
	return abs(f)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func parse(t *testing.T, s string) *big.Float {
	t.Helper()
	f, _, err := big.ParseFloat(s, 10, 400, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Expected values: mpmath 1.3.0 at 90 decimal digits (mp.dps = 90), printed
// to 80 digits. Inputs are parsed at 400 bits on both sides.
func TestElementary(t *testing.T) {
	const prec = 256
	const tol = 1e-75 // 256 bits is 77 digits
	exps := []struct{ x, want string }{
		{"1", "2.7182818284590452353602874713526624977572470936999595749669676277240766303535476"},
		{"-3.5", "0.03019738342231850073978629236361984507166053224765700667134022308504472581036203"},
		{"700.25", "1.3022997366991783935335422386192166013495422384341132008901979494722912747789643e+304"},
		{"12345.678", "4.5691009592926589942508406944595593208997103383553452270369561175119590365291489e+5361"},
	}
	for _, c := range exps {
		x := parse(t, c.x)
		if e := relErr(expF(x, prec), parse(t, c.want)); e > tol {
			t.Errorf("expF(%s): rel err %g", c.x, e)
		}
	}
	if e := relErr(logF(parse(t, "1e-300"), prec), parse(t, "-690.77552789821370520539743640530926228033044658863189280999837029027178290320574")); e > tol {
		t.Errorf("logF(1e-300): rel err %g", e)
	}
	if e := relErr(log1pF(parse(t, "1e-40"), prec), parse(t, "9.9999999999999999999999999999999999999995e-41")); e > tol {
		t.Errorf("log1pF(1e-40): rel err %g", e)
	}
	if e := relErr(expm1F(parse(t, "1e-30"), prec), parse(t, "1.0000000000000000000000000000005000000000000000000000000000001666666666666666666666666666667e-30")); e > tol {
		t.Errorf("expm1F(1e-30): rel err %g", e)
	}
}

// Q(x) = erfc(x/sqrt2)/2 from mpmath 1.3.0 at 90 digits.
func TestNormTail(t *testing.T) {
	const prec = 256
	cases := []struct{ x, want string }{
		{"1", "0.15865525393145705141476745436796207752208703327339560901260554975700855801279517"},
		{"21", "3.2792780189790359397356806810374590842979229659596173991619597709353011711096858e-98"},
		{"30", "4.9067139271481870595338092565801904719969849413925105900632341142632301103086402e-198"},
		{"-2", "0.97724986805182079279971736283346656252822377629832156601633399986952370964722425"},
		{"5.5", "1.8989562465887719383851274033580186316357489119296793855675494657881582637080834e-8"},
		{"0.001", "0.49960105778608893741540967755567305873149675218522170081006142885474354191264223"},
	}
	for _, c := range cases {
		x := parse(t, c.x)
		q := normTail(x, prec)
		got := q.m
		if q.s != nil {
			got = new(big.Float).SetPrec(prec).Mul(q.m, expF(new(big.Float).Neg(q.s), prec))
		}
		if e := relErr(got, parse(t, c.want)); e > 1e-74 {
			t.Errorf("Q(%s): rel err %g", c.x, e)
		}
	}
}
