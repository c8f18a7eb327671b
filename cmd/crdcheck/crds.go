package main

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

// groupKind identifies what a CRD serves: objects of one kind in one
// API group.
type groupKind struct{ group, kind string }

// crdEntry is one CustomResourceDefinition found in the input and what
// became of it.
type crdEntry struct {
	doc           document
	fromCRDs      bool // found under -crds rather than among the manifests
	name          string
	def           *crdschema.CustomResourceDefinition // nil when the document could not be decoded
	unknownFields []string
	problem       string // why it cannot be used otherwise (decoding, duplicate)

	// validation is the API server's verdict on the CRD, computed once
	// (see validate and startValidation).
	validation struct {
		once sync.Once
		done chan struct{} // closed when errs is set
		errs crdschema.ErrorList
	}
	// versions holds a compiler per served version; each compiles the
	// version once, on first use, and hands out the same Resource after.
	versions map[string]func() (*crd.Resource, error)
	// cache shares CEL compilations between the CRD's validation and its
	// versions, and with the other CRDs of the run.
	cache *celrules.Cache
}

// startValidation starts validating the CRD on a goroutine of its own,
// unless that is done or under way.
func (e *crdEntry) startValidation() {
	e.validation.once.Do(func() {
		go func() {
			validate := func() {
				e.validation.errs = crd.Validate(context.Background(), e.def, crd.WithKubernetesVersion(kubernetesVersion), crd.WithCache(e.cache))
			}
			if h := testHooks.validation; h != nil {
				h(validate)
			} else {
				validate()
			}
			close(e.validation.done)
		}()
	})
}

// errs returns why the API server refuses the CRD, validating it or
// waiting for its validation.
func (e *crdEntry) errs() crdschema.ErrorList {
	if e.def == nil {
		return nil
	}
	e.startValidation()
	<-e.validation.done
	return e.validation.errs
}

// validated reports whether the verdict on the CRD is known without
// waiting, and if so whether the CRD can be used.
func (e *crdEntry) validated() (known, accepted bool) {
	if e.problem != "" || e.def == nil {
		return true, false
	}
	select {
	case <-e.validation.done:
		return true, len(e.validation.errs) == 0
	default:
		return false, false
	}
}

// newCRDEntry decodes the CRD of doc; validation and compilation wait for
// their first use, and share the CEL compilations of cache.
func newCRDEntry(doc document, fromCRDs bool, cache *celrules.Cache) *crdEntry {
	e := &crdEntry{doc: doc, fromCRDs: fromCRDs, cache: cache}
	e.doc.obj, e.doc.json = nil, nil
	def, unknown, err := manifest.UnmarshalCRD(doc.json)
	if err != nil {
		e.problem = "cannot decode: " + err.Error()
		if meta, _ := doc.obj["metadata"].(map[string]any); meta != nil {
			e.name, _ = meta["name"].(string)
		}
		return e
	}
	e.def, e.name, e.unknownFields = def, def.Name, unknown
	e.validation.done = make(chan struct{})
	e.versions = map[string]func() (*crd.Resource, error){}
	for _, v := range def.Spec.Versions {
		if !v.Served {
			continue
		}
		name := v.Name
		// The version's CEL rules are compiled as objects reach them: rules
		// no object reaches are never compiled (the CRD's validation
		// compiles each rule anyway, to estimate its cost), and the first
		// object does not wait for the others. What the validation compiled
		// (parsed expressions, environments) is taken from the cache.
		e.versions[name] = sync.OnceValues(func() (*crd.Resource, error) {
			return crd.New(def, name, crd.WithoutValidation(), crd.WithKubernetesVersion(kubernetesVersion), crd.WithLazyCompile(), crd.WithCache(e.cache))
		})
	}
	return e
}

// accepted reports whether the CRD can be used: decoded, not a duplicate,
// and accepted by the API server (which errs decides, on first call).
func (e *crdEntry) accepted() bool {
	return e.problem == "" && e.def != nil && len(e.errs()) == 0
}

// catalog is a set of CRDs indexed by what they serve; the first
// definition of a name or of a kind is the one used.
type catalog struct {
	crds   []*crdEntry
	kinds  map[groupKind]*crdEntry
	byName map[string]*crdEntry
}

func newCatalog() *catalog {
	return &catalog{kinds: map[groupKind]*crdEntry{}, byName: map[string]*crdEntry{}}
}

// add indexes entries in order. A CRD defined again identically (given
// with -crds and again among the manifests, say) is the same CRD: it is
// left out. A CRD whose name or kind an earlier, different CRD already
// defines is marked as a duplicate, and rejected.
//
// Under -crds, a CustomResourceDefinition document without group and kind
// is a kustomize patch (kubebuilder's config/crd/patches: a conversion
// webhook or a CA injection), not a definition: it is left out, as
// kustomize merges it into the definition it patches.
func (c *catalog) add(entries ...*crdEntry) {
	for _, e := range entries {
		if e.def != nil && e.fromCRDs && e.def.Spec.Group == "" && e.def.Spec.Names.Kind == "" {
			continue
		}
		if e.def != nil {
			if first := c.byName[e.name]; first != nil && first.def != nil && reflect.DeepEqual(first.def, e.def) {
				continue
			}
		}
		c.crds = append(c.crds, e)
		if e.def == nil {
			continue
		}
		gk := groupKind{e.def.Spec.Group, e.def.Spec.Names.Kind}
		if first := c.byName[e.name]; first != nil {
			e.problem = fmt.Sprintf("CRD %s is defined again, differently; the first definition, at %s, is used", e.name, first.doc.where())
			continue
		}
		c.byName[e.name] = e
		if first := c.kinds[gk]; first != nil {
			e.problem = fmt.Sprintf("CRD %s serves kind %s of group %s like CRD %s at %s, which is used", e.name, gk.kind, gk.group, first.name, first.doc.where())
			continue
		}
		c.kinds[gk] = e
	}
}

// sortEntries orders CRD entries as they appear in the input.
func sortEntries(es []*crdEntry) {
	sort.SliceStable(es, func(i, j int) bool { return less(&es[i].doc, &es[j].doc) })
}

// find returns the entry serving apiVersion and kind, or nil.
func (c *catalog) find(apiVersion, kind string) *crdEntry {
	group, _ := splitAPIVersion(apiVersion)
	return c.kinds[groupKind{group, kind}]
}

// resolve compiles the version of e serving apiVersion. When the object
// cannot be checked with e it returns the reason instead. When the API
// server's verdict on e is not known yet but the version compiles, it does
// not wait for it: it returns the Resource with pending set, the object is
// checked at once, and its outcome is settled once the verdict is known
// (see settle), so that the validation of a CRD is not on the path of its
// first object.
func (e *crdEntry) resolve(apiVersion, kind string) (res *crd.Resource, reason string, pending bool) {
	_, version := splitAPIVersion(apiVersion)
	var err error
	compile := e.versions[version]
	if e.def != nil && e.problem == "" {
		// The CRD is validated while the version compiles.
		e.startValidation()
		if compile != nil {
			res, err = compile()
		}
	}
	known, accepted := e.validated()
	if !known {
		if compile != nil && err == nil {
			return res, "", true
		}
		accepted = e.accepted() // which reason comes first depends on it
	}
	switch {
	case !accepted:
		return nil, e.rejectedReason(apiVersion, kind), false
	case compile == nil:
		return nil, fmt.Sprintf("no matches for kind %q in version %q: CRD %s does not serve version %q", kind, apiVersion, e.name, version), false
	case err != nil:
		return nil, fmt.Sprintf("CRD %s version %s cannot be compiled: %v", e.name, version, err), false
	}
	return res, "", false
}

// rejectedReason is why an object of e's kind is not checked when the API
// server refuses e.
func (e *crdEntry) rejectedReason(apiVersion, kind string) string {
	return fmt.Sprintf("no matches for kind %q in version %q: CRD %s at %s was rejected", kind, apiVersion, e.name, e.doc.where())
}

// splitAPIVersion splits "group/version"; the core group's "v1" has the
// empty group.
func splitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}
