// Command openapigen writes the static parts of the OpenAPI documents that the
// Kubernetes API server publishes for a custom resource: the definitions of
// the built-in types that every document references (ObjectMeta, ListMeta,
// Status, DeleteOptions, Patch, autoscaling/v1 Scale, ...), the descriptions
// of the TypeMeta fields, and the query parameters of each kind of request.
//
// These are facts about the Kubernetes API that do not depend on the custom
// resource. gen reads them from documents published by a real API server
// (the conformance goldens: files whose "openapi" member holds "v2" and "v3"
// documents), checks that every document agrees, and writes Go source that
// rebuilds them without parsing anything at run time.
//
// Usage:
//
//	go run ./openapigen -o zz_generated_static.go DIR...
//	go run ./openapigen -release 1.34 -overlay RDIR [-next 1.35 -next-overlay NDIR] -o zz_generated_k134.go DIR...
//
// Each DIR is searched recursively for *.golden.json files. With -release,
// the documents are those of an older Kubernetes release: a golden under
// RDIR (at the same path relative to DIR) takes the place of DIR's, and the
// functions written carry the release in their names (builtinDefinitionV3K134,
// ...); the constants, the same in every release, are not written. Only what
// differs from the next newer release is written, and the functions fall
// back to that release's: the default release's, or with -next the one
// whose goldens NDIR overlays.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/go-openapi/spec"
)

const (
	v2Prefix = "#/definitions/"
	v3Prefix = "#/components/schemas/"
	// builtinPrefix starts the names of all built-in definitions.
	builtinPrefix = "io.k8s."
)

// The option kinds, keyed by the x-kubernetes-action of the operations that
// take them.
var optionsByAction = map[string]string{
	"get":              "get",
	"list":             "list",
	"deletecollection": "list",
	"post":             "create",
	"put":              "update",
	"patch":            "patch",
	"delete":           "delete",
}

// param is a query parameter as the documents show it.
type param struct {
	Name, Description, Type string
}

type collected struct {
	defsV2, defsV3 map[string]string // name -> canonical JSON
	params         map[string]map[string]param
	typeMeta       map[string]string // "apiVersion"/"kind" -> description
	misc           map[string]string // fixed parameter descriptions
	// base is what the next newer release publishes (-release): only what
	// differs from it is written; the rest falls back to its functions.
	base *collected
}

func main() {
	out := flag.String("o", "zz_generated_static.go", "output file")
	rel := flag.String("release", "", "an older Kubernetes release (1.33 ...): name the functions after it")
	overlay := flag.String("overlay", "", "with -release: the folder of that release's goldens that differ")
	next := flag.String("next", "", "with -release: the next newer release, when it is not the default one")
	nextOverlay := flag.String("next-overlay", "", "with -next: the folder of that release's goldens that differ")
	flag.Parse()
	if *rel != "" {
		suffix = releaseSuffix(*rel)
	}
	if *next != "" {
		baseSuffix = releaseSuffix(*next)
	}
	if flag.NArg() == 0 {
		log.Fatal("usage: openapigen -o FILE DIR...")
	}
	c := collect(flag.Args(), *overlay)
	if *rel != "" {
		c.base = collect(flag.Args(), *nextOverlay)
	}
	src, err := c.generate()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// collect reads the documents of the goldens below dirs (with overlay's
// in their place where it has them).
func collect(dirs []string, overlay string) *collected {
	c := &collected{
		defsV2:   map[string]string{},
		defsV3:   map[string]string{},
		params:   map[string]map[string]param{},
		typeMeta: map[string]string{},
		misc:     map[string]string{},
	}
	n := 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".golden.json") {
				return err
			}
			if overlay != "" {
				rel, _ := filepath.Rel(dir, path)
				if o := filepath.Join(overlay, rel); fileExists(o) {
					path = o
				}
			}
			ok, err := c.read(path)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if ok {
				n++
			}
			return nil
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	if n == 0 {
		log.Fatal("no published documents found")
	}
	return c
}

// suffix ends the names of the functions written (-release), baseSuffix
// those of the functions they fall back to (-next).
var suffix, baseSuffix string

// releaseSuffix is the end of the names of a release's functions: K134 for
// 1.34.
func releaseSuffix(release string) string { return "K" + strings.ReplaceAll(release, ".", "") }

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// agree records value under key, failing when an earlier document said
// something else.
func agree(m map[string]string, key, value, path string) error {
	if old, ok := m[key]; ok && old != value {
		return fmt.Errorf("%s: %s differs from an earlier document", path, key)
	}
	m[key] = value
	return nil
}

func (c *collected) read(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	var golden struct {
		OpenAPI *struct {
			V2 struct {
				Definitions map[string]json.RawMessage `json:"definitions"`
				Parameters  map[string]json.RawMessage `json:"parameters"`
				Paths       map[string]map[string]json.RawMessage
			} `json:"v2"`
			V3 struct {
				Components struct {
					Schemas map[string]json.RawMessage `json:"schemas"`
				} `json:"components"`
				Paths map[string]map[string]json.RawMessage `json:"paths"`
			} `json:"v3"`
		} `json:"openapi"`
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		return false, err
	}
	o := golden.OpenAPI
	if o == nil {
		return false, nil
	}
	group := ""
	for p := range o.V3.Paths {
		if parts := strings.Split(p, "/"); len(parts) > 2 && parts[1] == "apis" {
			group = parts[2]
		}
	}
	if group == "" {
		return false, fmt.Errorf("no /apis/<group> path")
	}
	for name, raw := range o.V2.Definitions {
		if isBuiltin(name, raw, group) {
			if err := agree(c.defsV2, name, canonical(raw), path); err != nil {
				return false, err
			}
			continue
		}
		if err := c.readTypeMeta(raw, path); err != nil {
			return false, err
		}
	}
	for name, raw := range o.V3.Components.Schemas {
		if isBuiltin(name, raw, group) {
			if err := agree(c.defsV3, name, canonical(raw), path); err != nil {
				return false, err
			}
		}
	}
	return true, c.readParams(o.V3.Paths, path)
}

// isBuiltin reports whether a definition is a built-in type rather than
// the custom resource's kind or list kind, which carry the custom
// resource's group in x-kubernetes-group-version-kind.
func isBuiltin(name string, raw json.RawMessage, group string) bool {
	if !strings.HasPrefix(name, builtinPrefix) {
		return false
	}
	var s struct {
		GVK []struct {
			Group string `json:"group"`
		} `json:"x-kubernetes-group-version-kind"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return false
	}
	for _, g := range s.GVK {
		if g.Group == group {
			return false
		}
	}
	return true
}

func canonical(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		panic(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// readTypeMeta takes the apiVersion and kind descriptions from a custom
// resource's top-level schema.
func (c *collected) readTypeMeta(raw json.RawMessage, path string) error {
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
			Type        string `json:"type"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return err
	}
	for _, f := range []string{"apiVersion", "kind"} {
		p, ok := s.Properties[f]
		if !ok || p.Type != "string" {
			continue
		}
		if err := agree(c.typeMeta, f, p.Description, path); err != nil {
			return err
		}
	}
	return nil
}

// readParams collects the query parameters of every operation, by the kind
// of options the operation takes, and the descriptions of pretty and
// namespace.
func (c *collected) readParams(paths map[string]map[string]json.RawMessage, path string) error {
	type v3param struct {
		Name        string `json:"name"`
		In          string `json:"in"`
		Description string `json:"description"`
		Schema      struct {
			Type        string `json:"type"`
			UniqueItems bool   `json:"uniqueItems"`
		} `json:"schema"`
	}
	for _, item := range paths {
		var common []v3param
		if raw, ok := item["parameters"]; ok {
			if err := json.Unmarshal(raw, &common); err != nil {
				return err
			}
		}
		for method, raw := range item {
			if method == "parameters" {
				continue
			}
			var op struct {
				Action     string    `json:"x-kubernetes-action"`
				Parameters []v3param `json:"parameters"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				return err
			}
			kind, ok := optionsByAction[op.Action]
			if !ok {
				return fmt.Errorf("unknown action %q", op.Action)
			}
			if c.params[kind] == nil {
				c.params[kind] = map[string]param{}
			}
			for _, p := range append(op.Parameters, common...) {
				if !p.Schema.UniqueItems {
					return fmt.Errorf("parameter %s allows multiple values", p.Name)
				}
				switch {
				case p.Name == "pretty" && p.In == "query":
					if err := agree(c.misc, "pretty", p.Description, path); err != nil {
						return err
					}
				case p.Name == "namespace" && p.In == "path":
					if err := agree(c.misc, "namespace", p.Description, path); err != nil {
						return err
					}
				case p.Name == "name" && p.In == "path":
				case p.In == "query":
					q := param{p.Name, p.Description, p.Schema.Type}
					if old, ok := c.params[kind][p.Name]; ok && old != q {
						return fmt.Errorf("parameter %s of %s options differs", p.Name, kind)
					}
					c.params[kind][p.Name] = q
				default:
					return fmt.Errorf("unexpected parameter %s in %s", p.Name, p.In)
				}
			}
		}
	}
	return nil
}

func (c *collected) generate() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by tools/openapigen from published OpenAPI documents. DO NOT EDIT.\n\n")
	b.WriteString("package openapi\n\nimport \"github.com/go-openapi/spec\"\n\n")

	names := sortedKeys(c.defsV2)
	if !reflect.DeepEqual(names, sortedKeys(c.defsV3)) {
		return nil, fmt.Errorf("v2 and v3 documents define different built-in types")
	}
	for _, n := range names {
		var v3 any
		_ = json.Unmarshal([]byte(c.defsV3[n]), &v3)
		v2, _ := json.Marshal(asV2(v3))
		if canonical(v2) != c.defsV2[n] {
			return nil, fmt.Errorf("the v2 definition of %s is not its v3 definition as openapi's v2Schema writes it", n)
		}
	}
	for _, want := range []string{"apiVersion", "kind"} {
		if _, ok := c.typeMeta[want]; !ok {
			return nil, fmt.Errorf("no description of TypeMeta %s found", want)
		}
	}
	if suffix == "" {
		fmt.Fprintf(&b, "// typeMetaAPIVersionDescription describes TypeMeta's apiVersion.\nconst typeMetaAPIVersionDescription = %s\n\n", strconv.Quote(c.typeMeta["apiVersion"]))
		fmt.Fprintf(&b, "// typeMetaKindDescription describes TypeMeta's kind.\nconst typeMetaKindDescription = %s\n\n", strconv.Quote(c.typeMeta["kind"]))
		fmt.Fprintf(&b, "// prettyDescription describes the pretty query parameter.\nconst prettyDescription = %s\n\n", strconv.Quote(c.misc["pretty"]))
		fmt.Fprintf(&b, "// namespaceDescription describes the namespace path parameter.\nconst namespaceDescription = %s\n\n", strconv.Quote(c.misc["namespace"]))
	}

	// openapi follows the references of the definitions to the ones a
	// document needs: each must be a built-in definition.
	for _, n := range names {
		var v any
		_ = json.Unmarshal([]byte(c.defsV3[n]), &v)
		refs := map[string]bool{}
		collectRefs(v, refs)
		for r := range refs {
			if !strings.HasPrefix(r, v3Prefix+builtinPrefix) || c.defsV3[strings.TrimPrefix(r, v3Prefix)] == "" {
				return nil, fmt.Errorf("%s refers to %s, not a built-in definition", n, r)
			}
		}
	}

	fnStart := b.Len()
	fmt.Fprintf(&b, "// builtinDefinitionV3%s returns a new copy of the OpenAPI v3 schema of the\n// built-in definition name, and whether there is one.\n", suffix)
	fmt.Fprintf(&b, "func builtinDefinitionV3%s(name string) (spec.Schema, bool) {\n", suffix)
	start := startSwitch(&b, "name")
	for _, n := range names {
		if c.base != nil && c.base.defsV3[n] == c.defsV3[n] {
			continue
		}
		var s spec.Schema
		if err := json.Unmarshal([]byte(c.defsV3[n]), &s); err != nil {
			return nil, err
		}
		if err := checkCovered(&s, c.defsV3[n]); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if c.base != nil {
			var base spec.Schema
			if baseJSON, ok := c.base.defsV3[n]; ok && json.Unmarshal([]byte(baseJSON), &base) == nil &&
				writeChanges(&b, n, &s, &base, "builtinDefinitionV3"+baseSuffix) {
				continue
			}
		}
		fmt.Fprintf(&b, "\tcase %q:\n\t\treturn ", n)
		writeSchema(&b, &s)
		b.WriteString(", true\n")
	}
	c.writeMissing(&b, "spec.Schema{}, false")
	if endSwitch(&b, start) || !c.sameAsNext(&b, fnStart, "builtinDefinitionV3") {
		b.WriteString(c.fallback("builtinDefinitionV3", "name", "spec.Schema{}, false"))
	}

	fnStart = b.Len()
	fmt.Fprintf(&b, "// optionParameters%s returns the query parameters of the options a request\n// takes: \"get\", \"list\", \"create\", \"update\", \"patch\" or \"delete\".\n", suffix)
	fmt.Fprintf(&b, "func optionParameters%s(options string) []queryParameter {\n", suffix)
	start = startSwitch(&b, "options")
	for _, kind := range sortedKeys(c.params) {
		if c.base != nil && reflect.DeepEqual(c.params[kind], c.base.params[kind]) {
			continue
		}
		fmt.Fprintf(&b, "\tcase %q:\n\t\treturn []queryParameter{\n", kind)
		for _, n := range sortedKeys(c.params[kind]) {
			p := c.params[kind][n]
			fmt.Fprintf(&b, "\t\t\t{name: %q, typ: %q, description: %s},\n", p.Name, p.Type, strconv.Quote(p.Description))
		}
		b.WriteString("\t\t}\n")
	}
	if c.base != nil {
		for _, kind := range sortedKeys(c.base.params) {
			if _, ok := c.params[kind]; !ok {
				fmt.Fprintf(&b, "\tcase %q:\n\t\treturn nil\n", kind)
			}
		}
	}
	if endSwitch(&b, start) || !c.sameAsNext(&b, fnStart, "optionParameters") {
		b.WriteString(c.fallback("optionParameters", "options", "nil"))
	}
	return format.Source(b.Bytes())
}

// startSwitch writes the start of a switch on arg and returns where the
// switch starts in b, for endSwitch.
func startSwitch(b *bytes.Buffer, arg string) int {
	start := b.Len()
	fmt.Fprintf(b, "\tswitch %s {\n", arg)
	return start
}

// endSwitch ends the switch that starts at start in b, or removes it when
// it has no case; it reports whether the switch had a case.
func endSwitch(b *bytes.Buffer, start int) bool {
	if !bytes.Contains(b.Bytes()[start:], []byte("\tcase ")) {
		b.Truncate(start)
		return false
	}
	b.WriteString("\t}\n")
	return true
}

// sameAsNext replaces the function fn of this release, written from
// fnStart in b, with the next newer release's when it would only call it;
// it reports whether it did (never for the default release).
func (c *collected) sameAsNext(b *bytes.Buffer, fnStart int, fn string) bool {
	if c.base == nil {
		return false
	}
	b.Truncate(fnStart)
	fmt.Fprintf(b, "// %s%s is the next newer release's: nothing changed.\nvar %s%s = %s%s\n\n", fn, suffix, fn, suffix, fn, baseSuffix)
	return true
}

// writeMissing writes the cases of the definitions that the next newer
// release has and this one has not, returning zero.
func (c *collected) writeMissing(b *bytes.Buffer, zero string) {
	if c.base == nil {
		return
	}
	for _, n := range sortedKeys(c.base.defsV2) {
		if _, ok := c.defsV2[n]; !ok {
			fmt.Fprintf(b, "\tcase %q:\n\t\treturn %s\n", n, zero)
		}
	}
}

// fallback ends a function of the release: what it does not know is the
// next newer release's (or, for the default release, nothing).
func (c *collected) fallback(fn, arg, zero string) string {
	if c.base == nil {
		return "\treturn " + zero + "\n}\n\n"
	}
	return "\treturn " + fn + baseSuffix + "(" + arg + ")\n}\n\n"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// asV2 returns the JSON value of a v3 definition as openapi's v2Schema
// turns it into a v2 one: no defaults, references to #/definitions/, no
// allOf around a lone reference.
func asV2(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if k != "default" {
				out[k] = asV2(x)
			}
		}
		if all, ok := out["allOf"].([]any); ok && len(all) == 1 {
			if ref, ok := all[0].(map[string]any); ok && len(ref) == 1 && ref["$ref"] != nil {
				out["$ref"] = ref["$ref"]
				delete(out, "allOf")
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = asV2(x)
		}
		return out
	case string:
		if strings.HasPrefix(v, v3Prefix) {
			return v2Prefix + strings.TrimPrefix(v, v3Prefix)
		}
	}
	return v
}

func collectRefs(v any, refs map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				refs[s] = true
				continue
			}
			collectRefs(x, refs)
		}
	case []any:
		for _, x := range v {
			collectRefs(x, refs)
		}
	}
}

// checkCovered fails when the schema uses a keyword that writeSchema does
// not write.
func checkCovered(s *spec.Schema, want string) error {
	var buf bytes.Buffer
	writeSchema(&buf, s)
	// Rebuild the schema from the keywords writeSchema handles and compare.
	got, err := json.Marshal(covered(s))
	if err != nil {
		return err
	}
	if canonical(got) != want {
		return fmt.Errorf("uses keywords the generator does not handle:\n got %s\nwant %s", canonical(got), want)
	}
	return nil
}

func covered(s *spec.Schema) *spec.Schema {
	if s == nil {
		return nil
	}
	c := &spec.Schema{}
	c.Ref = s.Ref
	c.Description = s.Description
	c.Type = s.Type
	c.Format = s.Format
	c.Default = s.Default
	c.Required = s.Required
	c.Extensions = s.Extensions
	if s.Items != nil {
		c.Items = &spec.SchemaOrArray{Schema: covered(s.Items.Schema)}
	}
	if s.AdditionalProperties != nil {
		c.AdditionalProperties = &spec.SchemaOrBool{Allows: s.AdditionalProperties.Allows, Schema: covered(s.AdditionalProperties.Schema)}
	}
	for _, a := range s.AllOf {
		c.AllOf = append(c.AllOf, *covered(&a))
	}
	if s.Properties != nil {
		c.Properties = spec.SchemaProperties{}
		for k, p := range s.Properties {
			c.Properties[k] = *covered(&p)
		}
	}
	return c
}

// writeChanges writes the case of the definition n whose schema is s as
// the changes to base, the next newer release's, which baseFn returns: its
// extensions and the properties that differ. It writes nothing and reports
// false when anything else differs.
func writeChanges(b *bytes.Buffer, n string, s, base *spec.Schema, baseFn string) bool {
	rest, baseRest := *s, *base
	rest.Properties, rest.Extensions, baseRest.Properties, baseRest.Extensions = nil, nil, nil, nil
	if jsonOf(rest) != jsonOf(baseRest) || len(s.Properties) == 0 || len(base.Properties) == 0 {
		return false
	}
	fmt.Fprintf(b, "\tcase %q:\n\t\ts, _ := %s(name)\n", n, baseFn)
	if jsonOf(s.Extensions) != jsonOf(base.Extensions) {
		b.WriteString("\t\ts.Extensions = ")
		writeExtensions(b, s.Extensions)
		b.WriteString("\n")
	}
	names := sortedKeys(s.Properties)
	for k := range base.Properties {
		if _, ok := s.Properties[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		p, ok := s.Properties[k]
		bp, inBase := base.Properties[k]
		switch {
		case !ok:
			fmt.Fprintf(b, "\t\tdelete(s.Properties, %q)\n", k)
		case !inBase || jsonOf(p) != jsonOf(bp):
			fmt.Fprintf(b, "\t\ts.Properties[%q] = ", k)
			writeSchema(b, &p)
			b.WriteString("\n")
		}
	}
	b.WriteString("\t\treturn s, true\n")
	return true
}

func jsonOf(v any) string {
	j, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(j)
}

// writeExtensions writes a Go expression of type spec.Extensions.
func writeExtensions(b *bytes.Buffer, x spec.Extensions) {
	b.WriteString("spec.Extensions{")
	for _, k := range sortedKeys(x) {
		fmt.Fprintf(b, "%q: ", k)
		writeValue(b, x[k])
		b.WriteString(", ")
	}
	b.WriteString("}")
}

// writeSchema writes a Go expression of type spec.Schema.
func writeSchema(b *bytes.Buffer, s *spec.Schema) {
	b.WriteString("spec.Schema{")
	if len(s.Extensions) > 0 {
		b.WriteString("VendorExtensible: spec.VendorExtensible{Extensions: ")
		writeExtensions(b, s.Extensions)
		b.WriteString("}, ")
	}
	b.WriteString("SchemaProps: spec.SchemaProps{")
	if r := s.Ref.String(); r != "" {
		fmt.Fprintf(b, "Ref: spec.MustCreateRef(%q), ", r)
	}
	if s.Description != "" {
		fmt.Fprintf(b, "Description: %s, ", strconv.Quote(s.Description))
	}
	if len(s.Type) > 0 {
		b.WriteString("Type: spec.StringOrArray{")
		for _, t := range s.Type {
			fmt.Fprintf(b, "%q, ", t)
		}
		b.WriteString("}, ")
	}
	if s.Format != "" {
		fmt.Fprintf(b, "Format: %q, ", s.Format)
	}
	if s.Default != nil {
		b.WriteString("Default: ")
		writeValue(b, s.Default)
		b.WriteString(", ")
	}
	if len(s.Required) > 0 {
		b.WriteString("Required: []string{")
		for _, r := range s.Required {
			fmt.Fprintf(b, "%q, ", r)
		}
		b.WriteString("}, ")
	}
	if s.Items != nil && s.Items.Schema != nil {
		b.WriteString("Items: &spec.SchemaOrArray{Schema: &")
		writeSchema(b, s.Items.Schema)
		b.WriteString("}, ")
	}
	if len(s.AllOf) > 0 {
		b.WriteString("AllOf: []spec.Schema{")
		for i := range s.AllOf {
			writeSchema(b, &s.AllOf[i])
			b.WriteString(", ")
		}
		b.WriteString("}, ")
	}
	if len(s.Properties) > 0 {
		b.WriteString("Properties: spec.SchemaProperties{\n")
		for _, k := range sortedKeys(s.Properties) {
			p := s.Properties[k]
			fmt.Fprintf(b, "%q: ", k)
			writeSchema(b, &p)
			b.WriteString(",\n")
		}
		b.WriteString("}, ")
	}
	if a := s.AdditionalProperties; a != nil {
		fmt.Fprintf(b, "AdditionalProperties: &spec.SchemaOrBool{Allows: %v", a.Allows)
		if a.Schema != nil {
			b.WriteString(", Schema: &")
			writeSchema(b, a.Schema)
		}
		b.WriteString("}, ")
	}
	b.WriteString("}}")
}

// writeValue writes a Go expression for a decoded JSON value.
func writeValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("nil")
	case bool:
		fmt.Fprintf(b, "%v", v)
	case string:
		b.WriteString(strconv.Quote(v))
	case float64:
		fmt.Fprintf(b, "float64(%s)", strconv.FormatFloat(v, 'g', -1, 64))
	case []any:
		b.WriteString("[]any{")
		for _, x := range v {
			writeValue(b, x)
			b.WriteString(", ")
		}
		b.WriteString("}")
	case map[string]any:
		b.WriteString("map[string]any{")
		for _, k := range sortedKeys(v) {
			fmt.Fprintf(b, "%q: ", k)
			writeValue(b, v[k])
			b.WriteString(", ")
		}
		b.WriteString("}")
	default:
		panic(fmt.Sprintf("unexpected JSON value %T", v))
	}
}
