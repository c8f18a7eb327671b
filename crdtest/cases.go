package crdtest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
)

// The namespace and generateName the runner gives every object.
const (
	testNamespace    = "default"
	testGenerateName = "test-"
)

// failure is the failure of a case.
type failure struct {
	c   testCase
	msg string
	// For an error that does not contain the expected text: the error
	// and the text.
	got  error
	want string
}

// Error names the suite file and the case, and says what went wrong.
func (f *failure) Error() string {
	return fmt.Sprintf("%s: %s %q: %s", f.c.s.path, f.c.kind, f.c.name, f.msg)
}

// caseError returns the failure of case c.
func caseError(c testCase, format string, args ...any) error {
	return &failure{c: c, msg: fmt.Sprintf(format, args...)}
}

// run runs case c against the CRD variant v; it returns nil when the case
// passes.
func (r *runner) run(ctx context.Context, v *variant, c testCase) error {
	if c.create != nil {
		return r.runCreate(ctx, v, c)
	}
	return r.runUpdate(ctx, v, c)
}

// object reads a YAML object of a case, checks that the CRD variant v
// serves it, and sets the namespace and generateName the runner sets.
func (r *runner) object(c testCase, v *variant, field, text string) (map[string]any, error) {
	obj, err := r.decode(text)
	if err != nil {
		return nil, caseError(c, "%s is not a YAML object: %v", field, err)
	}
	if err := served(v.def, obj); err != nil {
		return nil, caseError(c, "%s: %v", field, err)
	}
	setMeta(obj, "generateName", testGenerateName)
	setMeta(obj, "namespace", testNamespace)
	return obj, nil
}

// served checks that obj is of the kind and version the resource serves,
// as the client's REST mapping does.
func served(def *crdschema.CustomResourceDefinition, obj map[string]any) error {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	var vs []string
	for _, ver := range def.Spec.Versions {
		gv := def.Spec.Group + "/" + ver.Name
		switch {
		case !ver.Served:
		case apiVersion == gv && kind == def.Spec.Names.Kind:
			return nil
		default:
			vs = append(vs, gv) // for the error
		}
	}
	return fmt.Errorf("no matches for kind %q in version %q (CRD %s serves kind %q in %s)", kind, apiVersion, def.Name, def.Spec.Names.Kind, strings.Join(vs, ", "))
}

// expectError checks the error of a request against the substring a case
// expects.
func expectError(c testCase, what string, err error, want string) error {
	if err == nil {
		return caseError(c, "%s succeeded, want an error containing\n    %s", what, want)
	}
	if !strings.Contains(err.Error(), want) {
		f := caseError(c, "%s: the error does not contain the expected text\n  want (substring): %s\n  got:              %s", what, want, err.Error()).(*failure)
		f.got, f.want = err, want
		return f
	}
	return nil
}

// expectObject compares the stored object with the one a case expects.
func (r *runner) expectObject(c testCase, got map[string]any, text string) error {
	exp, err := r.decoded(text) // diffObjects modifies copies
	if err != nil {
		return caseError(c, "expected is not a YAML object: %v", err)
	}
	if d := diffObjects(exp, got); d != "" {
		return caseError(c, "the stored object differs from expected (-expected +stored):\n%s", d)
	}
	return nil
}

// runCreate runs an onCreate case: create initial; expect the error, or
// read the object back and compare it with expected.
func (r *runner) runCreate(ctx context.Context, v *variant, c testCase) error {
	obj, err := r.object(c, v, "initial", c.create.Initial)
	if err != nil {
		return err
	}
	stored, err := request(ctx, v.res, "create", obj, nil)
	if c.create.ExpectedError != "" {
		return expectError(c, "create", err, c.create.ExpectedError)
	}
	if err != nil {
		return caseError(c, "create failed: %v", err)
	}
	got, err := v.res.ReadStored(stored)
	if err != nil {
		return caseError(c, "reading the object back: %v", err)
	}
	return r.expectObject(c, got, c.create.Expected)
}

// store keeps the object of an update case as the API server stores it.
type store struct {
	obj map[string]any
	rv  int
}

// put stores obj with the next resourceVersion.
func (s *store) put(obj map[string]any) {
	s.rv++
	setMeta(obj, "resourceVersion", strconv.Itoa(s.rv))
	s.obj = obj
}

// runUpdate runs an onUpdate case with the sequence of openshift/api's
// runner: with initialCRDPatches, the CRD is patched (and gets a sentinel
// field) before initial is created; initial is created, then its status
// written through the status subresource when it has one; the CRD is
// restored and the object updated under it once (the sentinel changes),
// so that ratcheting applies to what the patched CRD allowed; then the
// object is updated to updated (name, namespace and resourceVersion taken
// from the stored object) and, when updated has a status, its status is
// written through the status subresource; expectedError and
// expectedStatusError are checked against these two requests, expected
// against the object read back.
func (r *runner) runUpdate(ctx context.Context, v *variant, c testCase) error {
	u := c.update
	initial, err := r.object(c, v, "initial", u.Initial)
	if err != nil {
		return err
	}
	initialStatus, hasStatus := initial["status"]
	if hasStatus && initialStatus == nil {
		return caseError(c, "initial: status is null")
	}
	cur := v.res // the resource as the CRD currently is
	var patched *crdschema.CustomResourceDefinition
	if len(u.InitialCRDPatches) > 0 {
		sentinel := metaString(initial, "uid") + "+patched"
		ops, _ := json.Marshal(u.InitialCRDPatches)
		if patched, err = r.patchedCRD(v, u.InitialCRDPatches, string(ops), sentinel); err != nil {
			return caseError(c, "initialCRDPatches: %v", err)
		}
		c2 := r.compile(v.file.specKey()+"\x00"+string(ops)+"\x00"+sentinel, patched, v.version, v.def)
		if c2.err != nil {
			return caseError(c, "updating the CRD with initialCRDPatches failed: %v", c2.err)
		}
		cur = c2.res
		initial["sentinel"] = metaString(initial, "uid") + "+patched"
	}
	var st store
	created, err := request(ctx, cur, "create", initial, nil)
	if err != nil {
		return caseError(c, "initial object should create successfully: %v", err)
	}
	st.put(created)
	if hasStatus {
		obj, err := cur.ReadStored(st.obj)
		if err != nil {
			return caseError(c, "reading the object back: %v", err)
		}
		obj["status"] = initialStatus
		next, err := request(ctx, cur, "updateStatus", obj, st.obj)
		if err != nil {
			return caseError(c, "initial object status should update successfully: %v", err)
		}
		st.put(next)
	}
	if patched != nil {
		// The runner restores the CRD with a sentinel field of another
		// value and updates the object once to carry it, to know the
		// API server serves the restored CRD. The update runs here under
		// the restored CRD without the sentinel field (the field is
		// pruned): the field has no effect on the validation of the
		// rest of the object.
		obj, err := v.res.ReadStored(st.obj)
		if err != nil {
			return caseError(c, "reading the object back: %v", err)
		}
		next, err := request(ctx, v.res, "update", obj, st.obj)
		if err != nil {
			return caseError(c, "sentinel should be persisted (the update of the initial object after restoring the CRD failed): %v", err)
		}
		st.put(next)
	}
	got, err := v.res.ReadStored(st.obj)
	if err != nil {
		return caseError(c, "reading the object back: %v", err)
	}
	updated, err := r.object(c, v, "updated", u.Updated)
	if err != nil {
		return err
	}
	updatedStatus, hasUpdatedStatus := updated["status"]
	if hasUpdatedStatus && updatedStatus == nil {
		return caseError(c, "updated: status is null")
	}
	setMeta(updated, "name", metaString(got, "name"))
	setMeta(updated, "namespace", metaString(got, "namespace"))
	setMeta(updated, "resourceVersion", metaString(got, "resourceVersion"))
	next, err := request(ctx, v.res, "update", updated, st.obj)
	if u.ExpectedError != "" {
		return expectError(c, "update", err, u.ExpectedError)
	}
	if err != nil {
		return caseError(c, "unexpected error updating spec: %v", err)
	}
	st.put(next)
	if hasUpdatedStatus {
		obj, err := v.res.ReadStored(st.obj)
		if err != nil {
			return caseError(c, "reading the object back: %v", err)
		}
		obj["status"] = updatedStatus
		next, err := request(ctx, v.res, "updateStatus", obj, st.obj)
		if u.ExpectedStatusError != "" {
			return expectError(c, "status update", err, u.ExpectedStatusError)
		}
		if err != nil {
			return caseError(c, "unexpected error updating status: %v", err)
		}
		st.put(next)
	}
	if got, err = v.res.ReadStored(st.obj); err != nil {
		return caseError(c, "reading the object back: %v", err)
	}
	return r.expectObject(c, got, u.Expected)
}

// patchedCRD returns the CRD of v's manifest with patches applied, as
// openshift/api's runner installs it for initialCRDPatches (all the
// manifest's versions, patched), with a sentinel field of the given value
// added to the schema of its first version.
func patchedCRD(v *variant, patches []patch, sentinel string) (*crdschema.CustomResourceDefinition, error) {
	doc, err := v.file.doc()
	if err != nil {
		return nil, err
	}
	if doc, err = applyPatches(doc, patches); err != nil {
		return nil, err
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	def, _, err := manifest.UnmarshalCRD(out)
	if err != nil {
		return nil, fmt.Errorf("the patched CRD: %v", err)
	}
	return def, addSentinel(def, sentinel)
}

// addSentinel adds the property sentinel, a string with the only allowed
// value value, to the root schema of def's first version.
func addSentinel(def *crdschema.CustomResourceDefinition, value string) error {
	if len(def.Spec.Versions) == 0 || def.Spec.Versions[0].Schema == nil || def.Spec.Versions[0].Schema.OpenAPIV3Schema == nil {
		return fmt.Errorf("the CRD has no schema in its first version")
	}
	s := def.Spec.Versions[0].Schema.OpenAPIV3Schema
	props := make(map[string]crdschema.JSONSchemaProps, len(s.Properties)+1)
	maps.Copy(props, s.Properties)
	props["sentinel"] = crdschema.JSONSchemaProps{Type: "string", Enum: []crdschema.JSON{{Value: value}}}
	s.Properties = props
	return nil
}
