package printer_test

import (
	"fmt"
	"os"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/printer"
)

// The CronTab example of the Kubernetes documentation: three printer
// columns, rendered as `kubectl get crontab` shows them.
func Example() {
	columns := []crdschema.CustomResourceColumnDefinition{
		{Name: "Spec", Type: "string", JSONPath: ".spec.cronSpec"},
		{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"},
		{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
	}
	now := func() time.Time { return time.Date(2026, 1, 1, 0, 0, 7, 0, time.UTC) }
	p, err := printer.New(columns, printer.WithClock(now))
	if err != nil {
		fmt.Println(err)
		return
	}
	obj, _ := manifest.UnmarshalObject([]byte(`{
	  "apiVersion": "stable.example.com/v1", "kind": "CronTab",
	  "metadata": {"name": "my-new-cron-object", "creationTimestamp": "2026-01-01T00:00:00Z"},
	  "spec": {"cronSpec": "* * * * *", "image": "my-awesome-cron-image", "replicas": 1}
	}`))
	fmt.Println(p.Row(obj))
	p.Table([]map[string]any{obj}).WriteText(os.Stdout, false)
	// Output:
	// [my-new-cron-object * * * * * 1 7s]
	// NAME                 SPEC        REPLICAS   AGE
	// my-new-cron-object   * * * * *   1          7s
}

// Field selectors on the documentation's Shirt resource, whose CRD declares
// spec.color and spec.size as selectable fields.
func ExampleFields() {
	fields := printer.NewFields([]crdschema.SelectableField{
		{JSONPath: ".spec.color"}, {JSONPath: ".spec.size"},
	}, true)
	shirt := map[string]any{
		"metadata": map[string]any{"name": "example1", "namespace": "default"},
		"spec":     map[string]any{"color": "blue", "size": "S"},
	}
	for _, s := range []string{"spec.color=blue", "spec.color=blue,spec.size!=S", "spec.weight=1"} {
		sel, err := fields.ParseSelector(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		ok, _ := fields.Matches(sel, shirt)
		fmt.Println(s, ok)
	}
	// Output:
	// spec.color=blue true
	// spec.color=blue,spec.size!=S false
	// field label not supported: spec.weight
}
