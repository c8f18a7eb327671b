// Command builtingen writes the built-in kinds and their schemas of Kubernetes
// releases, from each release's published OpenAPI v3 documents
// (api/openapi-spec/v3 of the k8s.io/kubernetes module of that release,
// fetched by "go mod download"), into one gzip-compressed JSON file that
// package builtin embeds.
//
//	go run ./builtingen -o kinds.json.gz 1.33=v1.33.13 1.34=v1.34.4 ...
//
// What it keeps of each definition: the structure (type, format,
// properties, additionalProperties, items, required, oneOf), defaults and
// the x-kubernetes-* extensions that change how values are read or
// checked (list type and map keys, map type, int-or-string, preserve
// unknown fields, embedded resource, validations). It drops descriptions,
// patch strategies, unions and examples, writes references as bare
// definition names and stores each distinct definition once for all
// releases. The output depends only on the documents, so a run on the same
// versions writes the same bytes.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// file is what package builtin embeds (its format is read there).
type file struct {
	Definitions []json.RawMessage `json:"definitions"`
	Releases    []release         `json:"releases"`
}

type release struct {
	Release     string         `json:"release"`
	Source      string         `json:"source"`
	Definitions map[string]int `json:"definitions"`
	Kinds       []kind         `json:"kinds"`
	// Declarative are the declarative validation rules of the release's
	// k8s.io/api source that package builtin checks (see tagRules), by
	// definition and property.
	Declarative map[string]map[string][]rule `json:"declarative,omitempty"`
	APISource   string                       `json:"apiSource,omitempty"`
}

type kind struct {
	Group      string `json:"group,omitempty"`
	Version    string `json:"version"`
	Kind       string `json:"kind"`
	Resource   string `json:"resource"`
	Namespaced bool   `json:"namespaced,omitempty"`
	Definition string `json:"definition"`
	ListKind   string `json:"listKind,omitempty"`
}

const refPrefix = "#/components/schemas/"

func main() {
	out := flag.String("o", "", "output file")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: builtingen -o FILE RELEASE=MODULE_VERSION...")
		os.Exit(2)
	}
	var f file
	index := map[string]int{}
	for _, arg := range flag.Args() {
		rel, version, ok := strings.Cut(arg, "=")
		if !ok {
			fail(fmt.Errorf("%q: want RELEASE=MODULE_VERSION", arg))
		}
		dir, err := moduleDir("k8s.io/kubernetes@" + version)
		if err != nil {
			fail(err)
		}
		r, err := readRelease(filepath.Join(dir, "api", "openapi-spec", "v3"), &f, index)
		if err != nil {
			fail(fmt.Errorf("%s: %w", arg, err))
		}
		r.Release, r.Source = rel, "k8s.io/kubernetes@"+version
		apiVersion := "v0." + strings.TrimPrefix(version, "v1.")
		apiDir, err := moduleDir("k8s.io/api@" + apiVersion)
		if err != nil {
			fail(err)
		}
		rules, err := tagRules(apiDir)
		if err != nil {
			fail(fmt.Errorf("%s: k8s.io/api@%s: %w", arg, apiVersion, err))
		}
		r.APISource = "k8s.io/api@" + apiVersion
		r.Declarative = map[string]map[string][]rule{}
		nrules := 0
		for def, fields := range rules {
			if _, ok := r.Definitions[def]; ok {
				r.Declarative[def] = fields
				for _, rs := range fields {
					nrules += len(rs)
				}
			}
		}
		fmt.Fprintf(os.Stderr, "gen: %s: %d declarative rules on %d definitions\n", rel, nrules, len(r.Declarative))
		f.Releases = append(f.Releases, r)
	}
	data, err := json.Marshal(&f)
	if err != nil {
		fail(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "gen: %d releases, %d distinct definitions, %d bytes of JSON, %d compressed\n", len(f.Releases), len(f.Definitions), len(data), buf.Len())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

// moduleDir downloads a module and returns its directory.
func moduleDir(mod string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", mod, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", err
	}
	if m.Error != "" || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s: %s", mod, m.Error)
	}
	return m.Dir, nil
}

type document struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]map[string]any `json:"schemas"`
	} `json:"components"`
}

type operation struct {
	Action      string `json:"x-kubernetes-action"`
	GVK         *gvk   `json:"x-kubernetes-group-version-kind"`
	RequestBody struct {
		Content map[string]struct {
			Schema struct {
				Ref string `json:"$ref"`
			} `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
}

type gvk struct{ Group, Version, Kind string }

func readRelease(dir string, f *file, index map[string]int) (release, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*_openapi.json"))
	if err != nil || len(names) == 0 {
		return release{}, fmt.Errorf("no OpenAPI v3 documents in %s", dir)
	}
	sort.Strings(names)
	defs := map[string]map[string]any{}
	kinds := map[gvk]kind{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return release{}, err
		}
		var doc document
		if err := json.Unmarshal(data, &doc); err != nil {
			return release{}, fmt.Errorf("%s: %w", name, err)
		}
		for n, s := range doc.Components.Schemas {
			if _, ok := defs[n]; !ok {
				defs[n] = s
			}
		}
		for p, ops := range doc.Paths {
			raw, ok := ops["post"]
			if !ok || strings.Contains(p, "{name}") {
				continue
			}
			var op operation
			if err := json.Unmarshal(raw, &op); err != nil {
				return release{}, fmt.Errorf("%s: %s: %w", name, p, err)
			}
			if op.Action != "post" || op.GVK == nil {
				continue
			}
			ref := ""
			for _, c := range op.RequestBody.Content {
				ref = c.Schema.Ref
			}
			if ref == "" {
				continue
			}
			k := kind{Group: op.GVK.Group, Version: op.GVK.Version, Kind: op.GVK.Kind,
				Resource: p[strings.LastIndexByte(p, '/')+1:], Namespaced: strings.Contains(p, "{namespace}"),
				Definition: strings.TrimPrefix(ref, refPrefix)}
			if prev, ok := kinds[*op.GVK]; ok && !k.Namespaced {
				k = prev // the namespaced path wins over an all-namespaces one
			}
			kinds[*op.GVK] = k
		}
	}
	// List kinds: the definition whose GVK is the kind's with "List".
	lists := map[gvk]bool{}
	for _, s := range defs {
		gs, _ := s["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gs {
			m, _ := g.(map[string]any)
			gg, _ := m["group"].(string)
			vv, _ := m["version"].(string)
			kk, _ := m["kind"].(string)
			lists[gvk{gg, vv, kk}] = true
		}
	}
	r := release{Definitions: map[string]int{}}
	for g, k := range kinds {
		if lists[gvk{g.Group, g.Version, g.Kind + "List"}] {
			k.ListKind = g.Kind + "List"
		}
		r.Kinds = append(r.Kinds, k)
	}
	sort.Slice(r.Kinds, func(i, j int) bool {
		a, b := r.Kinds[i], r.Kinds[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	defNames := make([]string, 0, len(defs))
	for n := range defs {
		defNames = append(defNames, n)
	}
	sort.Strings(defNames) // the same output each run
	for _, n := range defNames {
		data, err := json.Marshal(compact(defs[n]))
		if err != nil {
			return release{}, err
		}
		i, ok := index[string(data)]
		if !ok {
			i = len(f.Definitions)
			index[string(data)] = i
			f.Definitions = append(f.Definitions, data)
		}
		r.Definitions[n] = i
	}
	return r, nil
}

// dropped are the keywords of no use for checking objects.
var dropped = map[string]bool{
	"description":                     true,
	"example":                         true,
	"discriminator":                   true,
	"x-kubernetes-patch-strategy":     true,
	"x-kubernetes-patch-merge-key":    true,
	"x-kubernetes-unions":             true,
	"x-kubernetes-group-version-kind": true,
}

// compact drops what package builtin does not use and writes a
// reference, bare or as the only element of allOf, as "$ref": name.
func compact(s map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range s {
		if dropped[k] {
			continue
		}
		switch k {
		case "$ref":
			out[k] = strings.TrimPrefix(v.(string), refPrefix)
		case "allOf":
			l, _ := v.([]any)
			if len(l) == 1 {
				if m, ok := l[0].(map[string]any); ok && len(m) == 1 && m["$ref"] != nil {
					out["$ref"] = strings.TrimPrefix(m["$ref"].(string), refPrefix)
					continue
				}
			}
			out[k] = compactList(l)
		case "oneOf", "anyOf":
			out[k] = compactList(v.([]any))
		case "properties":
			props := map[string]any{}
			for n, p := range v.(map[string]any) {
				props[n] = compact(p.(map[string]any))
			}
			out[k] = props
		case "items", "additionalProperties", "not":
			if m, ok := v.(map[string]any); ok {
				out[k] = compact(m)
			} else {
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	return out
}

func compactList(l []any) []any {
	out := make([]any, len(l))
	for i, v := range l {
		out[i] = compact(v.(map[string]any))
	}
	return out
}
