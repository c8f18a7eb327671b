package main

import (
	"bytes"
	"strings"
	"testing"
)

// The expected figures and messages are upstream's, recorded by the
// oracle for mailinglist.yaml and testdata/mailinglist-bounded.yaml (the
// conformance cases celrules/costs-example-mailinglist and
// celrules/costs-example-mailinglist-bounded).
const (
	specPath      = "spec.validation.openAPIV3Schema.properties[spec]"
	addressesRule = specPath + ".properties[addresses].x-kubernetes-validations[0].rule"
	tooExpensive  = "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
	contributed   = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
	totalTooHigh  = "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
)

func runCosts(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestEmbeddedExampleIsOverBudget(t *testing.T) {
	code, out, errOut := runCosts(t)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (over budget)\n%s", code, errOut)
	}
	for _, want := range []string{
		"MailingList (mailinglists.example.com), version v1: 4 rule(s) and messageExpression(s)\n",
		"  " + addressesRule + "\n    self.all(a, a.matches('^[a-z0-9._%+-]+@[a-z0-9.-]+$'))\n" +
			"    cost 2,308,977,878,627 × cardinality 1 = 2,308,977,878,627\n",
		"    OVER BUDGET by more than 100x\n" +
			"    add maxItems here: " + specPath + ".properties[addresses]\n" +
			"    add maxLength here: " + specPath + ".properties[addresses].items\n",
		"  " + specPath + ".properties[moderators].items.x-kubernetes-validations[0].rule\n    self.name.size() > 0\n    cost 4 × cardinality 10 = 40\n",
		"    cost 103 × cardinality 1 = 103\n",
		"    cost 209 (cardinality 1, not applied to a messageExpression)\n",
		"  schema total 2,308,977,878,979: ",
		"OVER BUDGET by more than 100x\n\n",
		"The CustomResourceDefinition \"mailinglists.example.com\" is invalid: \n",
		"* " + addressesRule + ": Forbidden: " + tooExpensive + "\n",
		"* " + addressesRule + ": Forbidden: " + contributed + "\n",
		"* spec.validation.openAPIV3Schema: Forbidden: " + totalTooHigh + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	if n := strings.Count(out, "add "); n != 2 {
		t.Errorf("%d bounds suggested, want 2 (only the rule over budget)", n)
	}
}

func TestBoundedExampleIsWithinBudget(t *testing.T) {
	code, out, _ := runCosts(t, "testdata/mailinglist-bounded.yaml")
	if code != 0 {
		t.Errorf("exit status %d, want 0\n%s", code, out)
	}
	for _, want := range []string{
		"    cost 71,802 × cardinality 1 = 71,802\n    0.7% of the per-expression limit 10,000,000, 0.072% of the schema limit 100,000,000\n",
		"  schema total 72,154: 0.072% of the limit 100,000,000, within budget\n",
		"The API server accepts the rules' costs of mailinglists.example.com.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	if strings.Contains(out, "OVER BUDGET") || strings.Contains(out, "add ") {
		t.Errorf("a bounded CRD reported over budget:\n%s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"testdata/nope.yaml"},
		{"-version", "v9"},
		{"a.yaml", "b.yaml"},
		{"-nope"},
		{"main.go"}, // not YAML with a CRD
	} {
		if code, _, errOut := runCosts(t, args...); code != 2 || errOut == "" {
			t.Errorf("%q: exit status %d, stderr %q; want 2 and a diagnostic", args, code, errOut)
		}
	}
	if code, out, _ := runCosts(t, "-version", "v1"); code != 1 || !strings.Contains(out, "version v1") {
		t.Errorf("-version v1: exit status %d\n%s", code, out)
	}
}

func TestTop(t *testing.T) {
	code, out, _ := runCosts(t, "-top", "1")
	if code != 1 {
		t.Errorf("exit status %d, want 1: the total is still over budget", code)
	}
	if !strings.Contains(out, "  the 1 most expensive:\n\n  "+addressesRule+"\n") {
		t.Errorf("-top 1 does not list the addresses rule first:\n%s", out)
	}
	if strings.Contains(out, "self.name.size() > 0") {
		t.Errorf("-top 1 lists a cheaper rule:\n%s", out)
	}
	if !strings.Contains(out, "  schema total 2,308,977,878,979: ") {
		t.Errorf("-top changes the schema total:\n%s", out)
	}
}

func TestFormats(t *testing.T) {
	// the API server's wording of factors (getCostErrorMessage)
	for _, tt := range []struct {
		n    uint64
		want string
	}{
		{12_000_000, "1.200000x"},
		{181_000_000, "18.1x"},
		{1_000_000_001, "more than 100x"},
	} {
		if got := factor(tt.n, 10_000_000); got != tt.want {
			t.Errorf("factor(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	for _, tt := range []struct {
		n    uint64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {10_000_000, "10,000,000"}, {1<<64 - 1, "18,446,744,073,709,551,615"}} {
		if got := thousands(tt.n); got != tt.want {
			t.Errorf("thousands(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	for _, tt := range []struct {
		n    uint64
		want string
	}{{0, "0%"}, {40, "0.0004%"}, {71_802, "0.7%"}, {5_000_000, "50.0%"}, {2_308_977_878_627, "23,089,779%"}} {
		if got := percent(tt.n, 10_000_000); got != tt.want {
			t.Errorf("percent(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	if got := addSaturate(1<<64-1, 2); got != 1<<64-1 {
		t.Errorf("addSaturate overflowed: %d", got)
	}
}
