package crd

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/release"
)

// ReleaseResult is what the API server of one Kubernetes release does with
// a CRD: accept it, or refuse it with Errors. Reasons explain a refusal in
// terms a user acts on, one line per error, saying from or before which
// release the error goes away when it does ("`isSemver` is not available
// before Kubernetes 1.34", "estimated cost exceeds the limit from
// Kubernetes 1.37 on").
type ReleaseResult struct {
	// Version is the release, "1.34".
	Version  string
	Accepted bool
	Errors   crdschema.ErrorList
	Reasons  []string
}

// CheckReleases validates def as the API servers of the Kubernetes
// releases from to to (inclusive) do, as a create, or as an update of the
// stored old when old is not nil, and reports one ReleaseResult per
// release, oldest first. The error is for from after to.
//
// Use it to find which clusters a CRD can be installed on: a CRD that
// passes in a 1.37 test may use a CEL function an older release lacks, or
// exceed a cost limit a newer release computes differently.
func CheckReleases(ctx context.Context, def, old *crdschema.CustomResourceDefinition, from, to crdschema.KubernetesVersion) ([]ReleaseResult, error) {
	lo, hi := release.Of(from), release.Of(to)
	if lo > hi {
		return nil, fmt.Errorf("crd.CheckReleases: from %s is after to %s", lo, hi)
	}
	// Every release is validated, in range or not, so that a reason can
	// say where an error goes away.
	// The releases share the parses of the expressions through one cache
	// (compilations are each release's own).
	all := map[release.Minor]crdschema.ErrorList{}
	cache := WithCache(new(celrules.Cache))
	for m := release.Oldest; m <= release.Newest; m++ {
		v, _ := crdschema.ParseKubernetesVersion(m.String())
		opt := WithKubernetesVersion(v)
		if old != nil {
			all[m] = ValidateUpdate(ctx, def, old, opt, cache)
		} else {
			all[m] = Validate(ctx, def, opt, cache)
		}
	}
	var out []ReleaseResult
	for m := lo; m <= hi; m++ {
		errs := all[m]
		r := ReleaseResult{Version: m.String(), Accepted: len(errs) == 0, Errors: errs}
		for _, e := range errs {
			r.Reasons = append(r.Reasons, explain(e, m, all))
		}
		out = append(out, r)
	}
	return out, nil
}

// errorKey identifies an error across releases: its type, field and
// detail (values and wordings may differ between releases).
func errorKey(e *crdschema.Error) string {
	return string(e.Type) + "\x00" + e.Field + "\x00" + e.Detail
}

// undeclared finds the function or variable a CEL compile error names.
var undeclared = regexp.MustCompile(`undeclared reference to '([^']+)'|found no matching overload for '([^']+)'|unsupported syntax '([^']+)'`)

// explain words why release m refuses with e, given every release's errors.
func explain(e *crdschema.Error, m release.Minor, all map[release.Minor]crdschema.ErrorList) string {
	key := errorKey(e)
	has := func(r release.Minor) bool {
		return slices.ContainsFunc(all[r], func(x *crdschema.Error) bool { return errorKey(x) == key })
	}
	// The releases after m that do not refuse with e, and the ones before.
	firstWithout := release.Minor(0)
	for r := m + 1; r <= release.Newest; r++ {
		if !has(r) {
			firstWithout = r
			break
		}
	}
	firstWith := m
	for r := m - 1; r >= release.Oldest && has(r); r-- {
		firstWith = r
	}
	what := e.Field + ": " + e.Detail
	switch {
	case firstWithout != 0 && firstWithout == nextAllWithout(m, has):
		if sm := undeclared.FindStringSubmatch(e.Detail); sm != nil {
			name := strings.Join(sm[1:], "")
			return fmt.Sprintf("%s: `%s` is not available before Kubernetes %s", e.Field, name, firstWithout)
		}
		return fmt.Sprintf("%s (refused before Kubernetes %s)", what, firstWithout)
	case firstWith > release.Oldest:
		if strings.Contains(e.Detail, "exceeds budget") || strings.Contains(e.Detail, "exceeding cost limit") {
			return fmt.Sprintf("%s: estimated cost exceeds the limit from Kubernetes %s on", e.Field, firstWith)
		}
		return fmt.Sprintf("%s (refused from Kubernetes %s on)", what, firstWith)
	}
	return what
}

// nextAllWithout returns the first release after m from which on no
// release has the error, or 0.
func nextAllWithout(m release.Minor, has func(release.Minor) bool) release.Minor {
	first := release.Minor(0)
	for r := release.Newest; r > m; r-- {
		if has(r) {
			break
		}
		first = r
	}
	return first
}
