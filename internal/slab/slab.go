// Package slab allocates many values of one type that live together (the
// nodes of a schema being compiled) a slab at a time instead of one by one.
package slab

// maxSize is the most values one slab holds.
const maxSize = 128

// Allocator hands out zero values of T from slabs, each twice the size of
// the one before (from 4 up to maxSize): a small tree wastes little, a
// large one makes few allocations. A value keeps its whole slab alive.
// The zero Allocator is ready to use; it is not safe for concurrent use.
type Allocator[T any] struct {
	free []T
	size int
}

// New returns a pointer to a new zero T.
func (a *Allocator[T]) New() *T {
	if len(a.free) == 0 {
		a.size = min(max(2*a.size, 4), maxSize)
		a.free = make([]T, a.size)
	}
	p := &a.free[0]
	a.free = a.free[1:]
	return p
}
