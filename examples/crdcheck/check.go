package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

// Statuses of a checked object.
const (
	statusAccepted = "accepted"
	statusRejected = "rejected"
	statusSkipped  = "skipped"
)

// outcome is what became of one document.
type outcome struct {
	doc                               *document
	apiVersion, kind, namespace, name string
	operation                         string // "create", "update", or "" when not checked
	status                            string
	errs                              crdschema.ErrorList
	unknownFields                     []string
	problem                           string // why refused (when operation is set), undecodable or skipped
	message                           string // what kubectl prints for a refusal, when known
}

// checkAll checks every document, opts.jobs at a time, and returns the
// outcomes in the order of docs. ctx bounds the evaluation of CEL rules.
func checkAll(ctx context.Context, cat *catalog, olds *oldObjects, docs []document, opts *options, prog *progress) []outcome {
	out := make([]outcome, len(docs))
	parallel(len(docs), opts.jobs, func(i int) {
		out[i] = checkOne(ctx, cat, olds, &docs[i], opts.strict)
		prog.add(1)
	})
	return out
}

// checkOne runs the request the document stands for: a create, or an
// update when olds has an old object for it. With strict, a request with
// unknown fields is refused as with kubectl's --validate=strict.
func checkOne(ctx context.Context, cat *catalog, olds *oldObjects, doc *document, strict bool) outcome {
	o := outcome{doc: doc, status: statusRejected}
	if doc.err != nil {
		o.problem = "cannot decode: " + doc.err.Error()
		return o
	}
	o.apiVersion, _ = doc.obj["apiVersion"].(string)
	o.kind, _ = doc.obj["kind"].(string)
	meta, _ := doc.obj["metadata"].(map[string]any)
	o.namespace, _ = meta["namespace"].(string)
	o.name, _ = meta["name"].(string)
	switch {
	case o.apiVersion == "":
		o.problem = "apiVersion not set"
		return o
	case o.kind == "":
		o.problem = "kind not set"
		return o
	}
	res, reason := cat.lookup(o.apiVersion, o.kind)
	if res == nil {
		o.status, o.problem = statusSkipped, reason
		return o
	}

	var (
		result *crd.Result
		err    error
	)
	if old := olds.find(cat, doc.obj); old != nil {
		o.operation = "update"
		result, err = res.Update(ctx, withResourceVersion(doc.obj, old), old)
	} else {
		o.operation = "create"
		result, err = res.Create(ctx, doc.obj)
	}
	if err != nil {
		var re *crd.RequestError
		if !errors.As(err, &re) {
			re = &crd.RequestError{Reason: "BadRequest", Message: err.Error()}
		}
		o.problem = re.Message
		verb := map[string]string{"create": "creating", "update": "replacing"}[o.operation]
		o.message = fmt.Sprintf("Error from server (%s): error when %s %q: %s", re.Reason, verb, doc.file, re.Message)
		return o
	}
	if m, _ := result.Object["metadata"].(map[string]any); m != nil {
		// a generated name or the default namespace
		if n, _ := m["name"].(string); n != "" {
			o.name = n
		}
		if ns, _ := m["namespace"].(string); ns != "" {
			o.namespace = ns
		}
	}
	o.errs, o.unknownFields = result.Errors, result.UnknownFields
	if strict && len(o.unknownFields) > 0 {
		// The strict decoder fails before validation.
		o.problem, o.errs = strictDecodingError(o.apiVersion, o.kind, o.unknownFields), nil
		verb := map[string]string{"create": "creating", "update": "replacing"}[o.operation]
		o.message = fmt.Sprintf("Error from server (BadRequest): error when %s %q: %s", verb, doc.file, o.problem)
		return o
	}
	if len(o.errs) == 0 {
		o.status = statusAccepted
	}
	return o
}

// withResourceVersion returns obj with the resourceVersion of old when it
// has none, as kubectl apply's read-modify-write sends it (the API server
// requires one on updates). obj is not modified.
func withResourceVersion(obj, old map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	if rv, _ := meta["resourceVersion"].(string); rv != "" {
		return obj
	}
	oldMeta, _ := old["metadata"].(map[string]any)
	rv, _ := oldMeta["resourceVersion"].(string)
	if rv == "" {
		rv = "1" // what the store reports for an object stored without one
	}
	m := make(map[string]any, len(meta)+1)
	for k, v := range meta {
		m[k] = v
	}
	m["resourceVersion"] = rv
	o := make(map[string]any, len(obj))
	for k, v := range obj {
		o[k] = v
	}
	o["metadata"] = m
	return o
}

// objectKey identifies a stored object: group, kind, namespace, name.
type objectKey struct{ group, kind, namespace, name string }

// oldObjects are the stored objects given with -old.
type oldObjects struct {
	byKey map[objectKey]map[string]any
}

// indexOld indexes the objects of docs; of two with the same key the
// first is kept. Documents that cannot be decoded are ignored.
func indexOld(cat *catalog, docs []document) *oldObjects {
	o := &oldObjects{byKey: map[objectKey]map[string]any{}}
	for _, d := range docs {
		if d.obj == nil {
			continue
		}
		k := keyOf(cat, d.obj)
		if _, dup := o.byKey[k]; !dup {
			o.byKey[k] = d.obj
		}
	}
	return o
}

// find returns the old object of obj, or nil.
func (o *oldObjects) find(cat *catalog, obj map[string]any) map[string]any {
	if o == nil {
		return nil
	}
	return o.byKey[keyOf(cat, obj)]
}

// keyOf is obj's key; a namespaced object without namespace is in
// "default", as kubectl sends it.
func keyOf(cat *catalog, obj map[string]any) objectKey {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	meta, _ := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	group, _ := splitAPIVersion(av)
	switch {
	case !cat.namespaced(av, kind):
		ns = ""
	case ns == "":
		ns = "default"
	}
	return objectKey{group, kind, ns, name}
}

// parallel calls f(0), ..., f(n-1) from up to jobs goroutines and waits
// for them.
func parallel(n, jobs int, f func(i int)) {
	if jobs > n {
		jobs = n
	}
	if jobs <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// strictDecodingError is the API server's refusal of a body with unknown
// fields under strict field validation.
func strictDecodingError(apiVersion, kind string, unknown []string) string {
	var b strings.Builder
	_, version := splitAPIVersion(apiVersion)
	fmt.Fprintf(&b, "%s in version %q cannot be handled as a %s: strict decoding error: ", kind, version, kind)
	for i, f := range unknown {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "unknown field %q", f)
	}
	return b.String()
}
