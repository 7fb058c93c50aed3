package oracles

import (
	"errors"
	"math/big"
	"testing"
)

func rats(s ...string) []*big.Rat {
	out := make([]*big.Rat, len(s))
	for i, x := range s {
		out[i], _ = new(big.Rat).SetString(x)
	}
	return out
}

func TestDiscreteMomentRatExact(t *testing.T) {
	// hand computation: p = (1/2, 1/2), q = (1/4, 3/4), alpha = 2:
	// (1/4)/(1/4) + (1/4)/(3/4) = 4/3; alpha = 3: (1/8)/(1/16) + (1/8)/(9/16) = 2 + 2/9 = 20/9
	for _, c := range []struct {
		a    int64
		want string
	}{{2, "4/3"}, {3, "20/9"}} {
		m, err := DiscreteMomentRat(rats("1/2", "1/2"), rats("1/4", "3/4"), c.a)
		if err != nil {
			t.Fatal(err)
		}
		if m.RatString() != c.want {
			t.Errorf("alpha=%d: moment %s, want %s", c.a, m.RatString(), c.want)
		}
	}
	// p_i = 0 terms vanish: p = (0, 1), q = (1/3, 2/3): 1/(2/3) = 3/2
	m, err := DiscreteMomentRat(rats("0", "1"), rats("1/3", "2/3"), 2)
	if err != nil || m.RatString() != "3/2" {
		t.Errorf("zero p term: %v %v, want 3/2", m, err)
	}
	// q_i = 0 with p_i > 0: +Inf
	if _, err := DiscreteMomentRat(rats("1/2", "1/2"), rats("0", "1"), 2); !errors.Is(err, ErrInfinite) {
		t.Errorf("q_i = 0: err = %v, want ErrInfinite", err)
	}
}

// Near-equal distributions: p = (1/2+e, 1/2-e), q = (1/2, 1/2), alpha = 2:
// moment = 1 + 4 e^2 exactly (hand computation), so D_2 = log1p(4 e^2),
// which for e = 2^-100 is 4e^2 - 8e^4 + ... (series; e^6 term below 1e-300).
func TestDiscreteRenyiRatNearEqual(t *testing.T) {
	e := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 100))
	half := big.NewRat(1, 2)
	p := []*big.Rat{new(big.Rat).Add(half, e), new(big.Rat).Sub(half, e)}
	q := []*big.Rat{half, half}
	got, err := DiscreteRenyiRat(p, q, 2, testPrec)
	if err != nil {
		t.Fatal(err)
	}
	x := new(big.Rat).Mul(e, e)
	x.Mul(x, big.NewRat(4, 1)) // 4e^2
	x2 := new(big.Rat).Mul(x, x)
	x2.Quo(x2, big.NewRat(2, 1))
	x3 := new(big.Rat).Mul(x2, x)
	x3.Mul(x3, big.NewRat(2, 3))
	w := new(big.Rat).Sub(x, x2)
	w.Add(w, x3) // x - x^2/2 + x^3/3
	expectDigits(t, "log1p(4e^2)", got, newF(400).SetRat(w), 70)
}

func TestDiscreteBadInput(t *testing.T) {
	cases := []struct {
		name string
		p, q []*big.Rat
		a    int64
	}{
		{"empty", nil, nil, 2},
		{"length", rats("1"), rats("1/2", "1/2"), 2},
		{"negative", rats("3/2", "-1/2"), rats("1/2", "1/2"), 2},
		{"sum p", rats("1/2", "1/3"), rats("1/2", "1/2"), 2},
		{"sum q", rats("1/2", "1/2"), rats("1/2", "2/3"), 2},
		{"nil", []*big.Rat{nil, big.NewRat(1, 1)}, rats("1/2", "1/2"), 2},
		{"alpha", rats("1/2", "1/2"), rats("1/2", "1/2"), 1},
	}
	for _, c := range cases {
		if _, err := DiscreteMomentRat(c.p, c.q, c.a); !isInputErr(err) {
			t.Errorf("%s: err = %v, want *InputError", c.name, err)
		}
		if _, err := DiscreteRenyiRat(c.p, c.q, c.a, testPrec); !isInputErr(err) {
			t.Errorf("%s (Renyi): err = %v, want *InputError", c.name, err)
		}
	}
}
