package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the transcripts in testdata/script run this test binary as
// the rdpcheck command, so each script exercises exactly what a user runs.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rdpcheck": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command-line transcripts: each file in
// testdata/script is one subcommand's documented uses and bad inputs, with
// the exact output and exit status a user sees.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(env *testscript.Env) error {
		env.Setenv("REPO", root) // the repository, for its vectors and peers' answers
		return nil
	}})
}
