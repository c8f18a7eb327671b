package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestParseTag(t *testing.T) {
	for _, tc := range []struct {
		line, want string // want: the rule as JSON, "" for none
	}{
		{"+k8s:minimum=0", `{"minimum":0}`},
		{`+k8s:beta(since: "1.37")=+k8s:maximum=100000`, `{"maximum":100000}`},
		{`+k8s:beta(since: "1.37")=+k8s:format="k8s-short-name"`, `{"format":"k8s-short-name"}`},
		{`+k8s:alpha(since: "1.37")=+k8s:immutable`, ``},
		{`+k8s:beta(since: "1.37")=+k8s:ifEnabled(HPAScaleToZero)=+k8s:minimum=0`, ``},
		{`+k8s:eachVal=+k8s:format=k8s-label-key`, `{"format":"k8s-label-key","each":true}`},
		{`+k8s:subfield(name)=+k8s:format=k8s-long-name`, `{"format":"k8s-long-name","subfield":"name"}`},
		{`+k8s:format=k8s-uuid`, ``},
		{`+k8s:maxItems=16`, `{"maxItems":16}`},
		{`+k8s:maxItems=-1`, ``},
		{`+k8s:required`, ``},
		{`+k8s:eachVal=+k8s:immutable`, ``},
		{`+k8s:enum`, `{}`}, // the values are the type's constants
		{`not a tag`, ``},
	} {
		r, ok := parseTag(tc.line)
		got := ""
		if ok {
			b, _ := json.Marshal(r)
			got = string(b)
		}
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.line, got, tc.want)
		}
	}
}

// TestTagRules reads a package as the generator reads k8s.io/api: field
// tags, a type's enumeration (its constants; not when a constant is
// behind a tag), embedded structs, pointers, slices of a tagged type.
func TestTagRules(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "apps", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	src := `package v1

// +k8s:enum
type Policy string

const (
	PolicyA Policy = "A"
	PolicyB Policy = "B"
)

// +k8s:enum
type Gated string

const (
	GatedA Gated = "A"
	// +k8s:ifEnabled(G)=+k8s:enumExclude
	GatedB Gated = "B"
)

type Base struct {
	// +k8s:maxLength=10
	Note string ` + "`json:\"note\"`" + `
}

type Spec struct {
	Base ` + "`json:\",inline\"`" + `
	// +k8s:minimum=1
	Replicas *int32 ` + "`json:\"replicas,omitempty\"`" + `
	Policy Policy ` + "`json:\"policy\"`" + `
	Policies []Policy ` + "`json:\"policies\"`" + `
	Gated Gated ` + "`json:\"gated\"`" + `
	// +k8s:alpha(since: "1.37")=+k8s:immutable
	Alpha string ` + "`json:\"alpha\"`" + `
}
`
	if err := os.WriteFile(filepath.Join(pkg, "types.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, err := tagRules(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rules)
	want := `{"io.k8s.api.apps.v1.Base":{"note":[{"maxLength":10}]},"io.k8s.api.apps.v1.Spec":{"note":[{"maxLength":10}],"policies":[{"enum":["A","B"],"each":true}],"policy":[{"enum":["A","B"]}],"replicas":[{"minimum":1,"pointer":true}]}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}
