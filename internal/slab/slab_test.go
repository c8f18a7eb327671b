package slab

import "testing"

func TestAllocator(t *testing.T) {
	var a Allocator[[2]int]
	seen := map[*[2]int]bool{}
	for i := range 1000 {
		p := a.New()
		if *p != [2]int{} {
			t.Fatalf("value %d is not zero: %v", i, *p)
		}
		if seen[p] {
			t.Fatalf("value %d handed out twice", i)
		}
		seen[p] = true
		p[0], p[1] = i, i // must not show in any other value
	}
	for p := range seen {
		if p[0] != p[1] {
			t.Fatalf("values overlap: %v", *p)
		}
	}
	if a.size != maxSize {
		t.Errorf("slab size %d after 1000 values, want %d", a.size, maxSize)
	}
}
