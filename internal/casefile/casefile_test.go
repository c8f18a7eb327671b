package casefile

import (
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func TestToJSON(t *testing.T) {
	for in, want := range map[string]string{
		"a: 1.0\nb: 10\nc: 1e3\n":               `{"a":1.0,"b":10,"c":1e3}`,
		"a: &x {k: '<v>'}\nb: *x\n":             `{"a":{"k":"<v>"},"b":{"k":"<v>"}}`,
		"[true, null, 2001-01-01, 0x10, yes]\n": `[true,null,"2001-01-01",16,"yes"]`,
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(in), &n); err != nil {
			t.Fatal(err)
		}
		got, err := ToJSON(n.Content[0])
		if err != nil || string(got) != want {
			t.Errorf("ToJSON(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	if _, err := ToJSON(nil); err == nil {
		t.Error("ToJSON(nil): no error")
	}
}
