//go:build !unix

package verify

import "time"

// ProcessCPU is the CPU time the process has used so far; this system does
// not say (ok false).
func ProcessCPU() (d time.Duration, ok bool) { return 0, false }
