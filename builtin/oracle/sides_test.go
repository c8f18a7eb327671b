package oracle

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/crdschema/crdschema/builtin"
)

// TestWriteSides writes the inputs of the side-by-side comparison of
// crdcheck, kubeconform and kubectl-validate
// (bench/crdcheck/builtin-sides.sh) into SIDES_DIR: every built-in object
// of the comparison and every fifth of its mutations, one JSON file each
// in objects/, and verdicts.json, whether the API server refuses each file's object as
// a create under strict field validation (what the three tools' strict
// modes stand for).
func TestWriteSides(t *testing.T) {
	dir := os.Getenv("SIDES_DIR")
	if dir == "" {
		t.Skip("set SIDES_DIR to write the side-by-side inputs")
	}
	api, err := builtin.New(builtin.WithKubernetesVersion(releaseVersion))
	if err != nil {
		t.Fatal(err)
	}
	objects := filepath.Join(dir, "objects")
	if err := os.MkdirAll(objects, 0o755); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]bool{}
	write := func(obj map[string]any) bool {
		body := mustJSON(obj)
		r := strictResult(Create(body))
		if !r.Served {
			return false
		}
		name := fmt.Sprintf("%05d.json", len(verdicts))
		if err := os.WriteFile(filepath.Join(objects, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
		verdicts[name] = r.Refused()
		return true
	}
	for _, s := range builtinObjects(t, api) {
		if !write(s.obj) || Create(mustJSON(s.obj)).Refused() {
			continue
		}
		for i, m := range mutations(s.obj) {
			if i%5 == 0 {
				write(m.obj)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "verdicts.json"), mustJSON(toAny(verdicts)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files written to %s", len(verdicts), dir)
}

func toAny(m map[string]bool) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
