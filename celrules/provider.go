package celrules

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// typeProvider makes the object types of one schema node known to the CEL
// type checker; anything else is answered by the environment's own
// provider.
type typeProvider struct {
	base    types.Provider
	adapter types.Adapter
	// named are the schema's types by name: object types and, under their
	// paths, list and map types.
	named map[string]*declType
	// keywords lets a property named like a CEL keyword be selected by its
	// plain name (self.namespace) as well as escaped (self.__namespace__).
	keywords bool
	// registry tells that adapter is a cel-go registry or the default
	// adapter, which return CEL values unchanged (see NativeToValue).
	registry bool
}

func newTypeProvider(base types.Provider, root *declType, keywords bool) *typeProvider {
	named := map[string]*declType{}
	registerTypes(root.name, root, named)
	var adapter types.Adapter = types.DefaultTypeAdapter
	if a, ok := base.(types.Adapter); ok {
		adapter = a
	}
	_, registry := adapter.(*types.Registry)
	registry = registry || adapter == types.DefaultTypeAdapter
	return &typeProvider{base: base, adapter: adapter, named: named, keywords: keywords, registry: registry}
}

// registerTypes records t and everything below it under the names the
// API server uses: objects under their type name, lists and maps under
// their path.
func registerTypes(path string, t *declType, into map[string]*declType) {
	switch t.kind {
	case kindObject:
		into[t.name] = t
		for name, f := range t.fields {
			registerTypes(path+"."+name, f.typ, into)
		}
	case kindMap:
		registerTypes(path+".@elem", t.elem, into)
		into[path] = t
	case kindList:
		registerTypes(path+".@idx", t.elem, into)
		into[path] = t
	}
}

// scalarTypes are the type names the API server's provider answers for
// itself besides the schema's types.
var scalarTypes = map[string]*cel.Type{
	"bool": cel.BoolType, "bytes": cel.BytesType, "double": cel.DoubleType,
	"duration": cel.DurationType, "int": cel.IntType, "null_type": cel.NullType,
	"string": cel.StringType, "timestamp": cel.TimestampType, "uint": cel.UintType,
	"list": cel.ListType(cel.AnyType), "map": cel.MapType(cel.AnyType, cel.AnyType),
}

func (p *typeProvider) lookup(name string) (*cel.Type, *declType, bool) {
	if t, ok := p.named[name]; ok {
		return t.celType, t, true
	}
	if t, ok := scalarTypes[name]; ok {
		return t, nil, true
	}
	return nil, nil, false
}

func (p *typeProvider) EnumValue(name string) ref.Val { return p.base.EnumValue(name) }

func (p *typeProvider) FindIdent(name string) (ref.Val, bool) { return p.base.FindIdent(name) }

func (p *typeProvider) FindStructType(name string) (*types.Type, bool) {
	if t, _, ok := p.lookup(name); ok {
		return types.NewTypeTypeWithParam(t), true
	}
	return p.base.FindStructType(name)
}

func (p *typeProvider) FindStructFieldNames(string) ([]string, bool) { return []string{}, false }

func (p *typeProvider) FindStructFieldType(typeName, fieldName string) (*types.FieldType, bool) {
	_, dt, ok := p.lookup(typeName)
	if !ok {
		return p.base.FindStructFieldType(typeName, fieldName)
	}
	if dt == nil {
		return nil, false
	}
	f, found := dt.fields[fieldName]
	if !found && p.keywords && reservedWords[fieldName] {
		f, found = dt.fields["__"+fieldName+"__"]
	}
	if found {
		return &types.FieldType{Type: f.typ.celType}, true
	}
	if dt.kind == kindMap {
		return &types.FieldType{Type: dt.elem.celType}, true
	}
	return nil, false
}

func (p *typeProvider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	return p.base.NewValue(name, fields)
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
