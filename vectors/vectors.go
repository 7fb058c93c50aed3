// Package vectors embeds rdpcheck's golden test vectors for Rényi
// differential privacy accounting, so that Go implementations can import
// them:
//
//	for _, name := range vectors.Names() {
//		f, err := vectors.Load(name)
//		...
//		for _, g := range f.TestGroups {
//			for _, t := range g.Tests { ... }
//		}
//	}
//
// The files are written by cmd/gen-vectors (never by hand) in the format of
// package schema (the JSON Schema is schema/vectors.schema.json; README.md
// describes it for other languages): a header with the provenance of the
// values, notes explaining every flag, and groups of tests of one function
// with the relative tolerance a float64 implementation should reach. Inputs
// are float64 values in decimal and hex; expected values are exact to 50
// digits. A consumer should refuse a flag it does not know, as Wycheproof
// consumers do.
//
// Files: sgm_rdp.json (the sampled Gaussian mechanism by region),
// closed_forms.json, divergence.json, conversions.json, dpsgd.json,
// dpsgd_best.json (the same scenarios at the best order),
// invalid_inputs.json, and under tfprivacy/ the TF Privacy lineage's printed
// values against the truth (sgm_rdp.json, dpsgd_epsilon.json,
// expectations.json) with FINDINGS.md.
package vectors

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rdpcheck/rdpcheck/vectors/schema"
)

//go:embed *.json tfprivacy/*.json tfprivacy/FINDINGS.md README.md schema/vectors.schema.json schema/functions.json
var files embed.FS

// FS holds the vector files, FINDINGS.md, README.md and the schema
// (schema/vectors.schema.json), by their paths under vectors/.
var FS fs.FS = files

// Names returns the paths in FS of the vector files, sorted.
func Names() []string {
	var names []string
	fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".json" && !strings.HasPrefix(p, "schema/") {
			names = append(names, p)
		}
		return err
	})
	sort.Strings(names)
	return names
}

// Load parses the vector file at name (a path from Names).
func Load(name string) (*schema.File, error) {
	data, err := fs.ReadFile(files, name)
	if err != nil {
		return nil, err
	}
	return schema.Parse(data)
}
