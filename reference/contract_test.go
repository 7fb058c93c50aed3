package reference_test

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/rdpcheck/rdpcheck"
	"github.com/rdpcheck/rdpcheck/reference"
)

// contractCtx is a low precision: these tests check what happens to
// slices and values, not digits.
var contractCtx = reference.Context{Prec: 64}

// A refCall is an exported function of reference that takes slices:
// float64 slices (fs) and RDP curves of *big.Float (bs).
type refCall struct {
	name string
	// runs, if not 0, bounds the property runs that call (the
	// reference's SGM costs 50 to 100 ms a curve)
	runs int
	draw func(t *rapid.T) (fs [][]float64, bs [][]*big.Float, call func(fs [][]float64, bs [][]*big.Float) ([]*big.Float, []float64, error))
}

func drawRefOrders(t *rapid.T, label string) []float64 {
	return rapid.SliceOfN(rapid.OneOf(
		rapid.SampledFrom([]float64{1.5, 2, 2.5, 3, 8, 32, math.Inf(1)}),
		rapid.Float64Range(1.01, 40),
	), 1, 4).Draw(t, label)
}

func drawBigCurve(t *rapid.T, n int, label string) []*big.Float {
	v := rapid.SliceOfN(rapid.Float64Range(0, 5), n, n).Draw(t, label)
	out := make([]*big.Float, n)
	for i, x := range v {
		out[i] = new(big.Float).SetFloat64(x)
	}
	return out
}

func drawRefDist(t *rapid.T, n int, label string) []float64 {
	w := rapid.SliceOfN(rapid.IntRange(1, 8), n, n).Draw(t, label)
	s := 0
	for _, x := range w {
		s += x
	}
	out := make([]float64, n)
	for i, x := range w {
		out[i] = float64(x) / float64(s) // within an ulp of summing to 1
	}
	return out
}

func drawRefBase(t *rapid.T) []float64 {
	d := rapid.SliceOfN(rapid.Float64Range(0, 1), 2, 6).Draw(t, "base")
	for i := 1; i < len(d); i++ {
		d[i] += d[i-1]
	}
	return d
}

func refCalls() []refCall {
	c := contractCtx
	one := func(v *big.Float, err error) ([]*big.Float, []float64, error) { return []*big.Float{v}, nil, err }
	withOrder := func(v *big.Float, o float64, err error) ([]*big.Float, []float64, error) {
		return []*big.Float{v}, []float64{o}, err
	}
	conv := func(t *rapid.T) reference.Conversion {
		return rapid.SampledFrom([]reference.Conversion{reference.Classic, reference.Improved}).Draw(t, "conv")
	}
	curve := func(t *rapid.T) ([][]float64, [][]*big.Float) {
		o := drawRefOrders(t, "orders")
		return [][]float64{o}, [][]*big.Float{drawBigCurve(t, len(o), "rdp")}
	}
	type fn = func(fs [][]float64, bs [][]*big.Float) ([]*big.Float, []float64, error)
	return []refCall{
		{"Epsilon", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			d, cv := rapid.Float64Range(1e-10, 0.5).Draw(t, "delta"), conv(t)
			fs, bs := curve(t)
			return fs, bs, func(fs [][]float64, bs [][]*big.Float) ([]*big.Float, []float64, error) {
				return withOrder(c.Epsilon(fs[0], bs[0], d, cv))
			}
		}},
		{"Delta", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			e, cv := rapid.Float64Range(0, 10).Draw(t, "eps"), conv(t)
			fs, bs := curve(t)
			return fs, bs, func(fs [][]float64, bs [][]*big.Float) ([]*big.Float, []float64, error) {
				return withOrder(c.Delta(fs[0], bs[0], e, cv))
			}
		}},
		{"GroupPrivacy", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			g, al := rapid.IntRange(0, 3).Draw(t, "groupLog2"), rapid.Float64Range(1.01, 4).Draw(t, "alpha")
			fs, bs := curve(t)
			return fs, bs, func(fs [][]float64, bs [][]*big.Float) ([]*big.Float, []float64, error) {
				return one(c.GroupPrivacy(fs[0], bs[0], g, al))
			}
		}},
		{"RepeatAndSelect", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			m, s, al := rapid.Float64Range(1, 5).Draw(t, "mean"), rapid.SampledFrom([]float64{0, 0.5, 1, math.Inf(1)}).Draw(t, "shape"), rapid.Float64Range(1.01, 4).Draw(t, "alpha")
			fs, bs := curve(t)
			return fs, bs, func(fs [][]float64, bs [][]*big.Float) ([]*big.Float, []float64, error) {
				return one(c.RepeatAndSelect(fs[0], bs[0], m, s, al))
			}
		}},
		{"Divergence", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			n, al := rapid.IntRange(2, 3).Draw(t, "n"), rapid.Float64Range(0, 5).Draw(t, "alpha")
			return [][]float64{drawRefDist(t, n, "P"), drawRefDist(t, n, "Q")}, nil, func(fs [][]float64, _ [][]*big.Float) ([]*big.Float, []float64, error) {
				return one(c.Divergence(fs[0], fs[1], al))
			}
		}},
		{"SampledDivergence", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			n, q, al := rapid.IntRange(2, 3).Draw(t, "n"), rapid.Float64Range(0, 1).Draw(t, "q"), rapid.Float64Range(1, 5).Draw(t, "alpha")
			return [][]float64{drawRefDist(t, n, "P"), drawRefDist(t, n, "Q")}, nil, func(fs [][]float64, _ [][]*big.Float) ([]*big.Float, []float64, error) {
				return one(c.SampledDivergence(q, fs[0], fs[1], al))
			}
		}},
		{"SampledDivergenceDirections", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			n, q, al := rapid.IntRange(2, 3).Draw(t, "n"), rapid.Float64Range(0, 1).Draw(t, "q"), rapid.Float64Range(1, 5).Draw(t, "alpha")
			return [][]float64{drawRefDist(t, n, "P"), drawRefDist(t, n, "Q")}, nil, func(fs [][]float64, _ [][]*big.Float) ([]*big.Float, []float64, error) {
				f, b, err := c.SampledDivergenceDirections(q, fs[0], fs[1], al)
				return []*big.Float{f, b}, nil, err
			}
		}},
		{"PoissonBound", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			q, al := rapid.Float64Range(0, 1).Draw(t, "q"), rapid.Float64Range(1, 7).Draw(t, "alpha")
			return [][]float64{drawRefBase(t)}, nil, func(fs [][]float64, _ [][]*big.Float) ([]*big.Float, []float64, error) {
				return one(c.PoissonBound(q, al, fs[0]))
			}
		}},
		{"WORBound", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			q, al := rapid.Float64Range(0, 1).Draw(t, "q"), rapid.Float64Range(1, 7).Draw(t, "alpha")
			return [][]float64{drawRefBase(t)}, nil, func(fs [][]float64, _ [][]*big.Float) ([]*big.Float, []float64, error) {
				return one(c.WORBound(q, al, rdpcheck.BaseCurve{Eps: fs[0], Inf: math.Inf(1)}))
			}
		}},
		{"SGMCurve", 12, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			// points where it costs 50 to 100 ms (integer orders: the
			// fractional ones cost seconds)
			q, s := rapid.SampledFrom([]float64{0, 0.01, 0.3, 0.999, 1}).Draw(t, "q"), rapid.SampledFrom([]float64{1, 2, 4}).Draw(t, "sigma")
			o := rapid.SliceOfN(rapid.SampledFrom([]float64{2, 3, 8, math.Inf(1)}), 1, 3).Draw(t, "orders")
			return [][]float64{o}, nil, func(fs [][]float64, _ [][]*big.Float) ([]*big.Float, []float64, error) {
				v, err := c.SGMCurve(q, s, 10, fs[0])
				return v, nil, err
			}
		}},
		{"WORGaussianCurve", 0, func(t *rapid.T) ([][]float64, [][]*big.Float, fn) {
			q, s := rapid.Float64Range(0, 1).Draw(t, "q"), rapid.Float64Range(0.5, 4).Draw(t, "sigma")
			o := rapid.SliceOfN(rapid.SampledFrom([]float64{2, 3, 4, 8, math.Inf(1)}), 1, 3).Draw(t, "orders")
			return [][]float64{o}, nil, func(fs [][]float64, _ [][]*big.Float) ([]*big.Float, []float64, error) {
				v, err := c.WORGaussianCurve(q, s, 10, fs[0])
				return v, nil, err
			}
		}},
	}
}

func cloneBig(bs [][]*big.Float) [][]*big.Float {
	out := make([][]*big.Float, len(bs))
	for i, b := range bs {
		out[i] = make([]*big.Float, len(b))
		for j, x := range b {
			out[i][j] = new(big.Float).Copy(x)
		}
	}
	return out
}

func cloneF(fs [][]float64) [][]float64 {
	out := make([][]float64, len(fs))
	for i, f := range fs {
		out[i] = slices.Clone(f)
	}
	return out
}

// text writes a run's results exactly, for comparison.
func text(vs []*big.Float, os []float64, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	s := ""
	for _, v := range vs {
		if v == nil {
			s += "nil "
			continue
		}
		s += v.Text('p', 0) + " "
	}
	return s + fmt.Sprint(os)
}

// TestSliceContract: reference's functions only read their slices (the
// float64 ones and the *big.Float values of an RDP curve), give the same
// answer when two inputs of equal contents are one slice, and return
// values of their own: no result is one of the caller's *big.Float, and
// changing a result changes no later one.
func TestSliceContract(t *testing.T) {
	t.Parallel()
	for _, c := range refCalls() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			n := 0
			rapid.Check(t, func(t *rapid.T) {
				if n++; c.runs > 0 && n > c.runs {
					return
				}
				checkRefCall(t, c)
			})
		})
	}
}

func checkRefCall(t *rapid.T, c refCall) {
	fs, bs, call := c.draw(t)
	f1, b1 := cloneF(fs), cloneBig(bs)
	v, o, err := call(f1, b1)
	want := text(v, o, err)
	if !slices.EqualFunc(f1, fs, slices.Equal) {
		t.Fatalf("%s changed its float64 slices: %v, were %v", c.name, f1, fs)
	}
	for i := range b1 {
		for j := range b1[i] {
			if b1[i][j].Cmp(bs[i][j]) != 0 {
				t.Fatalf("%s changed rdp[%d] to %v, was %v", c.name, j, b1[i][j], bs[i][j])
			}
			for _, r := range v {
				if r == b1[i][j] {
					t.Fatalf("%s returned the caller's rdp[%d] itself", c.name, j)
				}
			}
		}
	}
	if err == nil {
		for _, r := range v {
			if r != nil {
				r.SetFloat64(-12345)
			}
		}
		if v, o, err := call(cloneF(fs), cloneBig(bs)); text(v, o, err) != want {
			t.Fatalf("%s after the caller changed its last result: %s, want %s", c.name, text(v, o, err), want)
		}
	}
	for i := range fs {
		for j := range fs {
			if i == j || len(fs[i]) != len(fs[j]) {
				continue
			}
			apart := cloneF(fs)
			apart[j] = slices.Clone(fs[i])
			v, o, err := call(apart, cloneBig(bs))
			w := text(v, o, err)
			alias := cloneF(fs)
			alias[j] = alias[i]
			if v, o, err := call(alias, cloneBig(bs)); text(v, o, err) != w {
				t.Fatalf("%s with input %d the same slice as input %d: %s, want %s", c.name, j, i, text(v, o, err), w)
			}
		}
	}
}
