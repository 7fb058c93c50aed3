// Command rdpcheck is rdpcheck's command-line tool: a privacy accountant for
// the sampled Gaussian mechanism and a scorer for other implementations.
//
// Usage:
//
//	rdpcheck <command> [flags]
//
// Run `rdpcheck help` for the list of commands and `rdpcheck <command> -h`
// for each command's flags.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand. Each lives in its own file and registers itself
// in init, so that commands can be added without touching this file.
type command struct {
	name    string
	summary string
	// run parses args (without the command name) and does the work; it
	// returns the process exit status.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("rdpcheck: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command of args. Output that cannot be written (a full
// disk, a closed pipe) fails the command: the user would otherwise take a
// truncated result, or none, for an answer.
func run(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	status := dispatch(args, out, stderr)
	if out.err != nil && status == 0 {
		name := "rdpcheck"
		if len(args) > 0 && commands[args[0]].name != "" {
			name += " " + args[0]
		}
		fmt.Fprintf(stderr, "%s: %v\n", name, out.err)
		return 1
	}
	return status
}

// checkedWriter keeps the first error of its writer, worded for the
// user, and writes nothing after it.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = fmt.Errorf("cannot write the output: %w", err)
	}
	return n, c.err
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rdpcheck: unknown command %q\nrun 'rdpcheck help' for the commands\n", args[0])
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: rdpcheck <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'rdpcheck <command> -h' for a command's flags.")
}
