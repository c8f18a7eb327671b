package objectcheck

import (
	"cmp"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/k8snames"
	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/internal/pathstack"
	"github.com/crdschema/crdschema/structural"
)

// EmbeddedMeta checks the embedded resources in obj, the objects
// whose schema sets x-kubernetes-embedded-resource: each needs an
// apiVersion and a kind (strings; the kind a DNS-1035 label once lower
// cased), and its metadata must be valid ObjectMeta whose name and
// generateName are usable as URL path segments. An embedded resource may
// leave its name empty. With isResourceRoot, obj itself is checked as an
// embedded resource too (the API server does that for defaults); request
// validation passes false, the root's metadata being checked on its own.
func EmbeddedMeta(fldPath *crdschema.Path, obj any, s *structural.Schema, isResourceRoot bool) crdschema.ErrorList {
	if isResourceRoot {
		if s == nil {
			s = &structural.Schema{}
		}
		if !s.XEmbeddedResource {
			clone := *s
			clone.XEmbeddedResource = true
			s = &clone
		}
	}
	w := objectWalker{loc: pathstack.New(fldPath)}
	defer w.loc.Release()
	w.embedded(obj, s)
	sortErrors(w.errs)
	return w.errs
}

// embedded checks the embedded resources in v, whose schema is s, at the
// walker's location.
func (w *objectWalker) embedded(v any, s *structural.Schema) {
	if s == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if s.XEmbeddedResource {
			w.errs = append(w.errs, embeddedResource(w.path(), x)...)
		}
		for k, v := range x {
			if !isContainer(v) {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				w.loc.Child(k)
				w.embedded(v, prop)
				w.loc.Pop()
			} else if s.AdditionalProperties != nil {
				w.loc.Key(k)
				w.embedded(v, s.AdditionalProperties.Schema)
				w.loc.Pop()
			}
		}
	case []any:
		for i, item := range x {
			if isContainer(item) {
				w.loc.Index(i)
				w.embedded(item, s.Items)
				w.loc.Pop()
			}
		}
	}
}

func embeddedResource(p *crdschema.Path, x map[string]any) crdschema.ErrorList {
	var errs crdschema.ErrorList
	if _, ok := x["apiVersion"]; !ok {
		errs = append(errs, crdschema.Required(p.Child("apiVersion"), ""))
	}
	if _, ok := x["kind"]; !ok {
		errs = append(errs, crdschema.Required(p.Child("kind"), ""))
	}
	if v, ok := x["apiVersion"]; ok {
		ap := p.Child("apiVersion")
		if s, isString := v.(string); !isString {
			errs = append(errs, crdschema.Invalid(ap, v, "must be a string"))
		} else if s == "" {
			errs = append(errs, crdschema.Invalid(ap, s, "must not be empty"))
		} else if _, _, err := metavalidation.ParseGroupVersion(s); err != nil {
			errs = append(errs, crdschema.Invalid(ap, s, err.Error()))
		}
	}
	if v, ok := x["kind"]; ok {
		kp := p.Child("kind")
		if s, isString := v.(string); !isString {
			errs = append(errs, crdschema.Invalid(kp, v, "must be a string"))
		} else if s == "" {
			errs = append(errs, crdschema.Invalid(kp, s, "must not be empty"))
		} else if msgs := k8snames.IsDNS1035Label(strings.ToLower(s)); len(msgs) > 0 {
			errs = append(errs, crdschema.Invalid(kp, s, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
		}
	}
	if v, ok := x["metadata"]; ok {
		mp := p.Child("metadata")
		meta, err := metavalidation.DecodeObjectMeta(v)
		if err != nil {
			errs = append(errs, crdschema.Invalid(mp, v, err.Error()))
		} else {
			meta.Name = cmp.Or(meta.Name, "fakename")
			errs = append(errs, metavalidation.ValidateObjectMeta(meta, meta.Namespace != "", metavalidation.NameIsPathSegment, mp)...)
		}
	}
	return errs
}
