// Package layout checks the shape of the module: its test, that every
// package imports only what CONTRIBUTING.md's table of folders allows;
// FileLayers, for a package's own test, that its files form layers.
package layout
