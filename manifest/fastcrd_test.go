package manifest

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFastCRDMatchesReference decodes every CRD of the corpus with the
// fast decode and with sigs.k8s.io/json, and requires the same types.
func TestFastCRDMatchesReference(t *testing.T) {
	n := 0
	for _, p := range corpusProjects(t) {
		for i, body := range p.bodies {
			fast, err := fastCRD(body)
			if err != nil {
				t.Errorf("%s[%d]: fast decode failed: %v", p.name, i, err)
				continue
			}
			ref, strict, err := referenceCRD(body)
			if err != nil || len(strict) > 0 {
				t.Errorf("%s[%d]: reference decode: %v %v", p.name, i, err, strict)
				continue
			}
			if d := cmp.Diff(ref, fast); d != "" {
				t.Errorf("%s[%d]: fast decode differs (-reference +fast):\n%s", p.name, i, d)
			}
			n++
		}
	}
	t.Logf("%d CRDs compared", n)
}

func BenchmarkCRDDecoders(b *testing.B) {
	for _, p := range corpusProjects(b) {
		b.Run(p.name+"/fast", func(b *testing.B) {
			for b.Loop() {
				for _, body := range p.bodies {
					if _, err := fastCRD(body); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(p.name+"/reference", func(b *testing.B) {
			for b.Loop() {
				for _, body := range p.bodies {
					if _, _, err := referenceCRD(body); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// fastSeeds are CRD-shaped bodies on which the two decoders could part:
// nulls, the unions' odd values, repeated names, case, numbers, bytes.
var fastSeeds = []string{
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b"},"spec":{"group":"b","names":{"plural":"a","kind":"A"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"a":{"type":"integer","default":1,"enum":[1,2.5,null,"x",{"k":[true]}],"maximum":1e3}}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"additionalProperties":null,"items":null,"additionalItems":true,"dependencies":{"a":null,"b":["x"],"c":{"type":"string"},"d":5}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"items":[],"additionalProperties":false,"not":null,"allOf":null,"properties":null}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"items":"x","additionalProperties":1}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"items":[{"type":"string"},null],"additionalItems":{"type":"object"}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"properties":{"a":{},"a":{"type":"string"}}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"Type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"xml":{},"items":{"foo":1}}}}]}}`,
	`{"spec":{"conversion":{"strategy":"Webhook","webhook":{"clientConfig":{"caBundle":"YWJj","url":"https://x"},"conversionReviewVersions":["v1"]}}}}`,
	`{"spec":{"conversion":{"webhook":{"clientConfig":{"caBundle":"YW\nJj"}}}}}`,
	`{"spec":{"conversion":{"webhook":{"clientConfig":{"caBundle":[1,2]}}}}}`,
	`{"metadata":{"creationTimestamp":null,"labels":{"a":null},"managedFields":[{"fieldsV1":null,"time":"2026-01-01T00:00:00Z"}]}}`,
	`{"metadata":{"generation":1.0,"annotations":{"a":"\ud800"}}}`,
	`{"status":{"conditions":[{"lastTransitionTime":"2026-01-01T00:00:00Z","status":"True","type":"Established"}],"storedVersions":null,"acceptedNames":{"kind":"A","plural":"a"}}}`,
	`{"spec":{"versions":[{"subresources":{"status":{},"scale":{"specReplicasPath":".spec.r","statusReplicasPath":".status.r"}},"additionalPrinterColumns":[{"name":"a","type":"integer","jsonPath":".a","priority":-1}]}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"maxLength":9223372036854775808,"minimum":-0,"multipleOf":1e-400}}}]}}`,
	`null`,
	`{"spec":null,"status":{}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"default":{"a":1,"a":2}}}}]}}`,
	"{\"metadata\":{\"name\":\"\xff\"}}",
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"properties":{},"patternProperties":[],"definitions":{"a":null,"b":{"properties":{"c":{"type":"string"}}}}}}}]}}`,
	"{\"spec\":{\"versions\":[{\"schema\":{\"openAPIV3Schema\":{\"properties\":{\"\xff\":{},\"\\u00e9\":{}}}}}]}}",
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"properties":"x","definitions":{"a":1}}}}]}}`,
	`{"metadata":{"name":"\ud800"},"spec":{"versions":[{"schema":{"openAPIV3Schema":{"properties":{"a":{"default":"\ud800\udc00"}}}}}]}}`,
	`{"kind":"CustomResourceDefinition","KIND":"x","Spec":{}}`,
}

// FuzzFastCRDDecode compares the fast CRD decode with sigs.k8s.io/json's
// strict decode, the reference: whenever the fast decode answers, the
// reference must decode the same body to the same types without an
// error, an unknown field or a repeated one; and UnmarshalCRD must give
// the reference's result.
func FuzzFastCRDDecode(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	for _, p := range corpusProjects(f) {
		if p.name == "karpenter" || p.name == "flux-kustomize-controller" || p.name == "knative-serving" {
			for _, body := range p.bodies {
				f.Add(body)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ref, strict, refErr := referenceCRD(data)
		fast, fastErr := fastCRD(data)
		if fastErr == nil {
			if refErr != nil || len(strict) > 0 {
				t.Fatalf("the fast decode accepts what the reference refuses (%v, %v): %q", refErr, strict, data)
			}
			if d := cmp.Diff(ref, fast); d != "" {
				t.Fatalf("fast decode differs (-reference +fast):\n%s\ninput: %q", d, data)
			}
		}
		got, gotStrict, gotErr := decodeCRD(data)
		if fmt.Sprint(gotErr) != fmt.Sprint(refErr) || fmt.Sprint(gotStrict) != fmt.Sprint(strict) {
			t.Fatalf("decodeCRD: %v, %v; reference: %v, %v", gotErr, gotStrict, refErr, strict)
		}
		if d := cmp.Diff(ref, got); d != "" {
			t.Fatalf("decodeCRD differs (-reference +got):\n%s", d)
		}
	})
}
