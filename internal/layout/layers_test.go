package layout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileLayersCatches: in a two-file package where a.go uses b.go's
// name, the order b.go, a.go passes; a.go, b.go is an upward use; a file
// left out of the list, or listed but absent, is said.
func TestFileLayersCatches(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.go": "package p\n\nfunc A() int { return B + 1 }\n",
		"b.go": "package p\n\nconst B = 1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		layers     []string
		exceptions map[string]bool
		want       string // "" for no error
	}{
		{[]string{"b.go", "a.go"}, nil, ""},
		{[]string{"a.go", "b.go"}, nil, "upward use a.go -> b.go: B"},
		{[]string{"a.go", "b.go"}, map[string]bool{"a.go -> b.go": true}, ""},
		{[]string{"b.go"}, nil, "a.go is not in the layers"},
		{[]string{"b.go", "a.go", "c.go"}, nil, "the layers name c.go, which does not exist"},
		{[]string{"b.go", "a.go"}, map[string]bool{"x": true, "y": true}, "2 layer exceptions allowed"},
	} {
		errs := FileLayers(dir, c.layers, c.exceptions)
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		all := strings.Join(got, "; ")
		if (c.want == "") != (len(errs) == 0) || !strings.Contains(all, c.want) {
			t.Errorf("layers %v, exceptions %v: %q, want %q", c.layers, c.exceptions, all, c.want)
		}
	}
}
