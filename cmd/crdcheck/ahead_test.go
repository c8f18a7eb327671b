package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestDecodeAhead: while the CRDs of -crds load, the objects are decoded
// ahead, up to decodeAhead per goroutine on all goroutines but one, and
// once they are loaded every object is checked as when the CRDs come at
// once.
func TestDecodeAhead(t *testing.T) {
	crd, err := os.ReadFile(filepath.Join(crds, "crontab.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var m strings.Builder
	const jobs = 3
	n := jobs*decodeAhead + 5 // more than the goroutines hold
	for i := 0; i < n; i++ {
		fmt.Fprintf(&m, "---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c%d\nspec:\n  foo: x\n  replicas: %d\n", i, i%3-1)
	}
	manifests := filepath.Join(t.TempDir(), "m.yaml")
	writeFile(t, manifests, m.String())
	want := new(bytes.Buffer)
	wantCode := run([]string{"-o", "json", "-crds", filepath.Join(crds, "crontab.yaml"), manifests}, nil, want, io.Discard)

	// The CRDs come from the standard input, which ends once the
	// decoding goroutines hold all they may.
	pr, pw := io.Pipe()
	var mu sync.Mutex
	full := 0
	testHooks.held = func(k int) {
		if k == decodeAhead {
			mu.Lock()
			full++
			if full == jobs-1 {
				go func() {
					pw.Write(crd)
					pw.Close()
				}()
			}
			mu.Unlock()
		}
	}
	t.Cleanup(func() { testHooks.held = nil })
	got := new(bytes.Buffer)
	code := run([]string{"-o", "json", "-j", fmt.Sprint(jobs), "-crds", "-", manifests}, pr, got, io.Discard)
	if full != jobs-1 {
		t.Errorf("%d decoding goroutines held %d documents, want %d", full, decodeAhead, jobs-1)
	}
	// the same outcomes but for the CRD's location
	if code != wantCode || strings.ReplaceAll(got.String(), stdinLabel, filepath.Join(crds, "crontab.yaml")) != want.String() {
		t.Errorf("with the CRDs late: exit status %d\n%s\nwith the CRDs at once: exit status %d\n%s", code, got, wantCode, want)
	}
}
