package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

// TestPipelineMatchesResource runs every request of every conformance case,
// at every release, through crd.Resource and through a crd.Pipeline
// composed as a user would compose one, with exported API only
// (userPipeline), and requires the same results on what the pipeline
// covers:
//
//   - decoding: Pipeline.Decode refuses every body the Resource refuses as
//     one that "cannot be handled", and accepts every body the Resource
//     accepts, reporting the same unknown fields (a body the Resource
//     refuses earlier, for a missing kind or another apiVersion, Decode may
//     refuse or not);
//   - defaulting: the body decoded and defaulted (Decode, Default) equals
//     the Resource's result object outside what REST storage sets: the
//     metadata, the status where a status subresource resets it (on a
//     create or an update of the main resource), and everything but the
//     status on a status update, which keeps the stored object;
//   - validation: Validate, ValidateUpdate and ValidateStatusUpdate of the
//     object the Resource validated (its result object, with the
//     resourceVersion of the request) against the stored object as the
//     pipelines read it (readStored: ReadStored with the pipeline of the
//     version it is stored in, then converted and decoded) give the Resource's field errors (type,
//     path, detail and message, pointers in Go-syntax values aside), except
//     the checks of the scale subresource (errors at its replicas and
//     selector paths, which start with a dot as the CRD spells them,
//     without " in body "), which are Resource's. They are
//     compared in order where the API server's order is stable (the
//     release's golden, or the case's where it has the same errors, says
//     errorsOrdered), else as multisets: the API server runs the CEL
//     rules of sibling fields in Go map order (crdschema in key order).
//
// Not covered, and counted: CRDs with spec.preserveUnknownFields (the
// pipeline of a bare schema always prunes), and CRDs NewPipeline refuses
// (a schema that is not structural, or CEL rules that do not compile, in
// the served version or in one an old object is stored in) but New serves
// because the case's CRD update keeps them.
func TestPipelineMatchesResource(t *testing.T) {
	dir := casesDir()
	files := findCases(t, dir)
	if len(files) == 0 {
		t.Fatalf("no cases under %s", dir)
	}
	for _, rel := range []string{"", "1.36", "1.35", "1.34", "1.33"} {
		var requests, cases, preserve, refused, other int
		for _, f := range files {
			c, err := readCase(f, releaseGolden(dir, f, rel))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			n, skip := comparePipeline(t, f, c, rel)
			switch skip {
			case "preserve":
				preserve++
			case "refused":
				refused++
			case "":
				cases++
				requests += n
			default:
				other++
			}
		}
		if testing.Verbose() || cases == 0 {
			fmt.Printf("pipeline %s: %d cases (%d requests) compared; not covered: %d with preserveUnknownFields, %d whose schema NewPipeline refuses; %d without requests or with a CRD New refuses\n",
				orDefault(rel), cases, requests, preserve, refused, other)
		}
		if cases == 0 {
			t.Errorf("release %s: no case compared", orDefault(rel))
		}
	}
}

func orDefault(rel string) string {
	if rel == "" {
		return "1.37"
	}
	return rel
}

// userPipeline composes the pipeline of a CRD's version as a user of the
// library writes it.
func userPipeline(def *crdschema.CustomResourceDefinition, version string, kv crdschema.KubernetesVersion) (*crd.Pipeline, error) {
	def = crd.Defaulted(def)
	schema, _ := crd.VersionSchema(def, version)
	if schema == nil {
		schema = &crdschema.JSONSchemaProps{} // no schema: nothing is known
	}
	return crd.NewPipeline(schema,
		crd.WithKind(def.Spec.Group, version, def.Spec.Names.Kind, def.Spec.Scope),
		crd.WithKubernetesVersion(kv))
}

// readStored reads the stored object old as a user composes it: with the
// pipeline of the version it is stored in (ReadStored), then, when that is
// not the request's version, converted (for conversion strategy None, the
// apiVersion alone changes) and decoded with the request's pipeline p.
func readStored(p *crd.Pipeline, old map[string]any, def *crdschema.CustomResourceDefinition, version string, kv crdschema.KubernetesVersion) (map[string]any, error) {
	av, _ := old["apiVersion"].(string)
	_, sv, _ := strings.Cut(av, "/")
	if s, _ := crd.VersionSchema(crd.Defaulted(def), sv); sv == "" || sv == version || s == nil {
		return p.ReadStored(old)
	}
	sp, err := userPipeline(def, sv, kv)
	if err != nil {
		return nil, err
	}
	o, err := sp.ReadStored(old)
	if err != nil {
		return nil, err
	}
	o["apiVersion"] = def.Spec.Group + "/" + version
	o, _, err = p.Decode(o)
	return o, err
}

// storedPipelines reports whether NewPipeline compiles the schema of
// every version the old objects of requests are stored in.
func storedPipelines(def *crdschema.CustomResourceDefinition, requests []testRequest, kv crdschema.KubernetesVersion) bool {
	for _, r := range requests {
		old, err := manifest.UnmarshalObject(r.OldObject)
		if err != nil {
			continue
		}
		av, _ := old["apiVersion"].(string)
		_, sv, _ := strings.Cut(av, "/")
		if s, _ := crd.VersionSchema(crd.Defaulted(def), sv); s == nil {
			continue
		}
		if _, err := userPipeline(def, sv, kv); err != nil {
			return false
		}
	}
	return true
}

// comparePipeline compares the requests of c at release rel; it returns
// the number of requests compared, or why c is not covered.
func comparePipeline(t *testing.T, name string, c *testCase, rel string) (int, string) {
	t.Helper()
	def, _, err := manifest.UnmarshalCRD(c.CRD)
	if err != nil || len(c.Requests) == 0 {
		return 0, "no requests"
	}
	version := caseVersion(c, def)
	kv := mustKubeVersion(rel)
	opts := []crd.Option{
		crd.WithClock(func() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }),
		crd.WithUID(func() string { return "00000000-0000-0000-0000-000000000001" }),
		crd.WithNameSuffix(func() string { return "xxxxx" }),
		crd.WithKubernetesVersion(kv),
	}
	if c.OldCRD != nil {
		opts = append(opts, crd.WithoutValidation())
	}
	res, err := crd.New(def, version, opts...)
	if err != nil {
		return 0, "not served"
	}
	if def.Spec.PreserveUnknownFields {
		return 0, "preserve"
	}
	p, err := userPipeline(def, version, kv)
	if err != nil {
		if c.OldCRD == nil {
			t.Errorf("%s (%s): New serves the CRD, NewPipeline refuses its schema: %v", name, orDefault(rel), err)
		}
		return 0, "refused"
	}
	if c.OldCRD != nil && !storedPipelines(def, c.Requests, kv) {
		// a CRD update kept rules a new schema may not have (in the
		// version an old object is stored in)
		return 0, "refused"
	}
	v := crd.Defaulted(def).Version(version)
	var scale *crdschema.CustomResourceSubresourceScale
	hasStatus := false
	if v.Subresources != nil {
		scale = v.Subresources.Scale
		hasStatus = v.Subresources.Status != nil
	}
	ctx := context.Background()
	n := 0
	for i, r := range c.Requests {
		where := fmt.Sprintf("%s (%s) request %d (%s %s)", name, orDefault(rel), i, r.Operation, r.Subresource)
		body, err := manifest.UnmarshalObject(r.Object)
		if err != nil {
			continue
		}
		var old map[string]any
		if r.Operation != "create" {
			if old, err = manifest.UnmarshalObject(r.OldObject); err != nil {
				continue
			}
		}
		var result *crd.Result
		switch {
		case r.Operation == "create":
			result, err = res.Create(ctx, body)
		case r.Subresource == "status":
			result, err = res.UpdateStatus(ctx, body, old)
		default:
			result, err = res.Update(ctx, body, old)
		}
		n++
		decoded, unknown, derr := p.Decode(body)
		if result.Object == nil {
			// A body the Resource could not decode is one Decode refuses;
			// one it refused earlier (a missing kind, another apiVersion:
			// the handler's checks) Decode may refuse or not.
			if strings.Contains(err.Error(), "cannot be handled as") && derr == nil {
				t.Errorf("%s: Resource refused with %v; Decode accepted the body", where, err)
			}
			continue
		}
		if derr != nil {
			t.Errorf("%s: Decode: %v; the Resource decoded the body", where, derr)
			continue
		}
		if !reflect.DeepEqual(unknown, result.UnknownFields) {
			t.Errorf("%s: unknown fields %q, Resource %q", where, unknown, result.UnknownFields)
		}
		p.Default(decoded)
		status := r.Subresource == "status"
		if d := nonREST(decoded, hasStatus, status); !reflect.DeepEqual(d, nonREST(result.Object, hasStatus, status)) {
			t.Errorf("%s: decoded and defaulted\n%v\nResource\n%v", where, d, nonREST(result.Object, hasStatus, status))
		}

		// The object the Resource validated.
		obj := copyObject(result.Object)
		m, _ := obj["metadata"].(map[string]any)
		delete(m, "resourceVersion")
		if bm, ok := body["metadata"].(map[string]any); ok && r.Operation != "create" && bm["resourceVersion"] != nil {
			m["resourceVersion"] = bm["resourceVersion"]
		}
		var errs crdschema.ErrorList
		if r.Operation == "create" {
			errs = p.Validate(ctx, obj)
		} else {
			stored, err := readStored(p, old, def, version, kv)
			if err != nil {
				t.Errorf("%s: ReadStored: %v", where, err)
				continue
			}
			if status {
				errs = p.ValidateStatusUpdate(ctx, obj, stored)
			} else {
				errs = p.ValidateUpdate(ctx, obj, stored)
			}
		}
		greqs, _ := c.Golden["requests"].([]any)
		ordered := false
		if i < len(greqs) {
			g, _ := greqs[i].(map[string]any)
			ordered = g["errorsOrdered"] == true && describes(g, result.Errors)
		}
		if got, want := errorTexts(errs, ordered), errorTexts(withoutScale(result.Errors, scale), ordered); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: errors\n%s\nResource\n%s", where, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	return n, ""
}

// releaseGolden returns the golden of the case file f (below dir) at
// release rel: the release's own where the oracle wrote one, else the
// case's.
func releaseGolden(dir, f, rel string) string {
	golden := strings.TrimSuffix(f, ".yaml") + ".golden.json"
	if rel == "" {
		return golden
	}
	name, err := filepath.Rel(dir, golden)
	if err != nil {
		return golden
	}
	if g := filepath.Join(releasesDir(), rel, name); fileExists(g) {
		return g
	}
	return golden
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// describes reports whether the golden request g has the errors errs (by
// message, in any order): only then does its errorsOrdered say anything
// of them. A case outside the suite has no golden of an older release,
// whose errors may differ from the newest's.
func describes(g map[string]any, errs crdschema.ErrorList) bool {
	gerrs, _ := g["errors"].([]any)
	if len(gerrs) != len(errs) {
		return false
	}
	var want, got []string
	for i, ge := range gerrs {
		m, _ := ge.(map[string]any)
		msg, _ := m["message"].(string)
		want = append(want, msg)
		got = append(got, errs[i].Error())
	}
	sort.Strings(want)
	sort.Strings(got)
	return reflect.DeepEqual(want, got)
}

// nonREST is what of o the pipeline decides: o without metadata, and
// without the status where REST storage sets it, or only the status on a
// status update.
func nonREST(o map[string]any, hasStatus, statusUpdate bool) map[string]any {
	out := map[string]any{}
	for k, v := range o {
		switch {
		case k == "metadata":
		case statusUpdate && k != "status":
		case !statusUpdate && hasStatus && k == "status":
		default:
			out[k] = v
		}
	}
	return out
}

// withoutScale leaves out of errs the checks of the scale subresource: the
// errors at the scale paths themselves (".spec.replicas"), not those of
// the schema or of CEL rules at the same field ("spec.replicas").
func withoutScale(errs crdschema.ErrorList, scale *crdschema.CustomResourceSubresourceScale) crdschema.ErrorList {
	if scale == nil {
		return errs
	}
	paths := map[string]bool{scale.SpecReplicasPath: true, scale.StatusReplicasPath: true}
	if scale.LabelSelectorPath != nil {
		paths[*scale.LabelSelectorPath] = true
	}
	var out crdschema.ErrorList
	for _, e := range errs {
		if paths[e.Field] && e.Type == crdschema.ErrorTypeInvalid && !strings.Contains(e.Detail, " in body ") {
			continue
		}
		out = append(out, e)
	}
	return out
}

// goPointer matches a pointer in a value printed in Go syntax.
var goPointer = regexp.MustCompile(`\(0x[0-9a-f]+\)`)

func errorTexts(errs crdschema.ErrorList, ordered bool) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s %s %s: %s", e.Type, e.Field, e.Detail, goPointer.ReplaceAllString(e.Error(), "(ptr)")))
	}
	if !ordered {
		sort.Strings(out)
	}
	return out
}

func copyObject(o map[string]any) map[string]any {
	out, _ := copyValue(o).(map[string]any)
	return out
}

func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = copyValue(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = copyValue(e)
		}
		return l
	}
	return v
}
