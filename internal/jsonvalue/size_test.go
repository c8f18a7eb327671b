package jsonvalue

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEncodedLenOver(t *testing.T) {
	values := []any{
		nil, true, false, int64(-12345), 1.5, 1e-7, 1e21, 123456789.0, "plain", "<tag> & \"quote\"\n\u2028",
		map[string]any{}, []any{},
		map[string]any{"a": []any{int64(1), "x", nil, map[string]any{"k<": 2.5}}, "b": map[string]any{"c": false}},
		strings.Repeat("é\t", 100),
	}
	for _, v := range values {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		n := int64(len(b))
		if got := exactLen(v, 0, nil); got != n {
			t.Errorf("exactLen(%s) = %d, want %d", b, got, n)
		}
		if EncodedLenOver(v, n) {
			t.Errorf("EncodedLenOver(%s, %d) = true, want false", b, n)
		}
		if !EncodedLenOver(v, n-1) {
			t.Errorf("EncodedLenOver(%s, %d) = false, want true", b, n-1)
		}
	}
}
