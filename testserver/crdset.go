package testserver

import (
	"maps"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

// The CRDs of a file are the same in every server of a process that reads
// the same bytes, and so is what Start computes from them before the first
// request: their validation at a release and their stored form. fileCRDs
// keeps these for the life of the process, keyed by the file's content, so
// that a suite starting a server per test parses and validates its CRDs
// once. Entries are never modified after they are made; every server reads
// them and copies what it changes.
var fileCRDs = struct {
	mu        sync.Mutex
	byContent map[string]*fileEntry
}{byContent: map[string]*fileEntry{}}

// maxCachedFiles bounds fileCRDs: past it, the memo starts again empty.
const maxCachedFiles = 256

type fileEntry struct {
	once sync.Once
	crds []*cachedCRD
	err  error
}

// cachedCRD is one CRD read from a file, with what is computed from it once.
type cachedCRD struct {
	def *crdschema.CustomResourceDefinition

	storedOnce sync.Once
	stored     map[string]any // crd.Defaulted(def) as an object, without metadata Start sets
	storedErr  error

	mu    sync.Mutex
	valid map[crdschema.KubernetesVersion]bool // versions at which def passed validation
}

// readCRDsOnce returns the CRDs of a file's content, parsing each distinct
// content once per process.
func readCRDsOnce(data []byte) ([]*cachedCRD, error) {
	fileCRDs.mu.Lock()
	e := fileCRDs.byContent[string(data)]
	if e == nil {
		if len(fileCRDs.byContent) >= maxCachedFiles {
			fileCRDs.byContent = map[string]*fileEntry{}
		}
		e = new(fileEntry)
		fileCRDs.byContent[string(data)] = e
	}
	fileCRDs.mu.Unlock()
	e.once.Do(func() {
		defs, err := readCRDs(data)
		if err != nil {
			e.err = err
			return
		}
		for _, d := range defs {
			e.crds = append(e.crds, &cachedCRD{def: d})
		}
	})
	return e.crds, e.err
}

// validated tells whether the CRD passed validation at version before.
func (c *cachedCRD) validated(version crdschema.KubernetesVersion) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.valid[version]
}

// markValid records that the CRD passed validation at version.
func (c *cachedCRD) markValid(version crdschema.KubernetesVersion) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid == nil {
		c.valid = map[crdschema.KubernetesVersion]bool{}
	}
	c.valid[version] = true
}

// storedObject returns the CRD's stored form (with the API server's
// defaults, as an object) for its admission: a copy of its top level and
// of its metadata, the parts admission sets, sharing the rest with the
// memo. The store copies what it keeps.
func (c *cachedCRD) storedObject() (map[string]any, error) {
	c.makeStored()
	if c.storedErr != nil {
		return nil, c.storedErr
	}
	m := make(map[string]any, len(c.stored)+3)
	for k, v := range c.stored {
		m[k] = v
	}
	if md, ok := c.stored["metadata"].(map[string]any); ok {
		m["metadata"] = maps.Clone(md)
	}
	return m, nil
}

// makeStored makes the CRD's stored form, once.
func (c *cachedCRD) makeStored() {
	c.storedOnce.Do(func() { c.stored, c.storedErr = fromCRD(crd.Defaulted(c.def)) })
}
