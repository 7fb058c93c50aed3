package reference

import "sync"

// curveCache shares, between the orders of one curve (one q and sigma), the
// parts of logMomentSeries that do not depend on the order: the normal tails
// of the left series and the beta-free parts of the middle strip's nodes.
// Entries are keyed by working precision, so the two evaluations of a Ziv
// check never share a value. A nil *curveCache computes without caching.
// The cached big.Floats are only ever read.
type curveCache struct {
	mu    sync.Mutex
	tails map[tailKey]tail
	nodes map[nodeKey][]nodePart
}

type tailKey struct {
	wp uint
	c  float64
	k  int
}

type nodeKey struct {
	wp    uint
	c     float64
	piece int
	n     uint
}

func newCurveCache() *curveCache {
	return &curveCache{tails: map[tailKey]tail{}, nodes: map[nodeKey][]nodePart{}}
}

func (cc *curveCache) tail(k tailKey, compute func() tail) tail {
	if cc == nil {
		return compute()
	}
	cc.mu.Lock()
	v, ok := cc.tails[k]
	cc.mu.Unlock()
	if ok {
		return v
	}
	v = compute() // outside the lock: two workers may both compute; either result is right
	cc.mu.Lock()
	cc.tails[k] = v
	cc.mu.Unlock()
	return v
}

func (cc *curveCache) nodeParts(k nodeKey, compute func() []nodePart) []nodePart {
	if cc == nil {
		return compute()
	}
	cc.mu.Lock()
	v, ok := cc.nodes[k]
	cc.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	cc.mu.Lock()
	cc.nodes[k] = v
	cc.mu.Unlock()
	return v
}
