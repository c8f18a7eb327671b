// Package kubeapitest holds what the tests of fakeclient and testserver
// share: the run of the conformance cases through a client
// (RunThroughClient), the reading of a client's error as a Refusal, which
// needs k8s.io's types, and a recorder of warnings.
package kubeapitest

import (
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
)

// RefusalOf is what a client reported of a refused request (nil for a nil
// err: the request was accepted): a status error's reason and causes. A
// client's refusal of a kind it cannot map (meta's NoMatch error) counts as
// a status: a client of the API server refuses it so before sending.
func RefusalOf(err error) *Refusal {
	if err == nil {
		return nil
	}
	r := &Refusal{Message: err.Error(), Status: meta.IsNoMatchError(err)}
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		r.Status, r.Reason = true, string(se.ErrStatus.Reason)
		if d := se.ErrStatus.Details; d != nil {
			for _, c := range d.Causes {
				r.Causes = append(r.Causes, Cause{Type: string(c.Type), Field: c.Field, Message: c.Message})
			}
		}
	}
	return r
}
