package gen

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Write writes files (by path relative to dir) under dir and returns the
// paths written.
func Write(files map[string][]byte, dir string) ([]string, error) {
	var paths []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return paths, err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// Check compares files with those under dir and describes each difference.
// With all set, every .json and .md file under dir (except the hand-written
// schema/ and README.md) must be one of files.
func Check(files map[string][]byte, dir string, all bool) []string {
	var bad []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		disk, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		switch {
		case err != nil:
			bad = append(bad, fmt.Sprintf("%s: %v", name, err))
		case !bytes.Equal(disk, files[name]):
			line := 1 + bytes.Count(disk[:firstDiff(disk, files[name])], []byte("\n"))
			bad = append(bad, fmt.Sprintf("%s differs from the regenerated file (first at line %d); run go run ./cmd/gen-vectors and review the diff", name, line))
		}
	}
	if !all {
		return bad
	}
	var extra []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if _, ok := files[rel]; !ok && (strings.HasSuffix(rel, ".json") || strings.HasSuffix(rel, ".md")) && !strings.HasPrefix(rel, "schema/") && rel != "README.md" {
			extra = append(extra, rel)
		}
		return nil
	})
	slices.Sort(extra)
	for _, x := range extra {
		bad = append(bad, x+" is not written by the generator")
	}
	return bad
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
