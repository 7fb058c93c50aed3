// Command gen-vectors writes rdpcheck's golden test vectors and answers
// reference queries at a user's own points.
//
// Usage:
//
//	go run ./cmd/gen-vectors                 regenerate vectors/ (the main job)
//	go run ./cmd/gen-vectors -cases FILE     answer JSON lines from FILE ("-" = stdin)
//	go run ./cmd/gen-vectors -out DIR        write the vector files under DIR
//
// With -cases, each input line is either
//
//	{"q": Q, "sigma": S, "alpha": A}          A a number or "inf"
//	{"kind": "epsilon", "q": Q, "sigma": S, "steps": T, "delta": D, "orders": [...]}
//
// and the output has one line per input line, in order: the input object
// echoed with "reference" (the RDP of one step of the sampled Gaussian
// mechanism, a decimal string with 50 significant digits, or "inf") and
// "fast" (package fast's float64 value) added, or for epsilon lines
// "epsilon_reference" (improved conversion, floored at 0), "order",
// "epsilon_fast" and "order_fast"; or "error" with a message for inputs that
// are rejected. Lines are computed in parallel on all cores.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	casesPath := flag.String("cases", "", "answer the JSON-lines `file` of cases (\"-\" for standard input) instead of writing vectors")
	outDir := flag.String("out", "vectors", "`directory` for the vector files")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: gen-vectors [-out DIR] | gen-vectors -cases FILE\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *casesPath != "" {
		var r io.Reader = os.Stdin
		if *casesPath != "-" {
			f, err := os.Open(*casesPath)
			if err != nil {
				fatal(err)
			}
			defer f.Close()
			r = f
		}
		if err := runCases(r, os.Stdout); err != nil {
			fatal(err)
		}
		return
	}
	files, err := generate(os.Stderr)
	if err != nil {
		fatal(err)
	}
	for name, data := range files {
		path := filepath.Join(*outDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			fatal(err)
		}
		fmt.Fprintf(os.Stderr, "wrote %s (%d bytes)\n", path, len(data))
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "gen-vectors:", err)
	os.Exit(1)
}
