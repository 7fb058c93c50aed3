package verify

import (
	"io"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/reference"
	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

// TestExpansionCheck: where the two-term expansion in q applies it agrees
// with the reference to 1e-13; where higher terms dominate (alpha = 256,
// sigma = 0.5) it does not apply.
func TestExpansionCheck(t *testing.T) {
	for _, c := range []struct{ q, sigma, alpha float64 }{{1e-30, 1, 8}, {1e-100, 0.5, 32}, {1e-25, 2, 10.5}} {
		if !expansionValid(c.q, c.sigma, c.alpha) {
			t.Errorf("expansion not valid at %+v", c)
			continue
		}
		v, _ := reference.SGM(c.q, c.sigma, c.alpha)
		if r := schema.RelativeError(tinyQExpansion(c.q, c.sigma, c.alpha), v); !(r < 1e-13) {
			t.Errorf("%+v: reference %s, expansion %g", c, v.Text('g', 17), tinyQExpansion(c.q, c.sigma, c.alpha))
		}
	}
	for _, c := range []struct{ q, sigma, alpha float64 }{{1e-30, 0.5, 256}, {1e-10, 1, 2}, {1e-30, 0.5, 40.5}} {
		if expansionValid(c.q, c.sigma, c.alpha) {
			t.Errorf("expansion claimed valid at %+v", c)
		}
	}
}

// TestConfirm: two evaluations are confirmed when they agree to
// 2^-ConfirmBits relative at any magnitude (no float64 floor: the values
// near 1e-2600 must agree as closely as those near 1), and refused when
// they do not, or when one is 0 or infinite and the other is not.
func TestConfirm(t *testing.T) {
	// SetMantExp(z, z, exp) keeps z's precision (SetMantExp(z, mant, exp)
	// would take mant's).
	at := func(prec uint, mant float64, exp int) *big.Float {
		z := new(big.Float).SetPrec(prec).SetFloat64(mant)
		return z.SetMantExp(z, exp)
	}
	// rel returns b * (1 + 2^-bits) at CheckPrec.
	rel := func(b *big.Float, bits int) *big.Float {
		d := new(big.Float).SetPrec(CheckPrec).Set(b)
		d.SetMantExp(d, -bits)
		return d.Add(d, b)
	}
	one := at(RefPrec, 1, 0)
	tiny := at(RefPrec, 1, -8600) // about 1e-2589
	inf := new(big.Float).SetInf(false)
	for _, c := range []struct {
		name    string
		a, b    *big.Float
		wantErr string // "" when confirmed
	}{
		{"equal", one, at(CheckPrec, 1, 0), ""},
		{"2^-210 apart", rel(one, 210), one, ""},
		{"2^-190 apart", rel(one, 190), one, "at 256 bits"},
		{"tiny, 2^-210 apart", rel(tiny, 210), tiny, ""},
		{"tiny, 2^-190 apart", rel(tiny, 190), tiny, "at 256 bits"},
		{"both inf", inf, inf, ""},
		{"inf and finite", inf, one, "at 256 bits"},
		{"both zero", new(big.Float), new(big.Float), ""},
		{"zero and tiny", new(big.Float), tiny, "at 256 bits"},
		{"missing", one, nil, "missing value"},
	} {
		_, err := confirm(c.a, c.b)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: confirm = %v, want confirmed", c.name, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: confirm = %v, want an error containing %q", c.name, err, c.wantErr)
		}
	}
	// Between 2^-ConfirmBits and 2^-claimBits the value is written, with a
	// warning that the reference's stated accuracy is not met.
	if warn, err := confirm(rel(one, 230), one); err != nil || warn == "" {
		t.Errorf("2^-230 apart: confirm = %q, %v; want a warning and no error", warn, err)
	}
	if warn, err := confirm(rel(one, 260), one); err != nil || warn != "" {
		t.Errorf("2^-260 apart: confirm = %q, %v; want neither", warn, err)
	}
}

// Interval jobs (two certificates of one profile value) keep the
// intersection of their two intervals, refuse two that do not meet, and
// when sampling run only every SampleEvery-th AddSampled job.
func TestIntervalJobs(t *testing.T) {
	certs := func(a, b [2]float64) Eval {
		return func(c reference.Context, _ Points) (Out, error) {
			iv := a
			if c.Prec == Precs[1] {
				iv = b
			}
			return Out{Interval: true, Lo: iv[0], Hi: iv[1]}, nil
		}
	}
	e := New(io.Discard)
	meet := e.AddSampled("meet", certs([2]float64{1, 3}, [2]float64{2, 4}))
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if got := meet.Res[0]; !got.Interval || got.Lo != 2 || got.Hi != 3 {
		t.Errorf("intersection of [1, 3] and [2, 4] = %+v, want [2, 3]", got)
	}
	e = New(io.Discard)
	e.AddSampled("apart", certs([2]float64{1, 2}, [2]float64{2.5, 4}))
	if err := e.Run(); err == nil || !strings.Contains(err.Error(), "do not intersect") {
		t.Errorf("[1, 2] and [2.5, 4]: %v, want an error saying they do not intersect", err)
	}
	e = New(io.Discard)
	e.SampleEvery = 3
	var jobs []*Job
	for range 7 {
		jobs = append(jobs, e.AddSampled("s", certs([2]float64{1, 2}, [2]float64{1, 2})))
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	var copied []bool
	for _, j := range jobs {
		copied = append(copied, j.Copied)
	}
	if want := []bool{false, true, true, false, true, true, false}; !slices.Equal(copied, want) {
		t.Errorf("copied = %v, want %v", copied, want)
	}
}
