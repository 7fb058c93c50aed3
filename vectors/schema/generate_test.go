package schema

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite vectors.schema.json from the function table")

// TestSchemaGenerated: the committed JSON Schema is the one the function
// table generates (go test ./vectors/schema -run TestSchemaGenerated -update
// rewrites it).
func TestSchemaGenerated(t *testing.T) {
	got := GenerateJSONSchema(Functions)
	table := GenerateFunctionTable(Functions)
	if *update {
		if err := os.WriteFile("vectors.schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("functions.json", table, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if disk, err := os.ReadFile("functions.json"); err != nil || !bytes.Equal(disk, table) {
		t.Errorf("functions.json is not GenerateFunctionTable(Functions) (%v): run go test ./vectors/schema -run TestSchemaGenerated -update", err)
	}
	var parsed struct{ Functions []struct{ Name string } }
	if err := json.Unmarshal(table, &parsed); err != nil || len(parsed.Functions) != len(Functions) {
		t.Errorf("functions.json: %v, %d functions", err, len(parsed.Functions))
	}
	if !bytes.Equal(got, JSON) {
		t.Errorf("vectors.schema.json is not GenerateJSONSchema(Functions): run go test ./vectors/schema -run TestSchemaGenerated -update")
	}
	if _, err := NewValidator(got); err != nil {
		t.Fatal(err)
	}
}

// TestForgetFunction: a function removed from the table is forgotten by
// the schema (not among the functions a group may name, no rule of its
// own) and by the lint (a group of it is refused).
func TestForgetFunction(t *testing.T) {
	var fns []Function
	for _, f := range Functions {
		if f.Name != Laplace {
			fns = append(fns, f)
		}
	}
	gen := string(GenerateJSONSchema(fns))
	if strings.Contains(gen, `"Laplace"`) {
		t.Errorf("the schema without Laplace still names it")
	}
	if !strings.Contains(string(GenerateJSONSchema(Functions)), `"Laplace"`) {
		t.Fatalf("the full schema does not name Laplace")
	}
	f := sample()
	g := f.TestGroups[0]
	g.Function = Laplace
	for _, tc := range g.Tests {
		tc.Q, tc.QHex, tc.Sigma, tc.SigmaHex = "", "", "", ""
		tc.SetFloat("b", 1)
	}
	data := encode(t, f)
	if errs := lintWith(fns, data); len(errs) == 0 {
		t.Errorf("a Laplace group passes the lint of a table without Laplace")
	}
	if errs := lintWith(Functions, data); len(errs) > 0 {
		t.Errorf("a Laplace group fails the full lint: %v", errs)
	}
}

// TestTableMatchesTest: every Float input of the table has its fields in
// Test (Float, SetFloat), and every function's inputs are in the table.
func TestTableMatchesTest(t *testing.T) {
	for _, in := range Inputs {
		if in.Kind == Float {
			if dec, _ := new(Test).scalar(in.Name); dec == nil {
				t.Errorf("input %s: no field in Test", in.Name)
			}
		}
	}
	for _, f := range Functions {
		for _, in := range f.Inputs {
			if InputOf(in) == nil {
				t.Errorf("%s: input %s not in Inputs", f.Name, in)
			}
		}
	}
}
