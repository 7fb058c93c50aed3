// Package wording says the library's errors in a user's words: the
// command line's and gen-vectors -cases's.
package wording

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/rdpcheck/rdpcheck"
)

// Wording says an error of the library in its user's words: without the
// Go package and function that refused ("reference.Epsilon: "), with each
// argument named as the user names it, and with its value only where it
// has one. gen-vectors -cases words its lines' errors so, and rdpcheck
// its own.
type Wording struct {
	// Names maps the library's argument names to the user's (Divergence's
	// p is a line's distP); a name it leaves out is the user's already.
	Names map[string]string
	// Whole maps a library's whole argument to the user's words, before
	// Names: WORBound's "base.Eps" is "len(base)" where its value is the
	// list's length, but base.Eps[1] is base[1].
	Whole map[string]string
	// GivenNaN reports whether the user gave the argument (by the user's
	// name) the value NaN. A NaN value is otherwise the library's way of
	// saying that the argument is a list, which has no one value, and it is
	// left out. Nil: never.
	GivenNaN func(arg string) bool
}

// goName is the "fast.SGMCurve: " a library error starts with.
var goName = regexp.MustCompile(`\b(fast|reference|userpoints|dpevent|rdp|oracles|pld)\.[A-Za-z]+: `)

// argName is one name in an InputError's Arg: "orders, rdp", "p[1]" and
// "sum(q)" name arguments, "base.Inf" a field of one.
var argName = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_.]*`)

// Message words err.
func (w Wording) Message(err error) string {
	s := err.Error()
	var ie *rdpcheck.InputError
	if errors.As(err, &ie) {
		s = strings.Replace(s, ie.Error(), w.input(ie), 1)
	}
	return goName.ReplaceAllString(s, "")
}

// input words an InputError: "arg = value: what it must be", or
// "arg: what it must be" for a list.
func (w Wording) input(ie *rdpcheck.InputError) string {
	arg, whole := w.Whole[ie.Arg]
	if !whole {
		arg = argName.ReplaceAllStringFunc(ie.Arg, func(name string) string {
			if user, ok := w.Names[name]; ok {
				return user
			}
			return name
		})
	}
	element := strings.Contains(arg, "[") // orders[2]: an element has its value, NaN included
	if math.IsNaN(ie.Value) && !element && (w.GivenNaN == nil || !w.GivenNaN(arg)) {
		return fmt.Sprintf("%s: %s", arg, ie.Msg)
	}
	return fmt.Sprintf("%s = %v: %s", arg, ie.Value, ie.Msg)
}
