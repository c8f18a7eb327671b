package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/yamljson"
)

// groupKind identifies what a CRD serves: objects of one kind in one
// API group.
type groupKind struct{ group, kind string }

// crdEntry is one CRD found under -crds and what became of it.
type crdEntry struct {
	file          string
	document      int
	name          string
	def           *crdschema.CustomResourceDefinition // nil when the document could not be decoded
	unknownFields []string
	errs          crdschema.ErrorList // the API server's reasons to refuse it
	problem       string              // why it cannot be used otherwise (decoding, duplicate)

	// versions holds a compiler per served version; each compiles the
	// version once, on first use, and hands out the same Resource after.
	versions map[string]func() (*crd.Resource, error)
}

func (e *crdEntry) accepted() bool { return e.problem == "" && len(e.errs) == 0 }

// catalog is every CRD found, and the accepted ones by what they serve.
type catalog struct {
	crds     []*crdEntry
	kinds    map[groupKind]*crdEntry // accepted CRDs
	rejected map[groupKind]*crdEntry // rejected CRDs, to explain skipped objects
}

// loadCatalog reads the CRDs under paths, validates them (jobs at a
// time) and indexes the accepted ones. It fails only when a file cannot be
// read; CRDs that cannot be decoded or are invalid are kept with their
// problem.
func loadCatalog(paths []string, jobs int) (*catalog, error) {
	files, err := expandPaths(paths)
	if err != nil {
		return nil, err
	}
	var entries []*crdEntry
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		entries = append(entries, decodeCRDs(f, data)...)
	}
	parallel(len(entries), jobs, func(i int) {
		if e := entries[i]; e.def != nil {
			e.errs = crd.Validate(context.Background(), e.def)
		}
	})

	c := &catalog{crds: entries, kinds: map[groupKind]*crdEntry{}, rejected: map[groupKind]*crdEntry{}}
	byName := map[string]*crdEntry{}
	for _, e := range entries {
		if e.def == nil {
			continue
		}
		gk := groupKind{e.def.Spec.Group, e.def.Spec.Names.Kind}
		if first := byName[e.name]; first != nil {
			e.problem = fmt.Sprintf("CRD %s is defined again; the first definition, in %s#%d, is used", e.name, first.file, first.document)
		} else if first := c.kinds[gk]; first != nil && e.accepted() {
			e.problem = fmt.Sprintf("CRD %s serves kind %s of group %s like CRD %s in %s#%d, which is used", e.name, gk.kind, gk.group, first.name, first.file, first.document)
		}
		if _, ok := byName[e.name]; !ok {
			byName[e.name] = e
		}
		if !e.accepted() {
			if c.rejected[gk] == nil {
				c.rejected[gk] = e
			}
			continue
		}
		c.kinds[gk] = e
		e.versions = map[string]func() (*crd.Resource, error){}
		for _, v := range e.def.Spec.Versions {
			if !v.Served {
				continue
			}
			def, name := e.def, v.Name
			e.versions[name] = sync.OnceValues(func() (*crd.Resource, error) {
				return crd.New(def, name)
			})
		}
	}
	return c, nil
}

// decodeCRDs returns the CustomResourceDefinitions of one file; documents
// of other kinds are ignored.
func decodeCRDs(file string, data []byte) []*crdEntry {
	docs, err := yamljson.Split(data)
	if err != nil {
		return []*crdEntry{{file: file, problem: "cannot decode: " + err.Error()}}
	}
	var out []*crdEntry
	for i, d := range docs {
		var tm crdschema.TypeMeta
		if json.Unmarshal(d, &tm) != nil || tm.Kind != "CustomResourceDefinition" {
			continue
		}
		e := &crdEntry{file: file, document: i + 1}
		def, unknown, err := crdschema.UnmarshalCRD(d)
		if err != nil {
			e.problem = "cannot decode: " + err.Error()
		} else {
			e.def, e.name, e.unknownFields = def, def.Name, unknown
		}
		out = append(out, e)
	}
	return out
}

// lookup finds the compiled version serving objects of apiVersion and
// kind. When there is none it returns the reason instead.
func (c *catalog) lookup(apiVersion, kind string) (*crd.Resource, string) {
	group, version := splitAPIVersion(apiVersion)
	gk := groupKind{group, kind}
	e := c.kinds[gk]
	if e == nil {
		if r := c.rejected[gk]; r != nil {
			return nil, fmt.Sprintf("no matches for kind %q in version %q: CRD %s in %s#%d was rejected", kind, apiVersion, r.name, r.file, r.document)
		}
		return nil, fmt.Sprintf("no matches for kind %q in version %q", kind, apiVersion)
	}
	compile := e.versions[version]
	if compile == nil {
		return nil, fmt.Sprintf("no matches for kind %q in version %q: CRD %s does not serve version %q", kind, apiVersion, e.name, version)
	}
	res, err := compile()
	if err != nil {
		return nil, fmt.Sprintf("CRD %s version %s cannot be compiled: %v", e.name, version, err)
	}
	return res, ""
}

// namespaced reports whether objects of apiVersion and kind live in
// namespaces, as far as the catalog knows.
func (c *catalog) namespaced(apiVersion, kind string) bool {
	group, _ := splitAPIVersion(apiVersion)
	e := c.kinds[groupKind{group, kind}]
	return e == nil || e.def.Spec.Scope != crdschema.ClusterScoped
}

// splitAPIVersion splits "group/version"; the core group's "v1" has the
// empty group.
func splitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}
