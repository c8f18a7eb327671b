// Package kubeapitest holds what the tests of fakeclient and testserver
// share: the reading of a client's error as a casefile.Refusal, which needs
// k8s.io's types, and a recorder of warnings.
package kubeapitest

import (
	"errors"

	"github.com/crdschema/crdschema/internal/casefile"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
)

// Refusal is what a client reported of a refused request (nil for a nil
// err: the request was accepted): a status error's reason and causes. A
// client's refusal of a kind it cannot map (meta's NoMatch error) counts as
// a status: a client of the API server refuses it so before sending.
func Refusal(err error) *casefile.Refusal {
	if err == nil {
		return nil
	}
	r := &casefile.Refusal{Message: err.Error(), Status: meta.IsNoMatchError(err)}
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		r.Status, r.Reason = true, string(se.ErrStatus.Reason)
		if d := se.ErrStatus.Details; d != nil {
			for _, c := range d.Causes {
				r.Causes = append(r.Causes, casefile.Cause{Type: string(c.Type), Field: c.Field, Message: c.Message})
			}
		}
	}
	return r
}
