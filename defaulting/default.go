package defaulting

import (
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/structural"
)

// Default applies the defaults of the schema s to x, in place, top-down as
// the API server does after decoding a request:
//
//   - in an object, every property whose schema has a default is set to a
//     copy of it when the key is absent, or when its value is null and the
//     property is not nullable;
//   - a null value under additionalProperties, or a null list element,
//     whose schema is not nullable is replaced by a copy of that schema's
//     default (or stays null when it has none);
//   - then every field and element is defaulted in turn, defaults included.
//
// Defaults are deep-copied: x never shares a map or list with s. An
// explicit null default counts as no default.
func Default(x any, s *structural.Schema) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, ps := range s.Properties {
			if !ps.HasDefault() {
				continue
			}
			if v, ok := x[k]; !ok || (v == nil && !ps.Nullable) {
				x[k] = jsonvalue.Copy(ps.Default.Value)
			}
		}
		var as *structural.Schema
		if s.AdditionalProperties != nil {
			as = s.AdditionalProperties.Schema
		}
		if len(s.Properties) == 0 && as == nil {
			return
		}
		for k, v := range x {
			if ps, ok := s.Properties[k]; ok {
				Default(v, ps)
				continue
			}
			if as == nil {
				continue
			}
			if v == nil && !as.Nullable {
				v = defaultValue(as)
				x[k] = v
			}
			Default(v, as)
		}
	case []any:
		is := s.Items
		if is == nil {
			return
		}
		for i, v := range x {
			if v == nil && !is.Nullable {
				v = defaultValue(is)
				x[i] = v
			}
			Default(v, is)
		}
	}
}

// defaultValue returns a copy of the default of s, or nil.
func defaultValue(s *structural.Schema) any {
	if s.Default == nil {
		return nil
	}
	return jsonvalue.Copy(s.Default.Value)
}
