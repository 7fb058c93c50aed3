package fuzz

import (
	"encoding/binary"
	"math"
)

// The byte formats the fuzz targets decode. Each comes with an encoder,
// used by the seed corpus, so that a seed reads as the input it stands for.

// f64 reads a little-endian float64; raw bits reach NaNs, infinities,
// subnormals and -0 that no generator would think of.
func f64(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }

func putF64(b []byte, x float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
}

// unit maps 8 bytes to [0, 1).
func unit(b []byte) float64 { return float64(binary.LittleEndian.Uint64(b)>>11) / (1 << 53) }

// logRange maps 8 bytes log-uniformly into [lo, hi).
func logRange(b []byte, lo, hi float64) float64 {
	return math.Exp(math.Log(lo) + unit(b)*(math.Log(hi)-math.Log(lo)))
}

// Distributions (FuzzDivergence). Raw: up to 16 pairs of float64, P then
// Q (len(data)/16 entries each), taken as they are. Counts: byte pairs
// (p_i, q_i), each vector divided by its float64 sum, so sums are 1 within
// a few ulps (at the edge of what Divergence accepts).
func decodePQ(data []byte, raw bool) (p, q []float64) {
	if raw {
		n := min(len(data)/16, 16)
		for i := 0; i < n; i++ {
			p = append(p, f64(data[8*i:]))
			q = append(q, f64(data[8*(n+i):]))
		}
		return p, q
	}
	n := min(len(data)/2, 32)
	var sp, sq float64
	for i := 0; i < n; i++ {
		p = append(p, float64(data[2*i]))
		q = append(q, float64(data[2*i+1]))
		sp += p[i]
		sq += q[i]
	}
	for i := range p {
		if sp > 0 {
			p[i] /= sp
		}
		if sq > 0 {
			q[i] /= sq
		}
	}
	return p, q
}

func encodeRawPQ(p, q []float64) []byte {
	var b []byte
	for _, x := range p {
		b = putF64(b, x)
	}
	for _, x := range q {
		b = putF64(b, x)
	}
	return b
}

// RDP curves (FuzzConversion). data[0] even: raw (order, rdp) float64
// pairs follow; odd: 4-byte pairs, order = 1 + 10^(-8 + 12 o/65535) (o =
// 65535 is +Inf) and rdp = 10^(-10 + 12 r/65535) (r = 0 is 0, 65535 is
// +Inf), at most 16 pairs.
func decodeCurve(data []byte) (orders, rdp []float64) {
	if len(data) == 0 {
		return nil, nil
	}
	mode, data := data[0], data[1:]
	if mode%2 == 0 {
		for i := 0; i+16 <= len(data) && i < 16*16; i += 16 {
			orders = append(orders, f64(data[i:]))
			rdp = append(rdp, f64(data[i+8:]))
		}
		return orders, rdp
	}
	for i := 0; i+4 <= len(data) && i < 4*16; i += 4 {
		o := binary.LittleEndian.Uint16(data[i:])
		r := binary.LittleEndian.Uint16(data[i+2:])
		a := 1 + math.Pow(10, -8+12*float64(o)/65535)
		if o == 65535 {
			a = math.Inf(1)
		}
		x := math.Pow(10, -10+12*float64(r)/65535)
		switch r {
		case 0:
			x = 0
		case 65535:
			x = math.Inf(1)
		}
		orders = append(orders, a)
		rdp = append(rdp, x)
	}
	return orders, rdp
}

func encodeRawCurve(orders, rdp []float64) []byte {
	b := []byte{0}
	for i := range orders {
		b = putF64(putF64(b, orders[i]), rdp[i])
	}
	return b
}

// Event sequences (FuzzAccountant). data[0] % 3 picks the orders: 0 fast's
// DefaultOrders, 1 hardOrders, 2 data[1] % 17 raw float64 orders that
// follow. Then events of eventSize bytes: op, x (8 bytes), y (8 bytes),
// count (uint16). op & 7 is the event; with op & 0x80 the parameters are
// mapped into their valid ranges (so that the fuzzer reaches valid
// events), without it x and y are raw float64 and count may be 0.
const eventSize = 19

const (
	opSGM byte = iota
	opGaussian
	opLaplace
	opRR
	opZCDP
	opPureDP
	opEpsilon
	opDelta
	mapped byte = 0x80
)

// The events of dp_accounting's other classes: with op & extended, op & 3 picks one of them
// (and op & 4 the relation of k-ary randomized response). No committed
// seed sets the bit.
const (
	extended byte = 0x40

	opKaryRR       byte = 8 + iota // x noise, y buckets
	opExpMech                      // x eps
	opZCDPXi                       // x rho, y xi
	opEpsilonDelta                 // x eps, y delta
)

// The discrete Gaussian, tree aggregation and repeat-and-select: with op &
// extended and op & extended2, op & 3 picks one of them (op & 4 the tree's
// reading, op>>3 & 3 the tree's participations or repeat-and-select's
// shape).
const (
	extended2 byte = 0x20

	opDGauss    byte = 12 + iota // x sigma, y sensitivity
	opTree                       // x sigma, y steps per tree, op>>3&3 + 1 trees
	opTreeMulti                  // x sigma, y's bits: total steps and separation
	opRepeat                     // x eps of the pure-DP base curve, y mean
)

// eventOp is the event of op: op & 7, or an issue-12 event.
func eventOp(op byte) byte {
	if op&extended != 0 {
		if op&extended2 != 0 {
			return opDGauss + op&3
		}
		return opKaryRR + op&3
	}
	return op & 7
}

// hardOrders are the orders where peers fail or methods switch.
var hardOrders = []float64{1 + 1e-8, 1.01, 1.1, 1.5, 2, 2.5, 58.5, 59, 59.5, 256, 1030, 1031, math.Inf(1)}

type event struct {
	op   byte
	x, y float64
	n    int
}

func decodeAccountant(data []byte) (orders []float64, events []event, ok bool) {
	if len(data) == 0 {
		return nil, nil, false
	}
	mode, data := data[0]%3, data[1:]
	switch mode {
	case 1:
		orders = append([]float64(nil), hardOrders...)
	case 2:
		if len(data) == 0 {
			return nil, nil, false
		}
		n := int(data[0] % 17)
		data = data[1:]
		for i := 0; i < n && len(data) >= 8; i++ {
			orders = append(orders, f64(data))
			data = data[8:]
		}
		if orders == nil {
			orders = []float64{} // an explicit empty list (refused), not nil (the default)
		}
	}
	for len(data) >= eventSize && len(events) < 16 {
		op := data[0]
		xb, yb := data[1:9], data[9:17]
		n := int(binary.LittleEndian.Uint16(data[17:19]))
		e := event{op: op, x: f64(xb), y: f64(yb), n: n}
		if op&mapped != 0 {
			e.n = n%1000 + 1
			switch eventOp(op) {
			case opSGM:
				e.x = mapQ(xb)
				e.y = logRange(yb, 0.05, 1000)
			case opGaussian:
				e.x = logRange(xb, 0.05, 1000)
			case opLaplace:
				e.x = logRange(xb, 0.01, 1000)
			case opRR:
				e.x = unit(xb)
			case opZCDP:
				e.x = logRange(xb, 1e-8, 10)
			case opPureDP:
				e.x = logRange(xb, 1e-6, 10)
			case opEpsilon:
				e.x = mapDelta(xb)
			case opDelta:
				e.x = logRange(xb, 1e-6, 1000)
			case opKaryRR:
				e.x, e.y = unit(xb), math.Round(logRange(yb, 2, 1e6))
			case opExpMech:
				e.x = logRange(xb, 1e-6, 50)
			case opZCDPXi:
				e.x, e.y = logRange(xb, 1e-8, 10), logRange(yb, 1e-8, 1)
			case opEpsilonDelta:
				e.x, e.y = logRange(xb, 1e-6, 10), logRange(yb, 1e-12, 1e-3)
			case opDGauss:
				e.x, e.y = logRange(xb, 0.1, 100), float64(yb[0]%5)
			case opTree:
				e.x, e.y = logRange(xb, 0.1, 100), math.Round(logRange(yb, 1, 1e6))
			case opTreeMulti:
				e.x = logRange(xb, 0.1, 100)
			case opRepeat:
				e.x, e.y = logRange(xb, 1e-3, 10), logRange(yb, 1, 1000)
			}
		}
		events = append(events, e)
		data = data[eventSize:]
	}
	return orders, events, true
}

// mapQ maps 8 bytes to a sampling rate: log-uniform in [1e-13, 1] for most
// values, and exactly 1-1e-9, 1 or a subnormal for a few.
func mapQ(b []byte) float64 {
	switch b[0] {
	case 0:
		return 1 - 1e-9
	case 1:
		return 1
	case 2:
		return 5e-324
	}
	return logRange(b, 1e-13, 1)
}

// mapDelta maps 8 bytes to a delta: log-uniform in [1e-300, 0.5], or near 1.
func mapDelta(b []byte) float64 {
	if b[0]%4 == 0 {
		return 1 - logRange(b, 1e-16, 0.5)
	}
	return logRange(b, 1e-300, 0.5)
}

func encodeEvent(b []byte, op byte, x, y float64, n int) []byte {
	b = append(b, op)
	b = putF64(putF64(b, x), y)
	return binary.LittleEndian.AppendUint16(b, uint16(n))
}
