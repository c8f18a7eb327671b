package crdtest

import (
	"context"
	"fmt"
	"maps"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
)

// runner runs suites; it compiles each CRD variant once.
type runner struct {
	l        *loader
	release  crdschema.KubernetesVersion // the Kubernetes release
	variants map[variantKey]*variant
	// compiled holds the validation result and the Resource of each CRD
	// spec seen, by its JSON: the variants of a CRD often share a spec.
	compiled map[string]*compiled
	// cache shares compiled rules between the CRDs and variants the
	// runner validates and serves: variants of a CRD mostly repeat the
	// same rules over the same types.
	cache *celrules.Cache
	// objects holds the objects of the cases decoded, by their text: a
	// case runs once for each CRD variant, and cases repeat objects.
	objects map[string]decoded
	// patched holds the CRDs patched for initialCRDPatches, by manifest,
	// patches and sentinel (see patchedCRD).
	patched map[string]decoded
}

// decoded is the result of decoding an object or patching a CRD.
type decoded struct {
	obj map[string]any
	def *crdschema.CustomResourceDefinition
	err error
}

// decoded returns decodeObject's result for text, decoding each text
// once. The object is shared: it must not be modified.
func (r *runner) decoded(text string) (map[string]any, error) {
	d, ok := r.objects[text]
	if !ok {
		d.obj, d.err = decodeObject(text)
		r.objects[text] = d
	}
	return d.obj, d.err
}

// decode is decodeObject, which reads each text once. The result's top
// level and metadata are its own, for the runner to set fields there; the
// values below are shared and must not be modified (the library does not
// modify the objects of requests).
func (r *runner) decode(text string) (map[string]any, error) {
	shared, err := r.decoded(text)
	if err != nil {
		return nil, err
	}
	obj := maps.Clone(shared)
	if md, ok := obj["metadata"].(map[string]any); ok {
		obj["metadata"] = maps.Clone(md)
	}
	return obj, nil
}

// patchedCRD is patchedCRD for the patches whose JSON is ops, which
// patches each manifest once. The CRD returned is shared: it is not
// modified.
func (r *runner) patchedCRD(v *variant, patches []patch, ops, sentinel string) (*crdschema.CustomResourceDefinition, error) {
	k := v.file.path + "\x00" + ops + "\x00" + sentinel
	d, ok := r.patched[k]
	if !ok {
		d.def, d.err = patchedCRD(v, patches, sentinel)
		r.patched[k] = d
	}
	return d.def, d.err
}

// compiled is a CRD spec validated and prepared for requests.
type compiled struct {
	res *crd.Resource
	err error
}

type variantKey struct{ path, version string }

// variant is a CRD manifest as a suite installs it: reduced to the
// suite's version, which is served and stored.
type variant struct {
	file    *crdFile
	version string
	def     *crdschema.CustomResourceDefinition
	res     *crd.Resource
	err     error // the CRD cannot be installed
}

// plan is what a suite file runs: its cases against each variant.
type plan struct {
	s        *suite
	variants []*variant
	cases    []testCase
}

// testCase is one case of a suite.
type testCase struct {
	kind   string // "onCreate" or "onUpdate"
	name   string
	create *createCase
	update *updateCase
	s      *suite
}

func newRunner(opts []Option) *runner {
	o := &options{}
	for _, opt := range opts {
		opt(o)
	}
	l := &loader{opts: o, files: map[string][]*crdFile{}, gates: map[string][]map[string]any{}, fgErr: map[string]error{}}
	return &runner{l: l, release: o.kubeVersion, variants: map[variantKey]*variant{}, compiled: map[string]*compiled{},
		cache: new(celrules.Cache), objects: map[string]decoded{}, patched: map[string]decoded{}}
}

// plan reads the suite file f and prepares its CRD variants.
func (r *runner) plan(f string) (*plan, error) {
	s, err := readSuite(f)
	if err != nil {
		return nil, err
	}
	files, err := r.l.variants(s)
	if err != nil {
		return nil, err
	}
	version := s.Version
	if version == "" {
		for _, cf := range files {
			vs := cf.def.Spec.Versions
			if len(vs) != 1 {
				return nil, fmt.Errorf("%s: CRD %s has %d versions: name the version under test with version", f, cf.path, len(vs))
			}
			if version != "" && version != vs[0].Name {
				return nil, fmt.Errorf("%s: the CRD variants have different versions (%s, %s): name the version under test with version", f, version, vs[0].Name)
			}
			version = vs[0].Name
		}
	}
	p := &plan{s: s}
	for _, cf := range files {
		v, err := r.variant(cf, version)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		p.variants = append(p.variants, v)
	}
	for i := range s.Tests.OnCreate {
		c := &s.Tests.OnCreate[i]
		p.cases = append(p.cases, testCase{kind: "onCreate", name: c.Name, create: c, s: s})
	}
	for i := range s.Tests.OnUpdate {
		c := &s.Tests.OnUpdate[i]
		p.cases = append(p.cases, testCase{kind: "onUpdate", name: c.Name, update: c, s: s})
	}
	return p, nil
}

// variant returns the CRD of file reduced to version, compiled.
func (r *runner) variant(file *crdFile, version string) (*variant, error) {
	k := variantKey{file.path, version}
	if v, ok := r.variants[k]; ok {
		return v, nil
	}
	def, err := versioned(file.def, version)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file.path, err)
	}
	v := &variant{file: file, version: version, def: def}
	c := r.compile(file.specKey(), def, version, nil)
	v.res, v.err = c.res, c.err
	r.variants[k] = v
	return v, nil
}

// versioned returns def with only the named version, served and stored.
func versioned(def *crdschema.CustomResourceDefinition, version string) (*crdschema.CustomResourceDefinition, error) {
	d := *def
	d.Spec.Versions = nil
	for _, v := range def.Spec.Versions {
		if v.Name == version {
			v.Served, v.Storage = true, true
			d.Spec.Versions = append(d.Spec.Versions, v)
		}
	}
	if len(d.Spec.Versions) == 0 {
		return nil, fmt.Errorf("the CRD has no version %q", version)
	}
	return &d, nil
}

// compile validates def, as a create or, with old, as an update of old,
// and prepares its version for requests, once for each key: a text that
// identifies the spec of def, as the variants of a CRD often share a spec.
func (r *runner) compile(key string, def *crdschema.CustomResourceDefinition, version string, old *crdschema.CustomResourceDefinition) *compiled {
	key = fmt.Sprintf("%s\x00%s\x00%s", def.Name, version, key)
	if c, ok := r.compiled[key]; ok {
		return c
	}
	c := &compiled{err: validateCRD(context.Background(), def, old, r.release, r.cache)}
	if c.err == nil {
		c.res, c.err = newResource(def, version, r.release, r.cache)
	}
	r.compiled[key] = c
	return c
}
