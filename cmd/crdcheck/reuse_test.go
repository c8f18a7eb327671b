package main

import (
	"bytes"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// random matches what differs from run to run: uids, creation times,
// the suffixes of generated names.
var random = regexp.MustCompile(`"(uid|creationTimestamp)": "[^"]*"|-[a-z0-9]{5}\b`)

// normalized is out without what differs from run to run, its lines
// sorted (the order of the errors found in the keys of one object is map
// order, as in the API server).
func normalized(out string) string {
	lines := strings.Split(random.ReplaceAllString(out, "RANDOM"), "\n")
	for i, l := range lines {
		// a JSON string of errors, one per "\n* "
		text := strings.TrimRight(l, `",`)
		if errs := strings.Split(text, `\n* `); len(errs) > 2 {
			slices.Sort(errs[1:])
			lines[i] = strings.Join(errs, `\n* `) + l[len(text):]
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// TestReuseMaps: the maps of an object are reused only once nothing
// refers to them. Every map given back is poisoned instead of reused, and
// the outputs must be those of a run in which they are left alone (but
// for what differs from run to run anyway).
func TestReuseMaps(t *testing.T) {
	routes, crd := httpRoutes(t, 300)
	gateway := "../../conformance/testdata/crdcheck/crds/standard"
	examples := "../../conformance/testdata/crdcheck/objects"
	runs := [][]string{
		{"-crds", crd, routes},
		{"-crds", gateway, examples},
		{"-crds", crds, good, bad, update},
		{"-crds", crds, "-old", live, update, good},
		{"-crds", crds, "-show-result", good},
	}
	var given atomic.Int64 // maps given back, from the decoding goroutines
	for _, args := range runs {
		for _, format := range []string{"text", "json"} {
			args := append([]string{"-o", format}, args...)
			testHooks.reuse = func([]map[string]any) {}
			var want bytes.Buffer
			wantCode := run(args, nil, &want, io.Discard)
			testHooks.reuse = func(maps []map[string]any) {
				given.Add(int64(len(maps)))
				for _, m := range maps {
					clear(m)
					m["poisoned"] = true
				}
			}
			var got bytes.Buffer
			code := run(args, nil, &got, io.Discard)
			testHooks.reuse = nil
			if code != wantCode || normalized(got.String()) != normalized(want.String()) {
				t.Errorf("%q: with the maps of checked objects poisoned, exit status %d:\n%s\nwithout, exit status %d:\n%s", args, code, got.String(), wantCode, want.String())
			}
		}
	}
	if given.Load() == 0 {
		t.Errorf("no map was given back")
	}
	t.Cleanup(func() { testHooks.reuse = nil })
}
