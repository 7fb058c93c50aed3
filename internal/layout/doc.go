// Package layout holds no code: its test checks that every package of the
// module imports only what CONTRIBUTING.md's table of folders allows.
package layout
