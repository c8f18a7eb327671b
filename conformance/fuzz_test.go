package conformance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/internal/jsonscan"
)

// realWorld is every accepted real-world CRD version of the cases,
// compiled once, with the request bodies of its cases.
type realWorld struct {
	resources []*crd.Resource
	bodies    [][]byte
}

var (
	realWorldOnce sync.Once
	realWorldSet  realWorld
)

func loadRealWorld(tb testing.TB) *realWorld {
	realWorldOnce.Do(func() {
		dir := filepath.Join(casesDir(), "realworld")
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
				return nil
			}
			c, err := readCase(p, strings.TrimSuffix(p, ".yaml")+".golden.json")
			if err != nil {
				return nil
			}
			out, err := runCRD(c, "")
			if err != nil || len(out.errors) > 0 {
				return nil
			}
			version := c.Version
			if version == "" {
				if sv := out.def.StorageVersion(); sv != nil {
					version = sv.Name
				}
			}
			r, err := crd.New(out.def, version)
			if err != nil {
				return nil
			}
			realWorldSet.resources = append(realWorldSet.resources, r)
			for _, req := range c.Requests {
				realWorldSet.bodies = append(realWorldSet.bodies, req.Object)
			}
			return nil
		})
	})
	if len(realWorldSet.resources) == 0 {
		tb.Skip("no real-world cases found under " + casesDir())
	}
	return &realWorldSet
}

// FuzzRealWorldCreate sends arbitrary bodies through the create pipeline of
// the real-world CRDs, all their CEL rules included: no panic, and every
// request ends within a bound, as the API server's cost limits promise.
func FuzzRealWorldCreate(f *testing.F) {
	rw := loadRealWorld(f)
	for i, b := range rw.bodies {
		f.Add(uint16(i), b)
	}
	f.Fuzz(func(t *testing.T, which uint16, body []byte) {
		obj, err := jsonscan.Decode(body)
		if err != nil {
			return
		}
		m, ok := obj.(map[string]any)
		if !ok {
			return
		}
		r := rw.resources[int(which)%len(rw.resources)]
		var res *crd.Result
		hostile.Run(t, hostile.Limit, func() { res, err = r.Create(context.Background(), m) })
		if res.Object != nil {
			for _, e := range res.Errors {
				_ = e.Error()
			}
		}
		hostile.Run(t, hostile.Limit, func() { _, _ = r.Update(context.Background(), m, m) })
	})
}
