package reference_test

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
	"testing"

	"github.com/rdpcheck/rdpcheck/oracles"
	"github.com/rdpcheck/rdpcheck/reference"
)

// The dynamic programme against oracles.TreeSquareSumBrute (every
// admissible set of leaves enumerated), exactly, on every small tree.
func TestTreeSensitivitySquareSumBrute(t *testing.T) {
	maxN := 16
	if testing.Short() {
		maxN = 11
	}
	for n := 0; n <= maxN; n++ {
		for m := 0; m <= 5; m++ {
			for s := 0; s <= 4; s++ {
				got, err := reference.TreeSensitivitySquareSum(n, m, s)
				if err != nil {
					t.Fatal(err)
				}
				want, err := oracles.TreeSquareSumBrute(n, m, s)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("TreeSensitivitySquareSum(%d, %d, %d) = %d, brute force %d", n, m, s, got, want)
				}
			}
		}
	}
}

// One participation is the path of the deepest leaf: floor(log2 n) + 1,
// the depth TreeAggregation uses; and with no separation every leaf may be
// chosen, each node of width w then holding w of them: the sum over levels
// of (n / 2^h) 4^h for n a power of two, i.e. n (2n - 1).
func TestTreeSensitivitySquareSumClosed(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 8, 1000, 1 << 20, 1<<20 + 1} {
		got, err := reference.TreeSensitivitySquareSum(n, 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(bits.Len(uint(n))); got != want {
			t.Errorf("TreeSensitivitySquareSum(%d, 1, 3) = %d, want %d", n, got, want)
		}
	}
	for _, n := range []int{1, 2, 4, 8, 32} {
		got, err := reference.TreeSensitivitySquareSum(n, n, 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(n * (2*n - 1)); got != want {
			t.Errorf("TreeSensitivitySquareSum(%d, %d, 0) = %d, want %d", n, n, got, want)
		}
	}
}

// TreeAggregation is alpha k/(2 sigma^2) with k the depth of the deepest
// tree (one tree) or the depths summed (every tree): exact rationals.
func TestTreeAggregation(t *testing.T) {
	for _, c := range []struct {
		steps    []int
		restarts reference.TreeRestarts
		k        int64
	}{
		{[]int{1}, reference.TreeOneTree, 1},
		{[]int{7}, reference.TreeOneTree, 3},
		{[]int{8}, reference.TreeOneTree, 4},
		{[]int{8, 100, 0}, reference.TreeOneTree, 7},
		{[]int{8, 100, 0}, reference.TreeEveryTree, 11},
		{[]int{0, 0}, reference.TreeEveryTree, 0},
		{[]int{1<<62 - 1}, reference.TreeOneTree, 62},
	} {
		for _, a := range []float64{0, 1.5, 32, 1e6} {
			const sigma = 1.3
			got, err := reference.TreeAggregation(sigma, c.steps, c.restarts, a)
			if err != nil {
				t.Fatal(err)
			}
			want := new(big.Rat).SetFloat64(a)
			want.Mul(want, big.NewRat(c.k, 1))
			s := new(big.Rat).SetFloat64(sigma)
			want.Quo(want, s.Mul(s, s).Mul(s, big.NewRat(2, 1)))
			w := new(big.Float).SetPrec(256).SetRat(want)
			if got.Cmp(w) != 0 {
				t.Errorf("TreeAggregation(%v, %v, %g) = %s, want %s", c.steps, c.restarts, a, got.Text('g', 30), w.Text('g', 30))
			}
		}
	}
	got, _ := reference.TreeAggregation(1, []int{3}, reference.TreeOneTree, math.Inf(1))
	if !got.IsInf() {
		t.Errorf("alpha = +Inf: %v, want +Inf", got)
	}
	got, _ = reference.TreeAggregation(1, []int{0}, reference.TreeOneTree, math.Inf(1))
	if got.Sign() != 0 || got.IsInf() {
		t.Errorf("alpha = +Inf, no steps: %v, want 0", got)
	}
}

func TestTreeErrors(t *testing.T) {
	for i, f := range []func() error{
		func() error { _, err := reference.TreeAggregation(0, []int{1}, reference.TreeOneTree, 2); return err },
		func() error {
			_, err := reference.TreeAggregation(math.NaN(), []int{1}, reference.TreeOneTree, 2)
			return err
		},
		func() error { _, err := reference.TreeAggregation(1, nil, reference.TreeOneTree, 2); return err },
		func() error {
			_, err := reference.TreeAggregation(1, []int{3, -1}, reference.TreeEveryTree, 2)
			return err
		},
		func() error { _, err := reference.TreeAggregation(1, []int{3}, reference.TreeOneTree, -1); return err },
		func() error { _, err := reference.TreeAggregation(1, []int{3}, 7, 2); return err },
		func() error { _, err := reference.TreeMultiParticipation(1, -1, 1, 1, 2); return err },
		func() error { _, err := reference.TreeMultiParticipation(1, 5, -1, 1, 2); return err },
		func() error { _, err := reference.TreeMultiParticipation(1, 5, 1, -1, 2); return err },
		func() error { _, err := reference.TreeMultiParticipation(-2, 5, 1, 1, 2); return err },
	} {
		var ie *reference.InputError
		if err := f(); !errors.As(err, &ie) {
			t.Errorf("case %d: error %v, want an InputError", i, err)
		}
	}
	_, err := reference.TreeSensitivitySquareSum(1<<40, 1000, 1000)
	if !errors.Is(err, reference.ErrTooLarge) {
		t.Errorf("huge tree: %v, want ErrTooLarge", err)
	}
}

// Values printed by TF Privacy's tree_aggregation_accountant
// (_max_tree_sensitivity_square_sum(max_participation, min_separation,
// steps), tensorflow/privacy commit 03035d5d, Python 3 with numpy stubbed
// by math: the function uses only inf, isinf and isscalar); beyond the
// brute force's reach. TF raises ValueError (max of an empty list) for
// steps = 0 or max_participation = 0, where this package returns 0.
func TestTreeSensitivitySquareSumTF(t *testing.T) {
	for _, c := range []struct {
		n, m, s int
		want    int64
	}{
		{16, 3, 2, 29}, {100, 5, 10, 67}, {1000, 4, 50, 72}, {37, 6, 3, 86}, {2000, 20, 99, 425},
	} {
		if testing.Short() && c.n >= 2000 {
			continue
		}
		got, err := reference.TreeSensitivitySquareSum(c.n, c.m, c.s)
		if err != nil || got != c.want {
			t.Errorf("TreeSensitivitySquareSum(%d, %d, %d) = %d, %v; TF Privacy %d", c.n, c.m, c.s, got, err, c.want)
		}
	}
}

// A separation above the number of leaves allows one participation: the
// path of the deepest leaf, floor(log2 n) + 1 nodes. The tables were
// (m+1) (s+1)^2 entries whatever n: s = 2^20 at n = 3 asked for 16 TiB
// (found by fast's TestContractSpecialInputs).
func TestTreeSeparationBeyondLeaves(t *testing.T) {
	for _, c := range []struct {
		n, m, s int
		caught  string
	}{
		{3, 1 << 53, 1 << 20, "16 TiB of tables at n = 3"},
		{1000, 5, 5000, "separation above n"},
		{1 << 20, 3, math.MaxInt, "separation MaxInt"},
		{5, 2, 5, "separation n"},
	} {
		got, err := reference.TreeSensitivitySquareSum(c.n, c.m, c.s)
		if want := int64(bits.Len64(uint64(c.n))); err != nil || got != want {
			t.Errorf("%s: TreeSensitivitySquareSum(%d, %d, %d) = %d, %v, want %d", c.caught, c.n, c.m, c.s, got, err, want)
		}
	}
	for n := 1; n <= 9; n++ {
		for s := n; s <= n+3; s++ {
			got, err := reference.TreeSensitivitySquareSum(n, 3, s)
			want, werr := oracles.TreeSquareSumBrute(n, 3, s)
			if err != nil || werr != nil || got != want {
				t.Errorf("TreeSensitivitySquareSum(%d, 3, %d) = %d, %v; brute force %d, %v", n, s, got, err, want, werr)
			}
		}
	}
}
