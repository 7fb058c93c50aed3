package pld

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRows: ROWS="q,sigma,steps,delta;..." go test -run TestRows -v
func TestRows(t *testing.T) {
	rows := os.Getenv("ROWS")
	if rows == "" {
		t.Skip()
	}
	for _, r := range strings.Split(rows, ";") {
		f := strings.Split(r, ",")
		v := make([]float64, 4)
		for i := range v {
			v[i], _ = strconv.ParseFloat(f[i], 64)
		}
		t0 := time.Now()
		iv, err := SGMEpsilon([]Phase{{v[0], v[1], int(v[2])}}, v[3])
		fmt.Printf("q=%g s=%g n=%g d=%g: %v w=%.2g %.2fs %v\n", v[0], v[1], v[2], v[3], iv, iv.RelWidth(), time.Since(t0).Seconds(), err)
	}
}
