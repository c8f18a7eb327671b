package fakeclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// CRDSet is a set of CustomResourceDefinitions prepared once for many
// clients: read, checked as the API server checks them and indexed by
// BuildCRDSet. Clients built with WithCRDSet share it, and with it the
// compilation of each served version, done on the first request of any of
// them: a test suite that builds a client per test pays for its CRDs once.
// A CRDSet is safe for concurrent use by many clients; each client keeps
// its own objects.
type CRDSet struct {
	kubernetesVersion crdschema.KubernetesVersion
	kinds             map[schema.GroupKind]*kind
	names             map[string]string // CRD name -> where it came from
	order             []schema.GroupKind
}

// BuildCRDSet prepares the CRDs of the builder (WithCRDFiles, WithCRDs,
// WithCRDDefinitions) for the Kubernetes release of WithKubernetesVersion,
// with the options of WithResourceOptions, and fails as Build fails on them.
// The builder's other options play no part.
func (b *ClientBuilder) BuildCRDSet() (*CRDSet, error) {
	defs, err := b.loadCRDs()
	if err != nil {
		return nil, err
	}
	return newCRDSet(defs, b.kubernetesVersion, b.resourceOptions)
}

// WithCRDSet adds the CRDs of sets made by BuildCRDSet. They are served
// with the Kubernetes release and the resource options their set was built
// with: Build fails if the builder has resource options or names another
// release.
func (b *ClientBuilder) WithCRDSet(sets ...*CRDSet) *ClientBuilder {
	b.crdSets = append(b.crdSets, sets...)
	return b
}

// sourcedCRD is a CRD and the file it came from ("" for arguments).
type sourcedCRD struct {
	def    *crdschema.CustomResourceDefinition
	source string
}

func newCRDSet(defs []sourcedCRD, version crdschema.KubernetesVersion, resourceOptions []crd.Option) (*CRDSet, error) {
	s := &CRDSet{kubernetesVersion: version, kinds: map[schema.GroupKind]*kind{}, names: map[string]string{}}
	ctx := context.Background()
	// One compile cache for the set: validation and the serving of each
	// version share the compiled rules, and so do CRDs that repeat rules
	// over the same types.
	cache := newCompileCache()
	opts := append([]crd.Option{crd.WithKubernetesVersion(version), crd.WithCache(cache)}, resourceOptions...)
	for _, sd := range defs {
		def := sd.def
		if errs := validateCRD(ctx, def, version, cache); len(errs) > 0 {
			return nil, &CRDError{Name: def.Name, Source: sd.source, Errors: errs}
		}
		k, err := newKind(def, opts)
		if err != nil {
			return nil, fmt.Errorf("fakeclient: CRD %q: %w", def.Name, err)
		}
		if err := s.add(k, sd.source); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// add adds a kind, refusing a second CRD of the same name or kind.
func (s *CRDSet) add(k *kind, source string) error {
	if prev, dup := s.names[k.def.Name]; dup {
		return fmt.Errorf("fakeclient: CRD %q is given twice (%s and %s)", k.def.Name, orArg(prev), orArg(source))
	}
	if _, dup := s.kinds[k.gk]; dup {
		return fmt.Errorf("fakeclient: two CRDs serve kind %s", k.gk)
	}
	s.names[k.def.Name] = source
	s.kinds[k.gk] = k
	s.order = append(s.order, k.gk)
	return nil
}

// mergeCRDSets returns the union of sets, all built for one Kubernetes
// release.
func mergeCRDSets(sets []*CRDSet) (*CRDSet, error) {
	out := &CRDSet{kinds: map[schema.GroupKind]*kind{}, names: map[string]string{}}
	for i, s := range sets {
		if s == nil {
			return nil, errors.New("fakeclient: WithCRDSet: a set is nil")
		}
		if i == 0 {
			out.kubernetesVersion = s.kubernetesVersion
		} else if s.kubernetesVersion != out.kubernetesVersion {
			return nil, fmt.Errorf("fakeclient: CRD sets of Kubernetes %s and %s in one client", orDefault(out.kubernetesVersion), orDefault(s.kubernetesVersion))
		}
		for _, gk := range s.order {
			k := s.kinds[gk]
			if err := out.add(k, s.names[k.def.Name]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func orDefault(version crdschema.KubernetesVersion) string {
	return version.String()
}

func (b *ClientBuilder) loadCRDs() ([]sourcedCRD, error) {
	var out []sourcedCRD
	for _, p := range b.crdFiles {
		files, dir, err := crdFiles(p)
		if err != nil {
			return nil, err
		}
		found, patches := 0, 0
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, fmt.Errorf("reading CRDs: %w", err)
			}
			defs, err := readCRDs(data)
			if err != nil {
				return nil, fmt.Errorf("reading CRDs from %s: %w", f, err)
			}
			for _, d := range defs {
				if dir && isPatch(d) {
					patches++
					continue
				}
				out = append(out, sourcedCRD{d, f})
				found++
			}
		}
		if found == 0 {
			return nil, noCRDError(p, len(files), patches)
		}
	}
	for i, v1 := range b.crdsV1 {
		if v1 == nil {
			return nil, fmt.Errorf("WithCRDs: CRD %d is nil", i)
		}
		data, err := json.Marshal(v1)
		if err != nil {
			return nil, fmt.Errorf("encoding CRD %q: %w", v1.Name, err)
		}
		d, err := unmarshalCRD(data)
		if err != nil {
			return nil, fmt.Errorf("decoding CRD %q: %w", v1.Name, err)
		}
		out = append(out, sourcedCRD{d, ""})
	}
	for i, d := range b.crds {
		if d == nil {
			return nil, fmt.Errorf("WithCRDDefinitions: CRD %d is nil", i)
		}
		out = append(out, sourcedCRD{d, ""})
	}
	return out, nil
}

// isPatch reports whether a CustomResourceDefinition document is a
// kustomize patch rather than a definition: it has no group, no kind and
// no versions, as kubebuilder's config/crd/patches/webhook_in_*.yaml and
// cainjection_in_*.yaml. Such documents are skipped in folders.
func isPatch(d *crdschema.CustomResourceDefinition) bool {
	return d.Spec.Group == "" && d.Spec.Names.Kind == "" && len(d.Spec.Versions) == 0
}

// noCRDError reports a path of WithCRDFiles in which no CRD was found: a
// client built without the CRDs would validate nothing.
func noCRDError(p string, files, patches int) error {
	msg := fmt.Sprintf("fakeclient: WithCRDFiles(%q): no CustomResourceDefinition found", p)
	switch {
	case files == 0:
		msg += ": no .yaml, .yml or .json file"
	case files == 1:
		msg += " in 1 file"
	default:
		msg += fmt.Sprintf(" in %d files", files)
	}
	if patches > 0 {
		msg += fmt.Sprintf(" (%d kustomize patches of CRDs skipped)", patches)
	}
	return errors.New(msg)
}

// crdFiles returns the files named by p, as crdcheck -crds finds them: a
// file as is, whatever its name; a folder (dir set) as the files below it,
// in its subfolders too, whose names end in .yaml, .yml or .json, in
// lexical order.
func crdFiles(p string) (files []string, dir bool, err error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, false, fmt.Errorf("reading CRDs: %w", err)
	}
	if !st.IsDir() {
		return []string{p}, false, nil
	}
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && manifestFile(d.Name()) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, true, fmt.Errorf("reading CRDs: %w", err)
	}
	sort.Strings(files)
	return files, true, nil
}

// manifestFile reports whether a file found in a folder is read.
func manifestFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}
