package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/readall"
	"github.com/crdschema/crdschema/jsonschema"
	kjs "github.com/santhosh-tekuri/jsonschema/v6"
)

// TestKubeconformAgrees compiles the schemas of package jsonschema with
// the JSON Schema library and settings kubeconform v0.8.0 uses
// (santhosh-tekuri/jsonschema/v6, draft 4 unless the schema says
// otherwise) and checks every object the API server's pipeline (package
// crd) accepts: none may be refused. It does so twice: with the default
// schemas, and with the strict ones (jsonschema.WithStrict) on the objects
// the API server accepts under strict field validation (no unknown
// fields), as kubeconform -strict reads them. It runs on the Gateway API CRDs and
// examples of the conformance data, both channels, and on the corpus of
// real CRDs and objects when CRDSCHEMA_CORPUS (default /work/shared/corpus)
// names one.
func TestKubeconformAgrees(t *testing.T) {
	repo, err := root()
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(repo, "conformance", "testdata", "crdcheck")
	for _, strict := range []bool{false, true} {
		name := map[bool]string{false: "default", true: "strict"}[strict]
		t.Run(name, func(t *testing.T) { kubeconformAgrees(t, data, strict) })
	}
}

func kubeconformAgrees(t *testing.T, data string, strict bool) {
	for _, channel := range []string{"standard", "experimental"} {
		t.Run("gateway-api-"+channel, func(t *testing.T) {
			agree(t, filepath.Join(data, "crds", channel), filepath.Join(data, "objects"), strict)
		})
	}
	corpus := os.Getenv("CRDSCHEMA_CORPUS")
	if corpus == "" {
		corpus = "/work/shared/corpus"
	}
	projects, err := os.ReadDir(filepath.Join(corpus, "crds"))
	if err != nil {
		t.Logf("corpus not checked: %v", err)
		return
	}
	for _, p := range projects {
		if p.Name() == "gateway-api" {
			continue // two channels with the same CRD names: checked above
		}
		t.Run(p.Name(), func(t *testing.T) {
			agree(t, filepath.Join(corpus, "crds", p.Name()), filepath.Join(corpus, "objects", p.Name()), strict)
		})
	}
}

type served struct {
	res    *crd.Resource
	schema *kjs.Schema
}

func agree(t *testing.T, crdDir, objDir string, strict bool) {
	var opts []jsonschema.Option
	if strict {
		opts = append(opts, jsonschema.WithStrict())
	}
	defs := map[string]*crdschema.CustomResourceDefinition{} // by group/kind
	for _, f := range yamlFiles(t, crdDir) {
		list, err := readall.CRDs(readFile(t, f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, d := range list {
			defs[d.Spec.Group+"/"+d.Spec.Names.Kind] = d
		}
	}
	versions := map[string]*served{}
	get := func(def *crdschema.CustomResourceDefinition, version string) *served {
		key := def.Name + "/" + version
		if s, ok := versions[key]; ok {
			return s
		}
		s := &served{}
		versions[key] = s
		if len(crd.Validate(context.Background(), def)) > 0 {
			return s
		}
		res, err := crd.New(def, version)
		if err != nil {
			return s
		}
		js, err := jsonschema.Version(def, version, opts...)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := roundTrip(js)
		if err != nil {
			t.Fatal(err)
		}
		c := kjs.NewCompiler()
		c.DefaultDraft(kjs.Draft4)
		url := "file:///" + key + ".json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			t.Fatalf("%s: kubeconform's JSON Schema library refuses the schema: %v", key, err)
		}
		s.res, s.schema = res, sch
		return s
	}
	accepted, refusedBoth, refusedOnly := 0, 0, 0
	for _, f := range yamlFiles(t, objDir) {
		objs, err := readall.Objects(readFile(t, f))
		if err != nil {
			continue
		}
		for _, obj := range objs {
			av, _ := obj["apiVersion"].(string)
			kind, _ := obj["kind"].(string)
			group, version, _ := strings.Cut(av, "/")
			def := defs[group+"/"+kind]
			if def == nil {
				continue
			}
			s := get(def, version)
			if s.res == nil {
				continue
			}
			r, err := s.res.Create(context.Background(), obj)
			apiAccepts := err == nil && len(r.Errors) == 0 && (!strict || len(r.UnknownFields) == 0)
			doc, err := roundTrip(obj)
			if err != nil {
				t.Fatal(err)
			}
			verr := s.schema.Validate(doc)
			switch {
			case apiAccepts && verr != nil:
				t.Errorf("%s: the API server accepts %s %s, kubeconform with our schema refuses it: %v", filepath.Base(f), kind, av, verr)
			case apiAccepts:
				accepted++
			case verr != nil:
				refusedBoth++
			default:
				refusedOnly++
			}
		}
	}
	if accepted == 0 {
		t.Errorf("no object accepted: nothing compared")
	}
	t.Logf("%d objects accepted by both; of those the API server refuses, the schemas catch %d and miss %d (CEL rules and other checks JSON Schema cannot express)", accepted, refusedBoth, refusedOnly)
}

// roundTrip passes v through JSON, as kubeconform reads documents.
func roundTrip(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return kjs.UnmarshalJSON(bytes.NewReader(b))
}

func yamlFiles(t *testing.T, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func readFile(t *testing.T, name string) []byte {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
