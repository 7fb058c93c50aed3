package laws

import (
	"reflect"
	"testing"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
	"github.com/rdpcheck/rdpcheck/vectors/vectorstest"
)

// notImplemented are the vector functions of the table (Funcs) that Fast
// and Reference leave nil, and why no law needs them; a function answered
// with a certified interval (schema.Function.Interval: the privacy profile
// of a run, pld's side, not an RDP value) is left out as well, by that
// flag.
var notImplemented = map[string]string{
	schema.DPSGDEpsilon: "SGMCurve then Epsilon, each under the laws",
}

// TestFuncsComplete: Fast and Reference set every function of the table
// but the ones above, so that a function added to vectorstest.Impl (the
// one declaration of the table) is not missed here; and each of the
// table's function fields is a vector function, so that the two names
// agree.
func TestFuncsComplete(t *testing.T) {
	ft := reflect.TypeFor[Funcs]()
	for _, im := range []*Impl{Fast(), Reference(64)} {
		v := reflect.ValueOf(im.Vectors())
		for i := range ft.NumField() {
			f := ft.Field(i)
			if f.Type.Kind() != reflect.Func || f.Name == "Known" {
				continue
			}
			fn := schema.Lookup(schema.Functions, f.Name)
			switch {
			case fn == nil:
				t.Errorf("Funcs.%s is no vector function of schema.Functions", f.Name)
			case fn.Interval || notImplemented[f.Name] != "":
				if !v.Field(i).IsNil() {
					t.Errorf("%s sets %s: remove it from notImplemented", im.Name, f.Name)
				}
			case v.Field(i).IsNil():
				t.Errorf("%s does not set %s: add it (and a law), or say in notImplemented why no law needs it", im.Name, f.Name)
			}
		}
	}
}

// TestReferenceVectors: the reference, handed over by Vectors, passes the
// vector groups of the closed forms and the trees (and by default the
// events, the tight zCDP parameters and the conversions): its adapters in
// Reference take their arguments in the table's order. The expected values
// are the reference's at 256 bits, confirmed at a second precision when
// the files were written; fast's own run is vectorstest's TestFast.
func TestReferenceVectors(t *testing.T) {
	files := []string{"closed_forms.json", "dgauss_tree_repeat.json"}
	if !testing.Short() {
		files = append(files, "events.json", "zcdp_tight.json", "conversions.json")
	}
	vectorstest.RunFiles(t, Reference(64).Vectors(), files...)
}
