package crd

import (
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// validateSubresources checks the scale subresource's paths.
func validateSubresources(sub *crdschema.CustomResourceSubresources, fldPath *crdschema.Path) crdschema.ErrorList {
	if sub == nil || sub.Scale == nil {
		return nil
	}
	var errs crdschema.ErrorList
	sc := sub.Scale
	under := func(name, path, prefix, detail string) {
		p := fldPath.Child("scale." + name)
		if path == "" {
			errs = append(errs, crdschema.Required(p, ""))
			return
		}
		if e := validateSimpleJSONPath(path, p); len(e) > 0 {
			errs = append(errs, e...)
		} else if !strings.HasPrefix(path, prefix) {
			errs = append(errs, crdschema.Invalid(p, path, detail))
		}
	}
	under("specReplicasPath", sc.SpecReplicasPath, ".spec.", "should be a json path under .spec")
	under("statusReplicasPath", sc.StatusReplicasPath, ".status.", "should be a json path under .status")
	if sc.LabelSelectorPath != nil && *sc.LabelSelectorPath != "" {
		path := *sc.LabelSelectorPath
		p := fldPath.Child("scale.labelSelectorPath")
		if e := validateSimpleJSONPath(path, p); len(e) > 0 {
			errs = append(errs, e...)
		} else if !strings.HasPrefix(path, ".spec.") && !strings.HasPrefix(path, ".status.") {
			errs = append(errs, crdschema.Invalid(p, path, "should be a json path under either .spec or .status"))
		}
	}
	return errs
}

// validateSimpleJSONPath requires a path that starts with a dot.
func validateSimpleJSONPath(s string, fldPath *crdschema.Path) crdschema.ErrorList {
	switch {
	case s == "":
		return crdschema.ErrorList{crdschema.Invalid(fldPath, s, "must not be empty")}
	case s[0] != '.':
		return crdschema.ErrorList{crdschema.Invalid(fldPath, s, "must be a simple json path starting with .")}
	}
	return nil
}

// The values a printer column's type and format may take, sorted as the
// error messages list them.
var (
	columnTypes   = []string{"boolean", "date", "integer", "number", "string"}
	columnFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
)

// validateColumn checks one additional printer column.
func validateColumn(col *crdschema.CustomResourceColumnDefinition, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	if col.Name == "" {
		errs = append(errs, crdschema.Required(fldPath.Child("name"), ""))
	}
	typeDetail := "must be one of " + strings.Join(columnTypes, ",")
	if col.Type == "" {
		errs = append(errs, crdschema.Required(fldPath.Child("type"), typeDetail))
	} else if !slices.Contains(columnTypes, col.Type) {
		errs = append(errs, crdschema.Invalid(fldPath.Child("type"), col.Type, typeDetail))
	}
	if col.Format != "" && !slices.Contains(columnFormats, col.Format) {
		errs = append(errs, crdschema.Invalid(fldPath.Child("format"), col.Format, "must be one of "+strings.Join(columnFormats, ",")))
	}
	if col.JSONPath == "" {
		errs = append(errs, crdschema.Required(fldPath.Child("JSONPath"), ""))
	} else {
		errs = append(errs, validateSimpleJSONPath(col.JSONPath, fldPath.Child("JSONPath"))...)
	}
	return errs
}

// maxSelectableFields is the most selectable fields a version may have.
const maxSelectableFields = 8

// validateSelectableFields checks the selectable fields of a version (""
// for the top level) against its structural schema ss (nil when the schema
// could not be converted).
func validateSelectableFields(fields []crdschema.SelectableField, ss *structural.Schema, fldPath *crdschema.Path, opts validationOptions, version string) crdschema.ErrorList {
	var errs crdschema.ErrorList
	unique := make(map[string]bool, len(fields))
	for i, f := range fields {
		p := fldPath.Index(i).Child("jsonPath")
		if f.JSONPath == "" {
			errs = append(errs, crdschema.Required(p, ""))
			continue
		}
		path, found, err := ss.FieldPath(f.JSONPath, false)
		if err != nil {
			errs = append(errs, crdschema.Invalid(p, f.JSONPath, "is an invalid path: "+err.Error()))
			continue
		}
		if path.Root().String() == "metadata" {
			errs = append(errs, crdschema.Invalid(p, f.JSONPath, "must not point to fields in metadata"))
		}
		if !selectableType(found) {
			errs = append(errs, crdschema.Invalid(p, f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		key := path.String()
		if unique[key] {
			errs = append(errs, crdschema.Duplicate(p, f.JSONPath))
		} else {
			unique[key] = true
		}
	}
	if n := len(unique); n > maxSelectableFields && !opts.allowTooManySelectableFields[version] {
		errs = append(errs, crdschema.TooMany(fldPath, n, maxSelectableFields))
	}
	return errs
}

func selectableType(s *structural.Schema) bool {
	return s != nil && (s.Type == "string" || s.Type == "boolean" || s.Type == "integer")
}
