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
	}); n > 1 {
		t.Errorf("a walk %d deep allocated %v times, want at most once", depth, n)
	}
}
