package celrules

import (
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// typeProvider makes the object types of one schema node known to the CEL
// type checker; anything else is answered by the environment's own
// provider, which it embeds.
type typeProvider struct {
	types.Provider
	adapter types.Adapter
	// root is the node's type, and name the name of its object types:
	// the API server names them after their paths below the node (name,
	// name.field, name.list.@idx, name.map.@elem). The provider finds the
	// type of a name when asked, instead of naming every type at once.
	root *declType
	name string
	// keywords lets a property named like a CEL keyword be selected by its
	// plain name (self.namespace) as well as escaped (self.__namespace__).
	keywords bool
	// registry tells that adapter is a cel-go registry or the default
	// adapter, which return CEL values unchanged (see NativeToValue).
	registry bool
}

func newTypeProvider(base types.Provider, root *declType, name string, keywords bool) *typeProvider {
	var adapter types.Adapter = types.DefaultTypeAdapter
	if a, ok := base.(types.Adapter); ok {
		adapter = a
	}
	_, registry := adapter.(*types.Registry)
	registry = registry || adapter == types.DefaultTypeAdapter
	return &typeProvider{Provider: base, adapter: adapter, root: root, name: name, keywords: keywords, registry: registry}
}

// selfType is the CEL type of the node's values.
func (p *typeProvider) selfType() *cel.Type { return namedType(p.root, p.name) }

// namedType returns the CEL type of t, found at path below the node, with
// its object types named after their paths.
func namedType(t *declType, path string) *cel.Type {
	switch t.kind {
	case kindObject:
		return cel.ObjectType(path)
	case kindList:
		return cel.ListType(namedType(t.elem, path+".@idx"))
	case kindMap:
		return cel.MapType(t.key.celType, namedType(t.elem, path+".@elem"))
	}
	return t.celType
}

// named returns the type the API server knows under name, and its path:
// object types under their path, lists and maps too, but for those below
// a list or map node, which it knows under the path from "list" or "map"
// (the name of the node's type) instead of the node's name.
func (p *typeProvider) named(name string) (*declType, string) {
	if rest, ok := strings.CutPrefix(name, p.name); ok {
		if t := typeBelow(p.root, rest); t != nil && (t.kind == kindObject || t.kind != kindScalar && p.root.kind == kindObject) {
			return t, name
		}
	}
	if p.root.kind == kindList || p.root.kind == kindMap {
		if rest, ok := strings.CutPrefix(name, p.root.name); ok {
			if t := typeBelow(p.root, rest); t != nil && (t.kind == kindList || t.kind == kindMap) {
				return t, p.name + rest
			}
		}
	}
	return nil, ""
}

// typeBelow returns the type at path below t (".field.@idx"), or nil.
func typeBelow(t *declType, path string) *declType {
	for path != "" && t != nil {
		if path[0] != '.' {
			return nil
		}
		step := path[1:]
		path = ""
		if i := strings.IndexByte(step, '.'); i >= 0 {
			step, path = step[:i], step[i:]
		}
		switch {
		case t.kind == kindObject:
			t = t.fields[step]
		case t.kind == kindList && step == "@idx", t.kind == kindMap && step == "@elem":
			t = t.elem
		default:
			return nil
		}
	}
	return t
}

// scalarTypes are the type names the API server's provider answers for
// itself besides the schema's types.
var scalarTypes = map[string]*cel.Type{
	"bool": cel.BoolType, "bytes": cel.BytesType, "double": cel.DoubleType,
	"duration": cel.DurationType, "int": cel.IntType, "null_type": cel.NullType,
	"string": cel.StringType, "timestamp": cel.TimestampType, "uint": cel.UintType,
	"list": cel.ListType(cel.AnyType), "map": cel.MapType(cel.AnyType, cel.AnyType),
}

func (p *typeProvider) FindStructType(name string) (*types.Type, bool) {
	if t, path := p.named(name); t != nil {
		return types.NewTypeTypeWithParam(namedType(t, path)), true
	}
	if t, ok := scalarTypes[name]; ok {
		return types.NewTypeTypeWithParam(t), true
	}
	return p.Provider.FindStructType(name)
}

func (p *typeProvider) FindStructFieldNames(string) ([]string, bool) { return []string{}, false }

func (p *typeProvider) FindStructFieldType(typeName, fieldName string) (*types.FieldType, bool) {
	dt, path := p.named(typeName)
	if dt == nil {
		if _, ok := scalarTypes[typeName]; ok {
			return nil, false
		}
		return p.Provider.FindStructFieldType(typeName, fieldName)
	}
	f, found := dt.fields[fieldName]
	if !found && p.keywords && reservedWords[fieldName] {
		fieldName = "__" + fieldName + "__"
		f, found = dt.fields[fieldName]
	}
	if found {
		return &types.FieldType{Type: namedType(f, path+"."+fieldName)}, true
	}
	if dt.kind == kindMap {
		return &types.FieldType{Type: namedType(dt.elem, path+".@elem")}, true
	}
	return nil, false
}

// NativeToValue converts v as the base adapter does. Most values the
// interpreter asks about are CEL values already (every attribute it
// resolves); a cel-go registry returns those unchanged, except pointers
// to its scalar types, which it dereferences, so they skip its long type
// switch.
func (p *typeProvider) NativeToValue(v any) ref.Val {
	if p.registry {
		switch x := v.(type) {
		case *types.Bool, *types.Bytes, *types.Double, *types.Int, *types.String, *types.Uint:
		case ref.Val:
			return x
		}
	}
	return p.adapter.NativeToValue(v)
}
