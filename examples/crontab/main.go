// Command crontab walks through the Kubernetes documentation page on
// CustomResourceDefinitions
// (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/)
// with crdschema, step by step, using its CronTab example: the structural
// check, pruning, defaulting and nullable fields, validation errors, a CEL
// rule, a transition rule, ratcheting, rule costs, the published OpenAPI
// schema and the table kubectl get prints. Each step prints what the API
// server would answer.
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/openapi"
	"github.com/crdschema/crdschema/printer"
)

//go:embed crontab.yaml
var crontabCRD []byte

// ctx is the context of every request of the example.
var ctx = context.Background()

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "crontab:", err)
		os.Exit(1)
	}
}

func run() error {
	step("Decode the CronTab CRD")
	def, unknown, err := manifest.UnmarshalCRD(crontabCRD)
	if err != nil {
		return err
	}
	fmt.Printf("%s: group %s, kind %s, %d version(s), unknown fields: %d\n",
		def.Name, def.Spec.Group, def.Spec.Names.Kind, len(def.Spec.Versions), len(unknown))

	step("Would the API server accept it?")
	report(crd.Validate(context.Background(), def))

	step("Structural schemas: a property without a type is refused")
	bad := mustCRD()
	setProp(bad, "spec", "image", crdschema.JSONSchemaProps{Pattern: "^[a-z]"})
	report(crd.Validate(context.Background(), bad))

	res, err := crd.New(def, "v1", crd.WithClock(fixedNow))
	if err != nil {
		return err
	}

	step("Pruning: unknown fields are dropped")
	r, err := validated(res.Create(ctx, object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"my-new-cron-object"},
		"spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image","someRandomField":42}}`)))
	if err != nil {
		return err
	}
	fmt.Println("unknown fields:", r.UnknownFields)
	show("spec as stored", r.Object["spec"])

	step("Defaulting: cronSpec and replicas are filled in")
	r, err = validated(res.Create(ctx, object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"defaulted"},"spec":{"image":"my-awesome-cron-image"}}`)))
	if err != nil {
		return err
	}
	show("spec as stored", r.Object["spec"])

	step("Nullable: a null is kept where the schema allows it, dropped elsewhere")
	r, err = validated(res.Create(ctx, object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"nulls"},"spec":{"image":null,"note":null}}`)))
	if err != nil {
		return err
	}
	show("spec as stored", r.Object["spec"])

	step("Validation: the documentation's invalid CronTab")
	r, err = validated(res.Create(ctx, object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"my-new-cron-object"},
		"spec":{"cronSpec":"* * * *","image":"my-awesome-cron-image","replicas":15}}`)))
	if err != nil {
		return err
	}
	report(r.Errors)

	step("A CEL rule: replicas between minReplicas and maxReplicas")
	r, err = validated(res.Create(ctx, object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"scaled"},"spec":{"image":"x","minReplicas":5,"replicas":3,"maxReplicas":8}}`)))
	if err != nil {
		return err
	}
	report(r.Errors)

	stored := object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"stored","namespace":"default","resourceVersion":"7","generation":1},
		"spec":{"image":"an-image-name-that-is-rather-long","schedulePolicy":"Forbid"}}`)

	step("A transition rule: schedulePolicy is immutable")
	upd := object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"stored","namespace":"default","resourceVersion":"7"},
		"spec":{"image":"an-image-name-that-is-rather-long","schedulePolicy":"Allow"}}`)
	r, err = validated(res.Update(ctx, upd, stored))
	if err != nil {
		return err
	}
	report(r.Errors)

	step("Ratcheting: the CRD gets stricter (image at most 20 characters)")
	strict := mustCRD()
	setProp(strict, "spec", "image", crdschema.JSONSchemaProps{Type: "string", MaxLength: ptr(int64(20))})
	sres, err := crd.New(strict, "v1", crd.WithClock(fixedNow))
	if err != nil {
		return err
	}
	fmt.Println("update that leaves the long image alone:")
	same := object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"stored","namespace":"default","resourceVersion":"7"},
		"spec":{"image":"an-image-name-that-is-rather-long","schedulePolicy":"Forbid","replicas":2}}`)
	if r, err = validated(sres.Update(ctx, same, stored)); err != nil {
		return err
	}
	report(r.Errors)
	fmt.Println("update that changes it:")
	changed := object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"stored","namespace":"default","resourceVersion":"7"},
		"spec":{"image":"another-image-name-that-is-long","schedulePolicy":"Forbid"}}`)
	if r, err = validated(sres.Update(ctx, changed, stored)); err != nil {
		return err
	}
	report(r.Errors)

	step("Rule costs, as CRD validation estimates them")
	costs, err := crd.RuleCosts(def, nil, "v1")
	if err != nil {
		return err
	}
	for _, c := range costs {
		fmt.Printf("%-90s cost %d, cardinality %d\n", c.Field, c.Cost, c.Cardinality)
	}

	step("The published OpenAPI v3 schema of spec")
	doc, err := openapi.V3(def, "v1", openapi.Options{})
	if err != nil {
		return err
	}
	if s, ok := doc.Components.Schemas["com.example.stable.v1.CronTab"]; ok {
		show("properties.spec", s.Properties["spec"])
	}

	step("kubectl get crontabs")
	p, err := printer.New(def.Spec.Versions[0].AdditionalPrinterColumns, printer.WithClock(func() time.Time {
		return fixedNow().Add(7 * time.Second)
	}))
	if err != nil {
		return err
	}
	r, err = validated(res.Create(ctx, object(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"my-new-cron-object"},"spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image"}}`)))
	if err != nil {
		return err
	}
	return p.Table([]map[string]any{r.Object}).WriteText(os.Stdout, false)
}

// validated returns the Result of a request that reached validation, and
// the error of one refused before (which this program does not expect).
func validated(r *crd.Result, err error) (*crd.Result, error) {
	if r.Object == nil {
		return nil, err
	}
	return r, nil
}

func fixedNow() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }

func mustCRD() *crdschema.CustomResourceDefinition {
	def, _, err := manifest.UnmarshalCRD(crontabCRD)
	if err != nil {
		panic(err)
	}
	return def
}

// setProp replaces the schema of property name of the object property
// parent of the first version's root.
func setProp(def *crdschema.CustomResourceDefinition, parent, name string, s crdschema.JSONSchemaProps) {
	def.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties[parent].Properties[name] = s
}

func object(body string) map[string]any {
	obj, err := manifest.UnmarshalObject([]byte(body))
	if err != nil {
		panic(err)
	}
	return obj
}

func ptr[T any](v T) *T { return &v }

func step(title string) {
	fmt.Printf("\n== %s\n", title)
}

func show(what string, v any) {
	b, _ := json.Marshal(v)
	fmt.Printf("%s: %s\n", what, b)
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
