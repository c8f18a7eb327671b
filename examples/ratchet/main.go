// Command ratchet shows validation ratcheting: a CronTab CRD is tightened
// (the image gets a maxLength, the schedule a CEL rule) after an object was
// stored that the new schema refuses. Updates that leave the invalid fields
// as they are still succeed; updates that change them must make them valid.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

//go:embed crontab.yaml
var crontabCRD []byte

// ctx is the context of every request of the example.
var ctx = context.Background()

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ratchet:", err)
		os.Exit(1)
	}
}

func run() error {
	step("Store a CronTab under the first version of the CRD")
	def, _, err := manifest.UnmarshalCRD(crontabCRD)
	if err != nil {
		return err
	}
	lenient, err := crd.New(def, "v1")
	if err != nil {
		return err
	}
	created, err := lenient.Create(ctx, cronTab("registry.example.com/team/nightly-backup:1.0", "* * * * *", 1))
	if err != nil {
		return err
	}
	report(created.Errors)
	stored := created.Object // with the resourceVersion storage gave it

	step("Tighten the CRD: image at most 32 bytes, no schedule that runs every minute")
	tightened, _, err := manifest.UnmarshalCRD(crontabCRD)
	if err != nil {
		return err
	}
	spec := tightened.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	image := spec.Properties["image"]
	maxLen := int64(32)
	image.MaxLength = &maxLen
	spec.Properties["image"] = image
	cron := spec.Properties["cronSpec"]
	cron.XValidations = []crdschema.ValidationRule{{
		Rule:    "!self.startsWith('* ')",
		Message: "must not run every minute",
	}}
	spec.Properties["cronSpec"] = cron
	tightened.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = spec
	report(crd.ValidateUpdate(context.Background(), tightened, def))
	strict, err := crd.New(tightened, "v1")
	if err != nil {
		return err
	}

	step("Creating the same object now is refused")
	res, err := strict.Create(ctx, cronTab("registry.example.com/team/nightly-backup:1.0", "* * * * *", 1))
	if res.Object == nil { // refused before validation: not expected here
		return err
	}
	report(res.Errors)

	step("Scaling the stored object leaves image and schedule unchanged: accepted")
	if err := update(strict, stored, "registry.example.com/team/nightly-backup:1.0", "* * * * *", 3); err != nil {
		return err
	}

	step("Changing the image to another long one is refused (the CEL rules wait for a valid image)")
	if err := update(strict, stored, "registry.example.com/team/nightly-backup:1.1", "* * * * *", 1); err != nil {
		return err
	}

	step("Changing the schedule to another every-minute one is refused")
	if err := update(strict, stored, "registry.example.com/team/nightly-backup:1.0", "* */2 * * *", 1); err != nil {
		return err
	}

	step("Fixing both is accepted")
	return update(strict, stored, "registry.example.com/backup:1.1", "0 3 * * *", 1)
}

// cronTab returns a CronTab request body.
func cronTab(image, schedule string, replicas int64) map[string]any {
	return map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "nightly-backup", "namespace": "default"},
		"spec": map[string]any{
			"image":    image,
			"cronSpec": schedule,
			"replicas": replicas,
		},
	}
}

// update sends an update of stored with the given spec.
func update(r *crd.Resource, stored map[string]any, image, schedule string, replicas int64) error {
	obj := cronTab(image, schedule, replicas)
	obj["metadata"].(map[string]any)["resourceVersion"] = stored["metadata"].(map[string]any)["resourceVersion"]
	res, err := r.Update(ctx, obj, stored)
	if res.Object == nil { // refused before validation: not expected here
		return err
	}
	report(res.Errors)
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
