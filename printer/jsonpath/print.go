package jsonpath

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
)

// PrintResults writes results to w separated by single spaces, each as
// Kubernetes JSONPath prints it: maps and slices as compact JSON (keys
// sorted), a JSON null as "null", NoValue as "<no value>", and everything
// else as fmt.Print prints it (3, 3.7, 1e+21, true, text without quotes).
func PrintResults(w io.Writer, results []any) error {
	var buf []byte
	for i, r := range results {
		var err error
		buf, err = AppendValue(buf[:0], r)
		if err != nil {
			return err
		}
		if i != len(results)-1 {
			buf = append(buf, ' ')
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// AppendValue appends the text of one result, as PrintResults prints it,
// to dst. It fails only for values encoding/json cannot encode inside a map
// or slice (such as NaN).
func AppendValue(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return append(dst, x...), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case nil:
		return append(dst, "null"...), nil
	case NoValue:
		return append(dst, "<no value>"...), nil
	case map[string]any, []any:
		return appendJSON(dst, v)
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct:
		return appendJSON(dst, v)
	}
	return fmt.Append(dst, v), nil
}

func appendJSON(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}
