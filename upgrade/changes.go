package upgrade

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// hazards lists the stored-version hazards of replacing old by def.
func hazards(def, old *crdschema.CustomResourceDefinition) []Hazard {
	var out []Hazard
	stored := old.Status.StoredVersions
	if len(stored) == 0 {
		if sv := storageVersion(old); sv != "" {
			stored = []string{sv}
		}
	}
	for _, v := range stored {
		nv := def.Version(v)
		switch {
		case nv == nil:
			out = append(out, Hazard{v, fmt.Sprintf("version %s is in status.storedVersions but not in the new CRD: objects stored in it can no longer be read (migrate them and remove %s from status.storedVersions first)", v, v)})
		case !nv.Served:
			out = append(out, Hazard{v, fmt.Sprintf("version %s is in status.storedVersions but no longer served: its objects are read in the storage version %s, converted with strategy %s", v, storageVersion(def), conversionStrategy(def))})
		}
	}
	oldStorage, newStorage := storageVersion(old), storageVersion(def)
	if oldStorage != "" && newStorage != "" && oldStorage != newStorage && conversionStrategy(def) == "None" {
		msg := fmt.Sprintf("the storage version changes from %s to %s without conversion (strategy None): stored objects are only relabelled, and read with the schema of %s", oldStorage, newStorage, newStorage)
		if changes := versionChanges(def, old, oldStorage, newStorage); len(changes) > 0 {
			msg += fmt.Sprintf("; the two schemas differ in %d place(s)", len(changes))
		}
		out = append(out, Hazard{newStorage, msg})
	}
	return out
}

// SchemaChange is a change of a stored version's schema that can affect
// stored objects.
type SchemaChange struct {
	// Version is the version whose schema changed.
	Version string
	// Path is the schema's path in objects: spec.rules[*].name.
	Path string
	// Change says what changed: "property removed (stored values are
	// pruned)", "default added: 5", "maxLength 10 added", ...
	Change string
}

func (c SchemaChange) String() string {
	return fmt.Sprintf("%s %s: %s", c.Version, c.Path, c.Change)
}

// schemaChanges compares the schemas of the versions objects may be stored
// in (status.storedVersions and the storage version) in old and def.
func schemaChanges(def, old *crdschema.CustomResourceDefinition) []SchemaChange {
	versions := append([]string(nil), old.Status.StoredVersions...)
	if sv := storageVersion(old); sv != "" && !slices.Contains(versions, sv) {
		versions = append(versions, sv)
	}
	var out []SchemaChange
	for _, v := range versions {
		if def.Version(v) == nil {
			continue // a hazard
		}
		out = append(out, versionChanges(def, old, v, v)...)
	}
	return out
}

// versionChanges compares version oldVersion of old with newVersion of
// def.
func versionChanges(def, old *crdschema.CustomResourceDefinition, oldVersion, newVersion string) []SchemaChange {
	o, n := versionSchema(old, oldVersion), versionSchema(def, newVersion)
	if o == nil || n == nil {
		return nil
	}
	var out []SchemaChange
	compare(o, n, "", func(path, change string) {
		out = append(out, SchemaChange{Version: newVersion, Path: cmp.Or(path, "<root>"), Change: change})
	})
	return out
}

func versionSchema(def *crdschema.CustomResourceDefinition, version string) *crdschema.JSONSchemaProps {
	v := def.Version(version)
	if v == nil || v.Schema == nil {
		return nil
	}
	return v.Schema.OpenAPIV3Schema
}

// compare reports the changes from schema o to schema n at path that can
// make a stored value read differently or fail validation.
func compare(o, n *crdschema.JSONSchemaProps, path string, report func(path, change string)) {
	if o.Type != n.Type && o.Type != "" {
		report(path, fmt.Sprintf("type %s becomes %q", o.Type, n.Type))
	}
	if o.Default == nil && n.Default != nil {
		report(path, "default added: "+jsonvalue.Format(n.Default.Value))
	} else if o.Default != nil && n.Default != nil && !jsonvalue.Equal(o.Default.Value, n.Default.Value) {
		report(path, fmt.Sprintf("default %s becomes %s", jsonvalue.Format(o.Default.Value), jsonvalue.Format(n.Default.Value)))
	}
	if o.Nullable && !n.Nullable {
		report(path, "no longer nullable (stored nulls are dropped or refused)")
	}
	if preserves(o) && !preserves(n) {
		report(path, "x-kubernetes-preserve-unknown-fields removed: unknown stored fields are pruned")
	}
	bound(path, "maxLength", o.MaxLength, n.MaxLength, true, report)
	bound(path, "minLength", o.MinLength, n.MinLength, false, report)
	bound(path, "maxItems", o.MaxItems, n.MaxItems, true, report)
	bound(path, "minItems", o.MinItems, n.MinItems, false, report)
	bound(path, "maxProperties", o.MaxProperties, n.MaxProperties, true, report)
	bound(path, "minProperties", o.MinProperties, n.MinProperties, false, report)
	bound(path, "maximum", o.Maximum, n.Maximum, true, report)
	bound(path, "minimum", o.Minimum, n.Minimum, false, report)
	if n.Pattern != "" && n.Pattern != o.Pattern {
		if o.Pattern == "" {
			report(path, fmt.Sprintf("pattern %q added", n.Pattern))
		} else {
			report(path, fmt.Sprintf("pattern %q becomes %q", o.Pattern, n.Pattern))
		}
	}
	if n.Format != "" && n.Format != o.Format {
		report(path, fmt.Sprintf("format %q added", n.Format))
	}
	if len(n.Enum) > 0 {
		var removed []string
		for _, e := range o.Enum {
			if !slices.ContainsFunc(n.Enum, func(x crdschema.JSON) bool { return jsonvalue.Equal(x.Value, e.Value) }) {
				removed = append(removed, jsonvalue.Format(e.Value))
			}
		}
		switch {
		case len(o.Enum) == 0:
			report(path, "enum added")
		case len(removed) > 0:
			report(path, "enum values removed: "+strings.Join(removed, ", "))
		}
	}
	for _, r := range n.Required {
		if !slices.Contains(o.Required, r) {
			report(path, fmt.Sprintf("%q now required", r))
		}
	}
	for _, r := range n.XValidations {
		if !slices.ContainsFunc(o.XValidations, func(x crdschema.ValidationRule) bool { return x.Rule == r.Rule }) {
			report(path, fmt.Sprintf("rule added: %s", r.Rule))
		}
	}
	if listType(o) != listType(n) && listType(n) != "atomic" {
		report(path, fmt.Sprintf("x-kubernetes-list-type %s becomes %s", listType(o), listType(n)))
	}

	for _, k := range slices.Sorted(maps.Keys(o.Properties)) {
		op := o.Properties[k]
		p := join(path, k)
		np, ok := n.Properties[k]
		if !ok {
			if !preserves(n) && (n.AdditionalProperties == nil) {
				report(p, "property removed: stored values are pruned")
			}
			continue
		}
		compare(&op, &np, p, report)
	}
	if o.Items != nil && o.Items.Schema != nil && n.Items != nil && n.Items.Schema != nil {
		compare(o.Items.Schema, n.Items.Schema, path+"[*]", report)
	}
	if o.AdditionalProperties != nil && o.AdditionalProperties.Schema != nil && n.AdditionalProperties != nil && n.AdditionalProperties.Schema != nil {
		compare(o.AdditionalProperties.Schema, n.AdditionalProperties.Schema, path+"[*]", report)
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func preserves(s *crdschema.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
}

func listType(s *crdschema.JSONSchemaProps) string {
	if s.XListType == nil {
		return "atomic"
	}
	return *s.XListType
}

// bound reports a bound added or tightened: upper bounds that shrink,
// lower bounds that grow (integers written as %d, floats as %g).
func bound[T int64 | float64](path, name string, o, n *T, upper bool, report func(string, string)) {
	switch {
	case n == nil:
	case o == nil:
		report(path, fmt.Sprintf("%s %v added", name, *n))
	case upper && *n < *o, !upper && *n > *o:
		report(path, fmt.Sprintf("%s %v becomes %v", name, *o, *n))
	}
}
