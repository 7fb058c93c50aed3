package dpevent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rdpcheck/rdpcheck/fast"
)

// deepComposed is a ComposedDpEvent nested depth levels deep, each level
// holding a Gaussian and the next level (the shape of a user's 407 KB,
// 4,900-deep file).
func deepComposed(depth int) []byte {
	g := `{"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}`
	var b strings.Builder
	for range depth {
		b.WriteString(`{"class_name": "ComposedDpEvent", "events": [` + g + `, `)
	}
	b.WriteString(g)
	b.WriteString(strings.Repeat("]}", depth))
	return []byte(b.String())
}

// wideComposed is a ComposedDpEvent of n Gaussians of three noises, as
// dp_accounting writes them (a user's 50 MB file held 497,900).
func wideComposed(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"event": {"class_name": "ComposedDpEvent", "events": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"class_name": "GaussianDpEvent", "module_name": "dp_accounting.dp_event", "noise_multiplier": %s}`, []string{"1.0", "2.0", "3.5"}[i%3])
	}
	b.WriteString(`]}, "neighboring_relation": "ADD_OR_REMOVE_ONE"}`)
	return []byte(b.String())
}

// nestedPoisson is PoissonSampledDpEvent (q = 0.1) nested depth deep
// around a Gaussian: every level but the innermost is Zhu and Wang's
// general bound of the curve below.
func nestedPoisson(depth int) []byte {
	s := `{"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}`
	for range depth {
		s = `{"class_name": "PoissonSampledDpEvent", "sampling_probability": 0.1, "event": ` + s + `}`
	}
	return []byte(s)
}

// benchFile reads, plans and accounts data (best-order epsilon at delta
// 1e-5), as rdpcheck account does.
func benchFile(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		p, err := NewPlan(f.Event, f.Relation)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Epsilon(1e-5, nil, fast.Improved); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeepFile: ComposedDpEvents nested 1,000 and 4,900 deep (issue
// 18's 407 KB file took 35 s and 3.15 GB): time and memory per byte
// should not grow with the depth.
func BenchmarkDeepFile(b *testing.B) {
	for _, depth := range []int{1000, 4900} {
		data := deepComposed(depth)
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) { benchFile(b, data) })
	}
}

// BenchmarkWideFile: 100,000 and 497,900 Gaussians in one ComposedDpEvent
// (a user's 50 MB file): linear in the number of leaves.
func BenchmarkWideFile(b *testing.B) {
	for _, n := range []int{100000, 497900} {
		data := wideComposed(n)
		b.Run(fmt.Sprintf("leaves=%d", n), func(b *testing.B) { benchFile(b, data) })
	}
}

// BenchmarkNestedPoisson: PoissonSampledDpEvent nested 2 to MaxNested+1
// deep around a Gaussian (every level but the innermost the general
// bound of the curve below): about one evaluation of the curve below at
// 1,023 orders per level.
func BenchmarkNestedPoisson(b *testing.B) {
	for depth := 2; depth <= MaxNested+1; depth++ {
		data := nestedPoisson(depth)
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) { benchFile(b, data) })
	}
}
