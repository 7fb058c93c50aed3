package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the transcripts in testdata/script run this test binary as
// the rdpcheck command, so each script exercises exactly what a user runs.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rdpcheck": func() {
			// progress lines depend on the machine's speed, so the
			// transcripts never see them (TestAccountProgress and TestCalibrationProgress check them)
			progressAfter = time.Hour
			os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
		},
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
	testscript.Run(t, testscript.Params{Dir: "testdata/script",
		// UPDATE_SCRIPTS=1 rewrites the expected files that cmp compares
		// (review the diff before committing it)
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", root) // the repository, for its vectors and peers' answers
			return nil
		}, Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": status,
		}})
}

// status N CMD ARGS... runs CMD as exec does and checks that it exits
// with status N exactly (exec and ! exec tell only zero from non-zero).
func status(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status %q: not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}
