package builtin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"
)

// CreateJSON checks a create request's JSON body as the API server reads
// it. Unlike Create, it sees what a decoded object no longer holds: keys
// given twice (duplicate fields: warnings, or with
// WithStrictFieldValidation refusals, as the API server's strict
// decoding), numbers as written (1.0 is no int32), and the order of the
// body, so that of several decoding errors the one reported is the first
// in the body, as the API server reports it. The body is not modified.
func (a *API) CreateJSON(body []byte) (*Result, error) {
	return a.checkBody(body, nil)
}

// UpdateJSON checks an update request's JSON body against the stored
// object old, as CreateJSON and Update do.
func (a *API) UpdateJSON(body []byte, old map[string]any) (*Result, error) {
	if old == nil {
		old = map[string]any{}
	}
	return a.checkBody(body, old)
}

// bodyObject is a JSON object of a body as written: its keys in order,
// duplicates included.
type bodyObject struct {
	keys []string
	vals []any
}

// number is a JSON number of a body, as written.
type number string

func (a *API) checkBody(body []byte, old map[string]any) (*Result, error) {
	v, err := parseBody(body)
	if err != nil {
		return nil, fmt.Errorf("reading the body: %w", err)
	}
	o, ok := v.(*bodyObject)
	if !ok {
		return nil, errors.New("reading the body: not a JSON object")
	}
	return a.check(decoded(o).(map[string]any), old, o)
}

// parseBody reads one JSON value into objects, lists, strings, numbers,
// booleans and nil.
func parseBody(body []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	v, err := parseValue(d, 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

// maxDepth bounds the nesting of a body (the API server's decoder stops
// at 10000 too).
const maxDepth = 10000

func parseValue(d *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("exceeded max depth")
	}
	t, err := d.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch x := t.(type) {
	case json.Delim:
		switch x {
		case '{':
			o := &bodyObject{}
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				o.keys = append(o.keys, k.(string))
				o.vals = append(o.vals, v)
			}
			_, err := d.Token()
			return o, err
		case '[':
			l := []any{}
			for d.More() {
				v, err := parseValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := d.Token()
			return l, err
		}
	case json.Number:
		return number(x), nil
	}
	return t, nil
}

// decoded turns a parsed body into the decoded form the other checks read,
// as the API server's decoder fills the kind's Go types: of a key given
// twice the later value wins, objects merged.
func decoded(v any) any {
	switch x := v.(type) {
	case *bodyObject:
		m := make(map[string]any, len(x.keys))
		for i, k := range x.keys {
			nv := decoded(x.vals[i])
			if prev, ok := m[k].(map[string]any); ok {
				if next, ok := nv.(map[string]any); ok {
					maps.Copy(prev, next)
					continue
				}
			}
			m[k] = nv
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = decoded(e)
		}
		return l
	case number:
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return n
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	}
	return v
}
