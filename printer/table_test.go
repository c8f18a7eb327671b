package printer

import (
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
)

// crontabColumns are the printer columns of the CronTab example in the
// Kubernetes documentation.
var crontabColumns = []crdschema.CustomResourceColumnDefinition{
	{Name: "Spec", Type: "string", Description: "The cron spec defining the interval a CronJob is run", JSONPath: ".spec.cronSpec"},
	{Name: "Replicas", Type: "integer", Description: "The number of jobs launched by the CronJob", JSONPath: ".spec.replicas"},
	{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
}

func crontab(name string, replicas any, created string) map[string]any {
	return map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": name, "creationTimestamp": created},
		"spec":       map[string]any{"cronSpec": "* * * * *", "image": "my-awesome-cron-image", "replicas": replicas},
	}
}

func TestTableText(t *testing.T) {
	p, err := New(crontabColumns, WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	tab := p.Table([]map[string]any{crontab("my-new-cron-object", int64(1), "2026-11-21T11:59:53Z")})
	if len(tab.Columns) != 4 || len(tab.Rows) != 1 || tab.Rows[0].Object["kind"] != "CronTab" {
		t.Fatalf("table %#v", tab)
	}
	var b strings.Builder
	if err := tab.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	// As in the documentation's `kubectl get crontab`.
	want := "" +
		"NAME                 SPEC        REPLICAS   AGE\n" +
		"my-new-cron-object   * * * * *   1          7s\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestTableWide(t *testing.T) {
	p, _ := New([]crdschema.CustomResourceColumnDefinition{
		{Name: "Image", Type: "string", JSONPath: ".spec.image", Priority: 1},
		{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"},
		{Name: "Note", Type: "string", JSONPath: ".spec.note"},
	}, WithClock(clock))
	objs := []map[string]any{
		crontab("a", int64(1), ""),
		crontab("bb", "many", ""),
	}
	objs[0]["spec"].(map[string]any)["note"] = "line one\nline two"
	objs[1]["spec"].(map[string]any)["note"] = "esc\x1b[31m"
	tab := p.Table(objs)
	var narrow, wide strings.Builder
	if err := tab.WriteText(&narrow, false); err != nil {
		t.Fatal(err)
	}
	if err := tab.WriteText(&wide, true); err != nil {
		t.Fatal(err)
	}
	wantNarrow := "" +
		"NAME   REPLICAS   NOTE\n" +
		"a      1          line one...\n" +
		"bb                esc^[[31m\n"
	wantWide := "" +
		"NAME   IMAGE                   REPLICAS   NOTE\n" +
		"a      my-awesome-cron-image   1          line one...\n" +
		"bb     my-awesome-cron-image              esc^[[31m\n"
	if narrow.String() != wantNarrow {
		t.Errorf("narrow:\n%s\nwant\n%s", narrow.String(), wantNarrow)
	}
	if wide.String() != wantWide {
		t.Errorf("wide:\n%s\nwant\n%s", wide.String(), wantWide)
	}
}
