package prune_test

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

// referenceDecode is Decoder.Decode as plainly as it can be put: Prune,
// then PruneNulls, each a walk of its own. Decode and DecodeCopy prune in
// one walk; they must agree with it.
func referenceDecode(opts prune.DecoderOptions, obj map[string]any) ([]string, error) {
	nestedString := func(k string) (string, bool, error) {
		v, ok := obj[k]
		if !ok {
			return "", false, nil
		}
		s, ok := v.(string)
		if !ok {
			return "", false, fmt.Errorf(".%s accessor error: %v is of the type %T, expected string", k, v, v)
		}
		return s, true, nil
	}
	kind, foundKind, err := nestedString("kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := nestedString("apiVersion")
	if err != nil {
		return nil, err
	}
	group, version, gvErr := metavalidation.ParseGroupVersion(apiVersion)
	matches := gvErr == nil && group == opts.Group && kind == opts.Kind
	m, foundMeta, unknown, err := objectmeta.ReadMeta(obj, objectmeta.MetaOptions{DropMalformedFields: opts.Storage, ReturnUnknownFieldPaths: true}, opts.Storage && matches)
	if err != nil {
		return nil, err
	}
	if gvErr != nil {
		return nil, gvErr
	}
	unknownFields := unknown
	if matches {
		s := opts.Schemas[version]
		if !opts.PreserveUnknownFields {
			unknownFields = append(unknownFields, referencePrune(obj, s, true)...)
			referencePruneNulls(obj, s)
		}
		embeds := objectmeta.EmbeddingNodes(s, false)
		if s != nil && embeds[s] {
			c := objectmeta.NewCoercer(objectmeta.CoerceOptions{DropInvalidFields: opts.Storage, ReturnUnknownFieldPaths: true}, embeds)
			if ferr := c.Coerce(nil, obj, s, s.XEmbeddedResource); ferr != nil {
				return nil, ferr
			}
			u := c.Unknown()
			sort.Strings(u)
			unknownFields = append(unknownFields, u...)
		}
	}
	if foundKind {
		obj["kind"] = kind
	}
	if foundAPIVersion {
		obj["apiVersion"] = apiVersion
	}
	if foundMeta {
		obj["metadata"] = m
	}
	return unknownFields, nil
}

// referencePrune is Prune as plainly as it can be put: a walk that only
// deletes, of its own (Prune shares Decode's walks).
func referencePrune(x any, s *structural.Schema, root bool) []string {
	var paths []string
	isMeta := func(k string) bool { return k == "apiVersion" || k == "kind" || k == "metadata" }
	join := func(path, k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	var walk, keepUnknown func(x any, s *structural.Schema, embedded bool, path string)
	field := func(k string, v any, s *structural.Schema, path string) bool {
		fs, ok := s.Properties[k]
		if !ok {
			if s.AdditionalProperties == nil {
				return false
			}
			fs = s.AdditionalProperties.Schema
		}
		walk(v, fs, fs != nil && fs.XEmbeddedResource, join(path, k))
		return true
	}
	walk = func(x any, s *structural.Schema, embedded bool, path string) {
		if s != nil && s.XPreserveUnknownFields {
			keepUnknown(x, s, embedded, path)
			return
		}
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if s != nil && (embedded && isMeta(k) || field(k, v, s, path)) {
					continue
				}
				if s == nil || path != "" || !isMeta(k) { // the root's are not reported
					paths = append(paths, join(path, k))
				}
				delete(x, k)
			}
		case []any:
			var is *structural.Schema
			if s != nil {
				is = s.Items
			}
			for i, v := range x {
				walk(v, is, is != nil && is.XEmbeddedResource, path+"["+strconv.Itoa(i)+"]")
			}
		}
	}
	keepUnknown = func(x any, s *structural.Schema, embedded bool, path string) {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if !embedded || !isMeta(k) {
					field(k, v, s, path)
				}
			}
		case []any:
			if is := s.Items; is != nil {
				for i, v := range x {
					keepUnknown(v, is, is.XEmbeddedResource, path+"["+strconv.Itoa(i)+"]")
				}
			}
		}
	}
	if s == nil && root {
		s = &structural.Schema{}
	}
	walk(x, s, root || s != nil && s.XEmbeddedResource, "")
	sort.Strings(paths)
	return paths
}

// referencePruneNulls is PruneNulls as plainly as it can be put.
func referencePruneNulls(x any, s *structural.Schema) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			fs, ok := s.Properties[k]
			if !ok && s.AdditionalProperties != nil {
				fs = s.AdditionalProperties.Schema
			}
			if fs != nil && v == nil && !fs.Nullable && !fs.HasDefault() {
				delete(x, k)
			} else if fs != nil {
				referencePruneNulls(v, fs)
			}
		}
	case []any:
		for _, v := range x {
			referencePruneNulls(v, s.Items)
		}
	}
}
