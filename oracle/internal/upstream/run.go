package upstream

import (
	"fmt"

	apihelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
)

// RunCase runs the CRD step, then the requests, and records OpenAPI if
// asked. notes are remarks for the person running the oracle.
func RunCase(c *Case) (g *Golden, notes []string, err error) {
	step, err := runCRDStep(c)
	if err != nil {
		return nil, nil, err
	}
	g = &Golden{CRD: step.result}
	if step.served == nil {
		if len(c.Requests) > 0 || c.OpenAPI {
			notes = append(notes, "the CRD is rejected; requests and openapi are not run")
		}
		return g, notes, nil
	}

	if c.OpenAPI {
		if !apihelpers.HasServedCRDVersion(step.served, c.Version) {
			return nil, nil, &CaseError{path: c.Path, msg: "openapi: version " + c.Version + " is not served, nothing is published for it"}
		}
		if g.OpenAPI, err = buildOpenAPI(step.served, c.Version); err != nil {
			return nil, nil, fmt.Errorf("openapi: %w", err)
		}
	}

	if len(c.Requests) > 0 {
		si, err := newServingInfo(step.served, c.Version)
		if err != nil {
			return nil, nil, &CaseError{path: c.Path, msg: "cannot serve the CRD: " + err.Error()}
		}
		for i, r := range c.Requests {
			res, err := si.runRequest(c, i, r)
			if err != nil {
				return nil, nil, err
			}
			g.Requests = append(g.Requests, res)
		}
	}
	return g, notes, nil
}
