package score_test

import (
	"math"
	"testing"

	"github.com/rdpcheck/rdpcheck/vectors/score"
)

// Parse never panics, whatever an answers file holds; what it accepts has
// exactly one outcome per answer, a positive tcId and an order above 1 (or
// none).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"{\"tcId\": 1, \"value\": 0.5}\n{\"tcId\": 2, \"error\": \"x\"}\n",
		"{\"tcId\": 3, \"value\": NaN, \"order\": Infinity}\n",
		"{\"tcId\": 4, \"unsupported\": true}\n{\"tcId\": 5, \"hang\": true}\n",
		"{\"tcId\": 6, \"error\": \"NotImplementedError: \"}\n",
		"tcId,value,order\n1,0x1p-1,2\n2,error\n3,unsupported\n4,hang\n5,-inf\n",
		"{\"tcId\": 1e400}", "1,", ",,,", "{", "",
	} {
		f.Add([]byte(s), "a.jsonl")
		f.Add([]byte(s), "a.csv")
	}
	// Every input the strict parser refuses (answers_test.go), kept as
	// seeds so the fuzzer starts at each refusal's edge.
	for _, c := range strictRefusals {
		f.Add([]byte(c.data), c.name)
	}
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		ans, err := score.Parse(data, name, "auto")
		if err != nil {
			return
		}
		for id, a := range ans {
			n := 0
			for _, b := range []bool{a.Rejected, a.Unsupported, a.Hang} {
				if b {
					n++
				}
			}
			if n > 1 {
				t.Errorf("tcId %d: %+v has %d outcomes", id, a, n)
			}
			if id < 1 || !(math.IsNaN(a.Order) || a.Order > 1) {
				t.Errorf("tcId %d: %+v: a tcId below 1 or an order not above 1 accepted", id, a)
			}
		}
	})
}
