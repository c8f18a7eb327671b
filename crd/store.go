package crd

import (
	"errors"
	"strconv"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// The size limits of the API server with its default settings.
const (
	// maxRequestBodyBytes is the largest request body the API server
	// reads (its --max-request-bytes, 3 MiB).
	maxRequestBodyBytes = 3 << 20
	// maxStoredBytes is the largest object etcd stores (its
	// --max-request-bytes, 1.5 MiB).
	maxStoredBytes = 3 << 19
)

// checkBodySize refuses a request body whose JSON encoding is longer than
// the API server reads, as it does.
func checkBodySize(obj map[string]any) error {
	if obj != nil && jsonvalue.EncodedLenOver(obj, maxRequestBodyBytes) {
		return refuseAs(StatusReasonRequestEntityTooLarge, "Request entity too large: limit is %d", maxRequestBodyBytes)
	}
	return nil
}

// refused returns the Result and the error of a request refused before
// validation.
func refused(unknown []string, err error) (*Result, error) {
	res := &Result{UnknownFields: unknown}
	for _, f := range unknown {
		res.Warnings = append(res.Warnings, unknownFieldWarning(f))
	}
	var re *RequestError
	if errors.As(err, &re) {
		res.Errors = re.Errors
	}
	return res, err
}

// store ends a request that reached validation: a valid object is stored
// as storage does, with a resourceVersion greater than oldRV and than every
// one this Resource gave before; the error is nil when it is.
func (r *Resource) store(res *Result, oldRV uint64) (*Result, error) {
	if len(res.Errors) > 0 {
		return res, res.invalid()
	}
	if jsonvalue.EncodedLenOver(res.Object, maxStoredBytes) {
		// The API server retries without the managedFields.
		m, _ := res.Object["metadata"].(map[string]any)
		if _, ok := m["managedFields"]; !ok || func() bool {
			delete(m, "managedFields")
			return jsonvalue.EncodedLenOver(res.Object, maxStoredBytes)
		}() {
			return res, &RequestError{Message: "etcdserver: request is too large"}
		}
	}
	if m, ok := res.Object["metadata"].(map[string]any); ok {
		m["resourceVersion"] = strconv.FormatUint(r.nextResourceVersion(oldRV), 10)
	}
	return res, nil
}

// nextResourceVersion returns the resourceVersion of the next object
// stored: greater than oldRV and than every one returned before, as etcd's
// revisions grow.
func (r *Resource) nextResourceVersion(oldRV uint64) uint64 {
	for {
		cur := r.resourceVersion.Load()
		next := max(cur, oldRV) + 1
		if r.resourceVersion.CompareAndSwap(cur, next) {
			return next
		}
	}
}
