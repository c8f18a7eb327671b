package jsonvalue

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Format renders a value as Kubernetes' field errors print a bad value:
// integers, floats and booleans with %v, strings quoted, anything else as
// JSON (nil as null, maps with sorted keys).
func Format(v any) string {
	switch t := v.(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprint(t)
	case string:
		return strconv.Quote(t)
	case Verbatim:
		return string(t)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// Omitted is the bad value of a field error whose message prints no value,
// like a failed CEL rule on an object ("spec: Invalid value: a must be
// set"), as apimachinery's field.OmitValueType.
type Omitted struct{}

// Verbatim is a bad value already rendered as it is printed, such as a
// value in the Go syntax that Kubernetes 1.33 printed.
type Verbatim string
