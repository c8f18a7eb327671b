package pathstack

import (
	"testing"

	"github.com/crdschema/crdschema"
)

func TestStack(t *testing.T) {
	s := New(crdschema.NewPath("spec"))
	if got := s.Path().String(); got != "spec" {
		t.Errorf("root: %q", got)
	}
	s.Child("rules")
	s.Index(2)
	s.Key("a.b")
	s.Child("name")
	if got, want := s.Path().String(), "spec.rules[2][a.b].name"; got != want {
		t.Errorf("Path() = %q, want %q", got, want)
	}
	s.Pop()
	s.Pop()
	s.Child("x")
	if got, want := s.Path().String(), "spec.rules[2].x"; got != want {
		t.Errorf("after Pop: %q, want %q", got, want)
	}
	var zero Stack
	zero.Index(0)
	if got, want := zero.Path().String(), "[0]"; got != want {
		t.Errorf("zero Stack: %q, want %q", got, want)
	}
}

func TestStackDeep(t *testing.T) {
	s := New(nil)
	want := (*crdschema.Path)(nil)
	for i := range 3 * depth {
		s.Index(i)
		want = want.Index(i)
	}
	if s.Path().String() != want.String() {
		t.Errorf("deep path %q, want %q", s.Path(), want)
	}
	if n := testing.AllocsPerRun(100, func() {
		s := New(nil)
		for range depth {
			s.Child("a")
		}
		for range depth {
			s.Pop()
		}
		s.Release()
	}); n > 0 {
		t.Errorf("a released walk %d deep allocated %v times, want none (its storage is reused)", depth, n)
	}
}

// TestRelease checks that a released Stack is back at its root, that paths
// built before stay valid, and that a walk after a release starts afresh
// on reused storage.
func TestRelease(t *testing.T) {
	s := New(crdschema.NewPath("spec"))
	s.Child("a")
	s.Index(2)
	s.Key("k")
	p := s.Path()
	s.Release()
	if got := s.Path().String(); got != "spec" {
		t.Errorf("after Release: %q, want the root", got)
	}
	s.Release() // twice is harmless
	for i := 0; i < 3; i++ {
		w := New(crdschema.NewPath("x"))
		w.Child("b")
		if got := w.Path().String(); got != "x.b" {
			t.Errorf("walk %d after a release: %q", i, got)
		}
		w.Release()
	}
	if got := p.String(); got != "spec.a[2][k]" {
		t.Errorf("a path built before Release: %q", got)
	}
	// Deep walks grow the storage; released, it is reused or dropped.
	d := New(nil)
	for i := 0; i < 10*depth; i++ {
		d.Index(i)
	}
	if got := len(d.Path().String()); got == 0 {
		t.Error("deep path empty")
	}
	d.Release()
	if allocs := testing.AllocsPerRun(100, func() {
		w := New(nil)
		w.Child("a")
		w.Pop()
		w.Release()
	}); allocs != 0 {
		t.Errorf("a walk on released storage allocates %v times", allocs)
	}
}
