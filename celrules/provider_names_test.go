package celrules

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/release"
)

// TestProviderMatchesEagerNames checks that the type provider, which finds
// the type of a name when asked, knows the types the API server's
// provider knows, under the same names and with the same CEL types, as
// the provider that names every object type of the node at once
// (withTypeNames) and records every type under its name (registerTypes),
// as the API server's does. It asks both about every name either knows,
// with every field, for the types of the corpora's nodes with rules and
// of the fuzz schema, at the root of an object, a list and a map.
func TestProviderMatchesEagerNames(t *testing.T) {
	sources := sharedCRDs(t)
	var crds []*crdschema.CustomResourceDefinition
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		crds = append(crds, sources[name]...)
	}
	var roots []*declType
	for _, n := range ruleNodes(crds, release.Default, map[string]bool{}) {
		roots = append(roots, n.dt)
	}
	fuzz := newDeclType(fuzzSchema(), true)
	roots = append(roots, fuzz, newListType(fuzz, 3), newMapType(stringKeyDecl(), newListType(fuzz, 2), 4), intDecl)
	base, err := baseEnv(defaultMinor, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, root := range roots {
		const name = "selfType42"
		lazy := newTypeProvider(base.CELTypeProvider(), root, name, true)
		scoped := root.withTypeNames(name)
		named := map[string]*declType{}
		registerTypes(scoped.name, scoped, named)
		if got, want := lazy.selfType(), scoped.celType; !got.IsExactType(want) || got.String() != want.String() {
			t.Errorf("%v: self is %v, want %v", root, got, want)
		}
		names := append(slices.Sorted(maps.Keys(named)), "", "list", "map", "int", name+".", name+"x", name+".@idx", name+".@elem", "list.@idx.x", "selfType4")
		for _, n := range names {
			var fields []string
			if dt := named[n]; dt != nil {
				fields = slices.Sorted(maps.Keys(dt.fields))
			}
			fields = append(fields, "namespace", "nope", "@idx")
			gotT, gotOK := lazy.FindStructType(n)
			wantT, wantOK := eagerFindStructType(base.CELTypeProvider(), named, n)
			if fmt.Sprint(gotT, gotOK) != fmt.Sprint(wantT, wantOK) {
				t.Errorf("%v: FindStructType(%q) = %v %v, want %v %v", root, n, gotT, gotOK, wantT, wantOK)
			}
			for _, f := range fields {
				asked++
				gotF, gotOK := lazy.FindStructFieldType(n, f)
				wantF, wantOK := eagerFindStructFieldType(base.CELTypeProvider(), named, n, f)
				if fieldText(gotF, gotOK) != fieldText(wantF, wantOK) {
					t.Errorf("%v: FindStructFieldType(%q, %q) = %s, want %s", root, n, f, fieldText(gotF, gotOK), fieldText(wantF, wantOK))
				}
			}
		}
	}
	if asked < 1000 {
		t.Errorf("asked %d questions, want at least 1000", asked)
	}
}

func fieldText(f *types.FieldType, ok bool) string {
	if f == nil {
		return fmt.Sprint(nil, ok)
	}
	return fmt.Sprint(f.Type, ok)
}

func eagerLookup(named map[string]*declType, name string) (*cel.Type, *declType, bool) {
	if t, ok := named[name]; ok {
		return t.celType, t, true
	}
	if t, ok := scalarTypes[name]; ok {
		return t, nil, true
	}
	return nil, nil, false
}

func eagerFindStructType(base types.Provider, named map[string]*declType, name string) (*types.Type, bool) {
	if t, _, ok := eagerLookup(named, name); ok {
		return types.NewTypeTypeWithParam(t), true
	}
	return base.FindStructType(name)
}

func eagerFindStructFieldType(base types.Provider, named map[string]*declType, typeName, fieldName string) (*types.FieldType, bool) {
	_, dt, ok := eagerLookup(named, typeName)
	if !ok {
		return base.FindStructFieldType(typeName, fieldName)
	}
	if dt == nil {
		return nil, false
	}
	f, found := dt.fields[fieldName]
	if !found && reservedWords[fieldName] {
		f, found = dt.fields["__"+fieldName+"__"]
	}
	if found {
		return &types.FieldType{Type: f.celType}, true
	}
	if dt.kind == kindMap {
		return &types.FieldType{Type: dt.elem.celType}, true
	}
	return nil, false
}

// withTypeNames returns t with object types named after their position
// under name (name, name.field, name.list.@idx, name.map.@elem), as CEL
// needs distinct names for distinct object types. Types that contain no
// object are returned as they are.
func (t *declType) withTypeNames(name string) *declType {
	switch t.kind {
	case kindObject:
		changed := t.name == "object" // a name is to be given
		if !changed {
			name = t.name
		}
		fields := make(map[string]*declType, len(t.fields))
		for fn, f := range t.fields {
			nt := f.withTypeNames(name + "." + fn)
			if nt == f {
				fields[fn] = f
				continue
			}
			changed = true
			fields[fn] = nt
		}
		if !changed {
			return t
		}
		out := newObjectType(name, fields)
		out.minSize = t.minSize
		out.maxElements = t.maxElements
		return out
	case kindMap:
		ne := t.elem.withTypeNames(name + ".@elem")
		if ne == t.elem {
			return t
		}
		out := newMapType(t.key, ne, t.maxElements)
		out.unbounded = t.unbounded
		return out
	case kindList:
		ne := t.elem.withTypeNames(name + ".@idx")
		if ne == t.elem {
			return t
		}
		out := newListType(ne, t.maxElements)
		out.unbounded = t.unbounded
		return out
	}
	return t
}

// registerTypes records t and everything below it under the names the
// API server uses: objects under their type name, lists and maps under
// their path.
func registerTypes(path string, t *declType, into map[string]*declType) {
	switch t.kind {
	case kindObject:
		into[t.name] = t
		for name, f := range t.fields {
			registerTypes(path+"."+name, f, into)
		}
	case kindMap:
		registerTypes(path+".@elem", t.elem, into)
		into[path] = t
	case kindList:
		registerTypes(path+".@idx", t.elem, into)
		into[path] = t
	}
}
