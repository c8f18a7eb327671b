package bench

// The two sides of every benchmark, built once per example: crdschema's
// crd.Resource and upstream's serving set-up, both for the same CRD
// version, plus the request bodies.

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/manifest"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// served is one example ready for requests on both sides.
type served struct {
	example
	body    []byte // the object as a JSON request body
	crdBody []byte // its CRD as a JSON request body
	version string

	def *crdschema.CustomResourceDefinition // crdschema: the decoded CRD
	res *crd.Resource                       // crdschema: the served version

	upCRD *apiextensionsv1.CustomResourceDefinition // upstream: the CRD as served
	up    *upstreamServer                           // upstream: the served version
}

var servedCache sync.Map // example name -> *served

// serve prepares an example on both sides. The CRD must be accepted by
// both.
func serve(tb testing.TB, ex example) *served {
	tb.Helper()
	if s, ok := servedCache.Load(ex.name); ok {
		return s.(*served)
	}
	s := &served{example: ex, body: objectBody(tb, ex.object), crdBody: findCRD(tb, ex.project, ex.crdFile).body}
	s.version = versionOf(tb, s.body)

	def, _, err := manifest.UnmarshalCRD(s.crdBody)
	if err != nil {
		tb.Fatal(err)
	}
	if errs := crd.Validate(context.Background(), def); len(errs) > 0 {
		tb.Fatalf("%s: crdschema refuses the CRD: %v", ex.crdFile, errs)
	}
	s.def = def
	if s.res, err = newResource(def, s.version); err != nil {
		tb.Fatal(err)
	}

	upDef, errs, err := newUpstreamCRDRequest().create(s.crdBody)
	if err != nil {
		tb.Fatal(err)
	}
	if len(errs) > 0 {
		tb.Fatalf("%s: upstream refuses the CRD: %v", ex.crdFile, errs)
	}
	if s.upCRD, err = servedCRD(upDef); err != nil {
		tb.Fatal(err)
	}
	if s.up, err = newUpstreamServer(s.upCRD, s.version); err != nil {
		tb.Fatal(err)
	}
	actual, _ := servedCache.LoadOrStore(ex.name, s)
	return actual.(*served)
}

// newResource serves a version with crdschema, with the fixed clock and uid
// the upstream side uses.
func newResource(def *crdschema.CustomResourceDefinition, version string) (*crd.Resource, error) {
	return crd.New(def, version,
		crd.WithClock(func() time.Time { return fixedTime }),
		crd.WithUID(func() string { return fixedUID }),
	)
}

// crdschemaCreate is a create request with crdschema from the JSON body.
// The body is decoded for the request alone, as the API server decodes it:
// CreateOwned takes it over instead of copying it. The error is that of a
// refusal before validation, as upstream's side has it; the validation
// errors are the Result's.
func crdschemaCreate(res *crd.Resource, body []byte) (*crd.Result, error) {
	obj, err := decodeObject(body)
	if err != nil {
		return nil, err
	}
	return validated(res.CreateOwned(context.Background(), obj))
}

// validated returns the Result of a request that reached validation, or
// the error of one refused before.
func validated(r *crd.Result, err error) (*crd.Result, error) {
	if r.Object == nil {
		return nil, err
	}
	return r, nil
}

// crdschemaUpdate is an update request with crdschema from the JSON body;
// old is the stored object, decoded once. UpdateOwned takes the body over,
// as crdschemaCreate's CreateOwned does.
func crdschemaUpdate(res *crd.Resource, body []byte, old map[string]any) (*crd.Result, error) {
	obj, err := decodeObject(body)
	if err != nil {
		return nil, err
	}
	return validated(res.UpdateOwned(context.Background(), obj, old))
}

// crdschemaValidateCRD is a CRD create request with crdschema from the JSON
// body: decoding and validation.
func crdschemaValidateCRD(body []byte, opts ...crd.Option) (crdschema.ErrorList, error) {
	def, _, err := manifest.UnmarshalCRD(body)
	if err != nil {
		return nil, err
	}
	return crd.Validate(context.Background(), def, opts...), nil
}

func decodeObject(body []byte) (map[string]any, error) {
	v, err := jsonscan.Decode(body)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the body is not a JSON object")
	}
	return obj, nil
}
