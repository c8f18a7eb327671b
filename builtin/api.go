package builtin

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/release"
)

//go:embed kinds.json.gz
var kindsGz []byte

// data is kinds.json.gz as tools/builtingen writes it.
type data struct {
	Definitions []json.RawMessage `json:"definitions"`
	Releases    []struct {
		Release     string                       `json:"release"`
		Source      string                       `json:"source"`
		Definitions map[string]int               `json:"definitions"`
		Kinds       []Kind                       `json:"kinds"`
		Declarative map[string]map[string][]rule `json:"declarative"`
	} `json:"releases"`
}

// load decodes kindsGz, once.
var load = sync.OnceValues(func() (*data, error) {
	zr, err := gzip.NewReader(bytes.NewReader(kindsGz))
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var d data
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, err
	}
	return &d, nil
})

// Kind is a kind the API server serves itself, in one version.
type Kind struct {
	Group   string `json:"group,omitempty"` // "" for the core group
	Version string `json:"version"`
	Kind    string `json:"kind"`
	// Resource is the resource's plural name, as in its URL path.
	Resource string `json:"resource"`
	// Namespaced is true for kinds whose objects live in a namespace.
	Namespaced bool `json:"namespaced,omitempty"`
	// Definition is the name of the kind's schema in the OpenAPI
	// documents (io.k8s.api.apps.v1.Deployment).
	Definition string `json:"definition"`
	// ListKind is the kind of a list of such objects, "" if the release
	// publishes none.
	ListKind string `json:"listKind,omitempty"`
}

// APIVersion returns the kind's apiVersion: group/version, or the version
// alone for the core group.
func (k Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// Option configures New.
type Option func(*options)

type options struct {
	version crdschema.KubernetesVersion
	strict  bool
}

// WithKubernetesVersion selects the Kubernetes release (the zero value:
// 1.37).
func WithKubernetesVersion(v crdschema.KubernetesVersion) Option {
	return func(o *options) { o.version = v }
}

// WithStrictFieldValidation makes unknown fields errors of LayerDecode
// instead of warnings, as the API server does for a request with
// fieldValidation=Strict (kubectl apply --validate=strict).
func WithStrictFieldValidation() Option { return func(o *options) { o.strict = true } }

// API is the set of built-in kinds of one Kubernetes release. It is
// immutable and safe for concurrent use.
type API struct {
	release release.Minor
	strict  bool
	kinds   []Kind
	byKey   map[kindKey]int
	defs    map[string]int
	rules   map[string]map[string][]rule // declarative validation, by definition and property
	raw     []json.RawMessage

	mu    sync.Mutex
	nodes map[string]*node
}

type kindKey struct{ apiVersion, kind string }

// New returns the built-in API of a Kubernetes release.
func New(opts ...Option) (*API, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	rel := release.Of(o.version)
	d, err := load()
	if err != nil {
		return nil, fmt.Errorf("builtin: reading the embedded kinds: %w", err)
	}
	for _, r := range d.Releases {
		if r.Release != rel.String() {
			continue
		}
		a := &API{release: rel, strict: o.strict, kinds: r.Kinds,
			byKey: map[kindKey]int{}, defs: r.Definitions, rules: r.Declarative, raw: d.Definitions, nodes: map[string]*node{}}
		for i, k := range r.Kinds {
			a.byKey[kindKey{k.APIVersion(), k.Kind}] = i
		}
		return a, nil
	}
	return nil, fmt.Errorf("builtin: no built-in kinds for Kubernetes %s", rel)
}

// KubernetesVersion returns the release, as "1.37".
func (a *API) KubernetesVersion() string { return a.release.String() }

// Kinds returns the kinds the release serves (those that can be created),
// sorted by group, version and kind. The slice is a copy.
func (a *API) Kinds() []Kind { return append([]Kind(nil), a.kinds...) }

// Lookup returns the kind of objects with this apiVersion and kind, and
// whether the release serves it.
func (a *API) Lookup(apiVersion, kind string) (Kind, bool) {
	i, ok := a.byKey[kindKey{apiVersion, kind}]
	if !ok {
		return Kind{}, false
	}
	return a.kinds[i], true
}
