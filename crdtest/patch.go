package crdtest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// check reports whether p is a well-formed operation.
func (p patch) check() error {
	switch p.Op {
	case "add", "replace", "test":
		if p.Value == nil {
			return fmt.Errorf("op %q needs a value", p.Op)
		}
	case "remove":
	case "move", "copy":
		if _, err := splitPointer(p.From); err != nil {
			return fmt.Errorf("from: %v", err)
		}
	default:
		return fmt.Errorf("unknown op %q (want add, remove, replace, move, copy or test)", p.Op)
	}
	_, err := splitPointer(p.Path)
	return err
}

// splitPointer splits a JSON pointer (RFC 6901) into its unescaped tokens.
func splitPointer(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("path %q does not start with /", ptr)
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, nil
}

// applyPatches applies the operations ops to doc, a JSON value, in order,
// and returns the result. doc is modified.
func applyPatches(doc any, ops []patch) (any, error) {
	var err error
	for i, op := range ops {
		if doc, err = applyPatch(doc, op); err != nil {
			return nil, fmt.Errorf("patch %d (%s %s): %v", i, op.Op, op.Path, err)
		}
	}
	return doc, nil
}

func applyPatch(doc any, op patch) (any, error) {
	path, err := splitPointer(op.Path)
	if err != nil {
		return nil, err
	}
	var value any
	if op.Value != nil {
		if err := json.Unmarshal(*op.Value, &value); err != nil {
			return nil, err
		}
	}
	switch op.Op {
	case "add":
		return set(doc, path, value, true)
	case "replace":
		if _, err := get(doc, path); err != nil {
			return nil, err
		}
		return set(doc, path, value, false)
	case "remove":
		return remove(doc, path)
	case "test":
		v, err := get(doc, path)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(v, value) {
			return nil, fmt.Errorf("test failed: the value differs")
		}
		return doc, nil
	case "move", "copy":
		from, err := splitPointer(op.From)
		if err != nil {
			return nil, err
		}
		v, err := get(doc, from)
		if err != nil {
			return nil, err
		}
		if op.Op == "move" {
			if doc, err = remove(doc, from); err != nil {
				return nil, err
			}
		} else {
			v = jsonvalue.Copy(v)
		}
		return set(doc, path, v, true)
	}
	return nil, fmt.Errorf("unknown op %q", op.Op)
}

// get returns the value at path in doc.
func get(doc any, path []string) (any, error) {
	for i, tok := range path {
		switch d := doc.(type) {
		case map[string]any:
			v, ok := d[tok]
			if !ok {
				return nil, fmt.Errorf("no such member: /%s", strings.Join(path[:i+1], "/"))
			}
			doc = v
		case []any:
			n, err := index(tok, len(d), false)
			if err != nil {
				return nil, fmt.Errorf("/%s: %v", strings.Join(path[:i+1], "/"), err)
			}
			doc = d[n]
		default:
			return nil, fmt.Errorf("/%s: not an object or array", strings.Join(path[:i], "/"))
		}
	}
	return doc, nil
}

// index parses an array index token for an array of length n; with add
// the index may be n or "-" (append).
func index(tok string, n int, add bool) (int, error) {
	if add && tok == "-" {
		return n, nil
	}
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || (tok != "0" && strings.HasPrefix(tok, "0")) {
		return 0, fmt.Errorf("bad array index %q", tok)
	}
	if i > n || (!add && i == n) {
		return 0, fmt.Errorf("array index %d out of range (length %d)", i, n)
	}
	return i, nil
}

// set sets (add: inserts into arrays) the value at path and returns the
// new document.
func set(doc any, path []string, v any, add bool) (any, error) {
	if len(path) == 0 {
		return v, nil
	}
	parent, err := get(doc, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	last := path[len(path)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = v
		return doc, nil
	case []any:
		i, err := index(last, len(p), add)
		if err != nil {
			return nil, err
		}
		if !add {
			p[i] = v
			return doc, nil
		}
		return set(doc, path[:len(path)-1], slices.Insert(p, i, v), false)
	}
	return nil, fmt.Errorf("/%s: not an object or array", strings.Join(path[:len(path)-1], "/"))
}

// remove removes the value at path and returns the new document.
func remove(doc any, path []string) (any, error) {
	if len(path) == 0 {
		return nil, fmt.Errorf("cannot remove the whole document")
	}
	parent, err := get(doc, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	last := path[len(path)-1]
	switch p := parent.(type) {
	case map[string]any:
		if _, ok := p[last]; !ok {
			return nil, fmt.Errorf("no such member: /%s", strings.Join(path, "/"))
		}
		delete(p, last)
		return doc, nil
	case []any:
		i, err := index(last, len(p), false)
		if err != nil {
			return nil, err
		}
		p = append(p[:i:i], p[i+1:]...)
		return set(doc, path[:len(path)-1], p, false)
	}
	return nil, fmt.Errorf("/%s: not an object or array", strings.Join(path[:len(path)-1], "/"))
}
