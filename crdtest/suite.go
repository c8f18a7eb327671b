package crdtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// suite is one test suite file: the test cases of one CRD, for the CRD
// variants that a set of feature gates selects.
type suite struct {
	// APIVersion is ignored; openshift/api's suites carry one so that
	// their code generator leaves them alone.
	APIVersion   string   `json:"apiVersion,omitempty"`
	Name         string   `json:"name"`
	CRDName      string   `json:"crdName"`
	FeatureGates []string `json:"featureGates,omitempty"`
	Version      string   `json:"version,omitempty"`
	Tests        struct {
		OnCreate []createCase `json:"onCreate,omitempty"`
		OnUpdate []updateCase `json:"onUpdate,omitempty"`
	} `json:"tests"`

	path     string   // the file the suite was read from
	warnings []string // what the file has that the format does not know
}

// createCase is a case of tests.onCreate.
type createCase struct {
	Name          string `json:"name"`
	Initial       string `json:"initial"`
	ExpectedError string `json:"expectedError,omitempty"`
	Expected      string `json:"expected,omitempty"`
}

// updateCase is a case of tests.onUpdate.
type updateCase struct {
	Name                string  `json:"name"`
	InitialCRDPatches   []patch `json:"initialCRDPatches,omitempty"`
	Initial             string  `json:"initial"`
	Updated             string  `json:"updated"`
	ExpectedError       string  `json:"expectedError,omitempty"`
	ExpectedStatusError string  `json:"expectedStatusError,omitempty"`
	Expected            string  `json:"expected,omitempty"`
}

// patch is one operation of a JSON patch (RFC 6902) applied to the CRD.
type patch struct {
	Op    string           `json:"op"`
	Path  string           `json:"path"`
	Value *json.RawMessage `json:"value,omitempty"`
	From  string           `json:"from,omitempty"`
}

// readSuite reads and checks the suite file at path.
func readSuite(path string) (*suite, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a YAML test suite: %v", path, err)
	}
	s := &suite{path: path}
	if err := json.Unmarshal(j, s); err != nil {
		return nil, fmt.Errorf("%s: not a test suite: %v", path, err)
	}
	// Unknown fields are ignored, as openshift/api's runner ignores them,
	// but reported: a misspelt field silently changes what runs.
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&suite{}); err != nil {
		s.warnings = append(s.warnings, fmt.Sprintf("%s: %v (ignored)", path, strings.TrimPrefix(err.Error(), "json: ")))
	}
	if s.CRDName == "" {
		return nil, fmt.Errorf("%s: test suite has no crdName", path)
	}
	for i, c := range s.Tests.OnCreate {
		if c.Name == "" {
			return nil, fmt.Errorf("%s: tests.onCreate[%d] has no name", path, i)
		}
	}
	for i, c := range s.Tests.OnUpdate {
		if c.Name == "" {
			return nil, fmt.Errorf("%s: tests.onUpdate[%d] has no name", path, i)
		}
		for j, p := range c.InitialCRDPatches {
			if err := p.check(); err != nil {
				return nil, fmt.Errorf("%s: tests.onUpdate[%d] (%s): initialCRDPatches[%d]: %v", path, i, c.Name, j, err)
			}
		}
	}
	return s, nil
}
