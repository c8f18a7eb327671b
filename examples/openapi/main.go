// Command openapi prints the OpenAPI v3 schema that the API server
// publishes for the CronTab custom resource (the CRD of the Kubernetes
// documentation), or for the CRD in the file named by the first argument.
package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"

	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/openapi"
)

//go:embed crontab.yaml
var crontabCRD []byte

func main() {
	data := crontabCRD
	if len(os.Args) > 1 {
		var err error
		if data, err = os.ReadFile(os.Args[1]); err != nil {
			fail(err)
		}
	}
	def, _, err := manifest.UnmarshalCRD(data)
	if err != nil {
		fail(err)
	}
	sv := def.StorageVersion()
	if sv == nil {
		fail(fmt.Errorf("%s has no single storage version", def.Name))
	}
	doc, err := openapi.V3(def, sv.Name, openapi.Options{})
	if err != nil {
		fail(err)
	}
	// The kind's schema, under its model name: the reversed group, the
	// version and the kind (com.example.stable.v1.CronTab).
	for name, s := range doc.Components.Schemas {
		if ext, ok := s.Extensions["x-kubernetes-group-version-kind"]; ok {
			gvks, _ := json.Marshal(ext)
			var list []map[string]string
			_ = json.Unmarshal(gvks, &list)
			if len(list) == 1 && list[0]["kind"] == def.Spec.Names.Kind {
				out, err := json.MarshalIndent(s, "", "  ")
				if err != nil {
					fail(err)
				}
				fmt.Printf("# %s (in /openapi/v3/apis/%s/%s)\n%s\n", name, def.Spec.Group, sv.Name, out)
			}
		}
	}
	fmt.Printf("# the document has %d paths and %d schemas\n", len(doc.Paths), len(doc.Components.Schemas))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "openapi:", err)
	os.Exit(1)
}
