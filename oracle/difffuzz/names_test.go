package difffuzz

import (
	"encoding/json"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"
	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/k8snames"
	"github.com/crdschema/crdschema/internal/metavalidation"
)

// FuzzNames compares the name checks of internal/k8snames with
// apimachinery's on arbitrary strings: the same problems, in the same words
// and order.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"", "a", "a-b", "-a", "a-", "A", "a.b", "a..b", "1a", "a_b", "example.com/name",
		"example.com/", "/name", "a/b/c", "x" + string(make([]byte, 70)), "..", ".", "a%b", "a/b", "ü"} {
		f.Add(s)
	}
	checks := []struct {
		name     string
		ours     func(string) []string
		upstream func(string) []string
	}{
		{"IsDNS1123Label", k8snames.IsDNS1123Label, validation.IsDNS1123Label},
		{"IsDNS1123Subdomain", k8snames.IsDNS1123Subdomain, validation.IsDNS1123Subdomain},
		{"IsDNS1035Label", k8snames.IsDNS1035Label, validation.IsDNS1035Label},
		{"IsQualifiedName", k8snames.IsQualifiedName, validation.IsQualifiedName},
		{"IsValidLabelValue", k8snames.IsValidLabelValue, validation.IsValidLabelValue},
		{"IsPathSegmentName", k8snames.IsPathSegmentName, content.IsPathSegmentName},
		{"IsPathSegmentPrefix", k8snames.IsPathSegmentPrefix, content.IsPathSegmentPrefix},
		{"NameIsDNSSubdomain(prefix)", func(s string) []string { return metavalidation.NameIsDNSSubdomain(s, true) },
			func(s string) []string { return genericvalidation.NameIsDNSSubdomain(s, true) }},
		{"NameIsDNSLabel(prefix)", func(s string) []string { return metavalidation.NameIsDNSLabel(s, true) },
			func(s string) []string { return genericvalidation.NameIsDNSLabel(s, true) }},
		{"NameIsDNS1035Label(prefix)", func(s string) []string { return metavalidation.NameIsDNS1035Label(s, true) },
			func(s string) []string { return genericvalidation.NameIsDNS1035Label(s, true) }},
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range checks {
			if got, want := c.ours(s), c.upstream(s); !slices.Equal(got, want) {
				t.Errorf("%s(%q):\n got %q\nwant %q", c.name, s, got, want)
			}
		}
	})
}

// FuzzObjectMeta compares internal/metavalidation's ObjectMeta checks
// (create, then update against a fixed old object) with apimachinery's on
// arbitrary metadata that both decode, decoded as the API server decodes
// a custom resource's metadata.
func FuzzObjectMeta(f *testing.F) {
	for _, s := range []string{
		`{"name":"a","namespace":"ns"}`,
		`{"generateName":"a-","labels":{"a":"b","-x":"y","k":"` + "v" + `"},"annotations":{"a/b/c":"x"}}`,
		`{"name":"A","finalizers":["orphan","foregroundDeletion","a/b/c","kubernetes"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true},{"apiVersion":"a/b/c","kind":"","name":"","uid":"","controller":true}]}`,
		`{"name":"a","resourceVersion":"x","generation":-1,"deletionGracePeriodSeconds":3,"managedFields":[{"manager":"m","operation":"Bogus","apiVersion":"x"}]}`,
		`{"name":"a.b","labels":{"example.com/k":"` + string(make([]byte, 64)) + `"}}`,
	} {
		f.Add(s, true)
	}
	old := metav1.ObjectMeta{Name: "a", Namespace: "ns", UID: "u", ResourceVersion: "1", Generation: 1}
	f.Fuzz(func(t *testing.T, data string, namespaced bool) {
		var decoded any
		if json.Unmarshal([]byte(data), &decoded) != nil {
			return
		}
		// The API server's way from a custom resource's body to its
		// ObjectMeta: integers kept, then the unstructured converter,
		// whose field names are case-sensitive (encoding/json's are not).
		raw, ok := preserveInts(decoded).(map[string]any)
		if !ok {
			return
		}
		// decode converts raw anew: the converter fills the label and
		// annotation maps in the random order of raw's, which decides the
		// order of their errors (see upstreamCanSay).
		decode := func() *metav1.ObjectMeta {
			var m metav1.ObjectMeta
			if runtime.DefaultUnstructuredConverter.FromUnstructured(runtime.DeepCopyJSON(raw), &m) != nil {
				return nil
			}
			return &m
		}
		if decode() == nil {
			return
		}
		ours, err := metavalidation.DecodeObjectMeta(raw)
		if err != nil {
			t.Fatalf("%s: apimachinery decodes it, DecodeObjectMeta: %v", data, err)
		}
		p := field.NewPath("metadata")
		got := errorTexts(metavalidation.ValidateObjectMeta(ours, namespaced, metavalidation.NameIsDNSSubdomain, crdschema.NewPath("metadata")))
		if want, ok := upstreamCanSay(got, severalKeys(raw), func() []string {
			return errorTexts(genericvalidation.ValidateObjectMeta(decode(), namespaced, genericvalidation.NameIsDNSSubdomain, p))
		}); !ok {
			t.Errorf("ValidateObjectMeta(%s, namespaced=%v):\n got %q\nwant %q", data, namespaced, got, want)
		}
		oldOurs, _ := metavalidation.DecodeObjectMeta(map[string]any{"name": "a", "namespace": "ns", "uid": "u", "resourceVersion": "1", "generation": int64(1)})
		got = errorTexts(metavalidation.ValidateObjectMetaUpdate(ours, oldOurs, crdschema.NewPath("metadata")))
		if want, ok := upstreamCanSay(got, severalKeys(raw), func() []string {
			return errorTexts(genericvalidation.ValidateObjectMetaUpdate(decode(), &old, p))
		}); !ok {
			t.Errorf("ValidateObjectMetaUpdate(%s):\n got %q\nwant %q", data, got, want)
		}
	})
}

// upstreamCanSay reports whether upstream's validation gives the errors
// got, in got's order, in one of up to 200 runs: apimachinery ranges over
// the label and annotation maps, so errors of two keys come in Go's random
// map order (each run decodes the metadata anew, and a range starts at a
// random slot). It returns upstream's first answer.
//
// When the metadata has two labels or annotations or more, the same errors
// in another order are accepted too: the order apimachinery meets the keys
// in is a rotation of the order the body lists them in (a small Go map
// fills its slots in insertion order), which the decoded map crdschema
// validates does not keep; crdschema reports them in sorted key order.
func upstreamCanSay(got []string, severalKeys bool, upstream func() []string) ([]string, bool) {
	first := upstream()
	if slices.Equal(got, first) {
		return first, true
	}
	for range 200 {
		if slices.Equal(got, upstream()) {
			return first, true
		}
	}
	if severalKeys {
		g, w := slices.Clone(got), slices.Clone(first)
		slices.Sort(g)
		slices.Sort(w)
		return first, slices.Equal(g, w)
	}
	return first, false
}

// severalKeys reports whether the metadata md has two labels or more, or
// two annotations or more.
func severalKeys(md map[string]any) bool {
	l, _ := md["labels"].(map[string]any)
	a, _ := md["annotations"].(map[string]any)
	return len(l) >= 2 || len(a) >= 2
}

// errorTexts renders field errors as users see them.
func errorTexts[E error](errs []E) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}
