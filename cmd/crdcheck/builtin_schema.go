package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/builtin"
	"github.com/crdschema/crdschema/jsonschema"
)

// writeBuiltinSchemas writes the JSON Schema of every built-in kind of a
// release into dir, as KIND-GROUP-VERSION.json (for the core group,
// whose group kubeconform's template gives as the version:
// configmap-v1-v1.json), so that kinds of the same name in two groups
// (Event in the core group and events.k8s.io) have files of their own.
func writeBuiltinSchemas(dir, version string, opts []jsonschema.Option, stdout, stderr io.Writer) int {
	v, err := crdschema.ParseKubernetesVersion(version)
	if err != nil {
		fmt.Fprintln(stderr, "crdcheck schema: -kubernetes-version:", err)
		return exitUsage
	}
	api, err := builtin.New(builtin.WithKubernetesVersion(v))
	if err != nil {
		fmt.Fprintln(stderr, "crdcheck schema:", err)
		return exitUsage
	}
	written := map[string]string{}
	for _, k := range api.Kinds() {
		// kubeconform's {{ .Group }} is the first part of the apiVersion:
		// the version itself for the core group (configmap-v1-v1.json).
		name := filepath.Join(dir, schemaFileName(cmp.Or(k.Group, k.Version), k.Kind, k.Version))
		if prev, ok := written[name]; ok {
			fmt.Fprintf(stderr, "crdcheck schema: %s %s: %s already holds %s\n", k.APIVersion(), k.Kind, name, prev)
			continue
		}
		props, _ := api.Schema(k)
		// jsonschema converts the versions of CRDs: the kind as one.
		def := &crdschema.CustomResourceDefinition{Spec: crdschema.CustomResourceDefinitionSpec{
			Group: k.Group,
			Names: crdschema.CustomResourceDefinitionNames{Kind: k.Kind, Plural: k.Resource, ListKind: k.ListKind},
			Versions: []crdschema.CustomResourceDefinitionVersion{{Name: k.Version, Served: true, Storage: true,
				Schema: &crdschema.CustomResourceValidation{OpenAPIV3Schema: props}}},
		}}
		def.Name = k.Resource + "." + k.Group
		s, err := jsonschema.Version(def, k.Version, opts...)
		if err != nil {
			fmt.Fprintf(stderr, "crdcheck schema: %s %s: %v\n", k.APIVersion(), k.Kind, err)
			return exitUsage
		}
		s["title"] = k.Kind + " " + k.APIVersion()
		if p, ok := s["properties"].(map[string]any); ok {
			p["apiVersion"] = map[string]any{"type": "string", "enum": []any{k.APIVersion()}}
			p["kind"] = map[string]any{"type": "string", "enum": []any{k.Kind}}
		}
		data, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			fmt.Fprintln(stderr, "crdcheck schema:", err)
			return exitUsage
		}
		if err := os.WriteFile(name, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintln(stderr, "crdcheck schema:", err)
			return exitUsage
		}
		written[name] = k.APIVersion() + " " + k.Kind
		fmt.Fprintln(stdout, name)
	}
	return exitOK
}
