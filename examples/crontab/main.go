// Command crontab walks through the CronTab example of the Kubernetes
// documentation on CustomResourceDefinitions with crdschema, printing what
// each step shows.
package main

import (
	_ "embed"
	"fmt"
	"os"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

//go:embed crontab.yaml
var crontabCRD []byte

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "crontab:", err)
		os.Exit(1)
	}
}

func run() error {
	step("Decode the CronTab CRD")
	def, unknown, err := crdschema.UnmarshalCRD(crontabCRD)
	if err != nil {
		return err
	}
	fmt.Printf("%s: group %s, kind %s, %d version(s), unknown fields: %d\n",
		def.Name, def.Spec.Group, def.Spec.Names.Kind, len(def.Spec.Versions), len(unknown))

	step("Would the API server accept it?")
	report(crd.Validate(def))

	step("A schema that is not structural: a property without a type")
	bad, _, err := crdschema.UnmarshalCRD(crontabCRD)
	if err != nil {
		return err
	}
	spec := bad.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	image := spec.Properties["image"]
	image.Type = ""
	spec.Properties["image"] = image
	report(crd.Validate(bad))

	step("Names that do not fit: a plural in upper case")
	bad.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["image"] = crdschema.JSONSchemaProps{Type: "string"}
	bad.Spec.Names.Plural = "CronTabs"
	report(crd.Validate(bad))
	return nil
}

func step(title string) {
	fmt.Printf("\n== %s\n", title)
}

func report(errs crdschema.ErrorList) {
	if len(errs) == 0 {
		fmt.Println("accepted")
		return
	}
	fmt.Printf("rejected with %d error(s):\n", len(errs))
	for _, e := range errs {
		fmt.Println("  " + e.Error())
	}
}
