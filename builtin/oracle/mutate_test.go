package oracle

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func schemaGK(group, kind string) schema.GroupKind { return schema.GroupKind{Group: group, Kind: kind} }

// mutation is one changed copy of an object.
type mutation struct {
	kind   string // the kind of change, for the counts
	what   string
	obj    map[string]any
	update bool // also run as an update of the original
}

// maxMutations bounds the mutations of one object; they are spread
// evenly over its fields.
const maxMutations = 60

// mutations returns deterministic changes of obj: fields removed, values
// of another JSON type, numbers out of range or fractional, bad
// quantities and times, bad names and labels, unknown fields, duplicated
// list items.
func mutations(obj map[string]any) []mutation {
	var all []mutation
	var visit func(v any, path []any)
	add := func(what string, path []any, f func(parent any, key any)) {
		c := deepCopy(obj).(map[string]any)
		var parent any = c
		for _, k := range path[:len(path)-1] {
			parent = step(parent, k)
		}
		f(parent, path[len(path)-1])
		all = append(all, mutation{kind: what, what: what + " " + pathString(path), obj: c, update: strings.HasPrefix(pathString(path), "metadata") || len(all)%4 == 0})
	}
	set := func(v any) func(parent, key any) {
		return func(parent, key any) { put(parent, key, v) }
	}
	visit = func(v any, path []any) {
		if len(path) > 0 {
			switch x := v.(type) {
			case string:
				add("number for string", path, set(int64(7)))
				add("bad name", path, set("Not_A.Name!"))
				add("empty", path, set(""))
				add("bad quantity", path, set("1.5.5"))
				add("bad time", path, set("2024-13-01"))
				if len(x) > 0 {
					add("long", path, set(strings.Repeat("a", 300)))
				}
			case int64:
				add("string for number", path, set(fmt.Sprint(x)))
				add("huge", path, set(int64(1)<<40))
				add("fraction", path, set(1.5))
				add("negative", path, set(int64(-1)))
			case float64:
				add("string for number", path, set(fmt.Sprint(x)))
			case bool:
				add("string for bool", path, set("true"))
			case map[string]any:
				add("array for object", path, set([]any{}))
			case []any:
				add("object for array", path, set(map[string]any{}))
				if len(x) > 0 {
					add("duplicate item", path, func(parent, key any) {
						l := step(parent, key).([]any)
						put(parent, key, append(append([]any{}, l...), deepCopy(l[0])))
					})
					add("empty list", path, set([]any{}))
				}
			}
			if _, isIndex := path[len(path)-1].(int); !isIndex {
				add("remove", path, func(parent, key any) { delete(parent.(map[string]any), key.(string)) })
			}
		}
		switch x := v.(type) {
		case map[string]any:
			add("unknown field in", append(append([]any{}, path...), "zzUnknown"), set(int64(1)))
			for _, k := range sortedKeys(x) {
				if len(path) == 0 && (k == "apiVersion" || k == "kind") {
					continue
				}
				visit(x[k], append(append([]any{}, path...), k))
			}
		case []any:
			for i, e := range x {
				visit(e, append(append([]any{}, path...), i))
			}
		}
	}
	visit(obj, nil)
	// Names and labels, which every object has.
	if m, ok := obj["metadata"].(map[string]any); ok {
		add("bad label", []any{"metadata", "labels"}, set(map[string]any{"a/b/c": "x"}))
		add("bad name", []any{"metadata", "name"}, set("Bad_Name"))
		if _, ok := m["name"]; ok {
			add("renamed", []any{"metadata", "name"}, set("renamed"))
		}
	}
	if len(all) <= maxMutations {
		return all
	}
	out := make([]mutation, 0, maxMutations)
	for i := 0; i < maxMutations; i++ {
		out = append(out, all[i*len(all)/maxMutations])
	}
	return append(out, all[len(all)-3:]...)
}

func step(v, key any) any {
	switch k := key.(type) {
	case string:
		return v.(map[string]any)[k]
	case int:
		return v.([]any)[k]
	}
	return nil
}

func put(parent, key, v any) {
	switch k := key.(type) {
	case string:
		parent.(map[string]any)[k] = v
	case int:
		parent.([]any)[k] = v
	}
}

func pathString(path []any) string {
	var b strings.Builder
	for i, p := range path {
		switch k := p.(type) {
		case string:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		}
	}
	return b.String()
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
