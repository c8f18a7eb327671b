package printer

import (
	"encoding/json"
	"time"
)

// cell converts a value found by a column's path to the cell of a column of
// the given type (other than string), or nil when the value does not fit.
// Numbers must be int64, float64 or json.Number, as decoders produce them:
// like upstream, other Go number types (such as the int of a literal in the
// path) give nil.
func (p *Printer) cell(typ string, v any) any {
	switch typ {
	case "integer":
		switch x := v.(type) {
		case int64:
			return x
		case float64:
			return int64(x)
		case json.Number:
			if i, err := x.Int64(); err == nil {
				return i
			}
		}
	case "number":
		switch x := v.(type) {
		case int64:
			return float64(x)
		case float64:
			return x
		case json.Number:
			if f, err := x.Float64(); err == nil {
				return f
			}
		}
	case "boolean":
		if b, ok := v.(bool); ok {
			return b
		}
	case "date":
		if s, ok := v.(string); ok {
			return p.age(s)
		}
	}
	return nil
}

// age renders a timestamp as the API server does: "" and "null" are the
// zero time, which is "<unknown>"; anything but RFC 3339 is "<invalid>".
func (p *Printer) age(s string) string {
	if s == "" || s == "null" {
		return "<unknown>"
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return "<invalid>"
	}
	if t.IsZero() {
		return "<unknown>"
	}
	return humanDuration(p.now().Sub(t))
}
