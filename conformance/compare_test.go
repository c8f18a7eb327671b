package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// normalize turns any JSON-encodable value into the generic form the
// goldens are decoded into (numbers as json.Number).
func normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// firstDiff returns "" when want and got are equal JSON values (numbers
// compared by value, so 1 and 1.0 are equal), else where they first differ.
func firstDiff(where string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return mismatch(where, want, got)
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			wv, wok := w[k]
			gv, gok := g[k]
			p := where + "." + k
			switch {
			case !wok:
				return fmt.Sprintf("%s: expected no such key, got %s", p, show(gv))
			case !gok:
				return fmt.Sprintf("%s: expected %s, got no such key", p, show(wv))
			}
			if d := firstDiff(p, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			return mismatch(where, want, got)
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			if d := firstDiff(where+"["+strconv.Itoa(i)+"]", w[i], g[i]); d != "" {
				return d
			}
		}
		if len(w) != len(g) {
			if len(w) > len(g) {
				return fmt.Sprintf("%s[%d]: expected %s, got nothing (expected %d items, got %d)", where, len(g), show(w[len(g)]), len(w), len(g))
			}
			return fmt.Sprintf("%s[%d]: expected nothing, got %s (expected %d items, got %d)", where, len(w), show(g[len(w)]), len(w), len(g))
		}
		return ""
	case json.Number:
		g, ok := got.(json.Number)
		if !ok {
			return mismatch(where, want, got)
		}
		a, aok := new(big.Rat).SetString(string(w))
		b, bok := new(big.Rat).SetString(string(g))
		if !aok || !bok || a.Cmp(b) != 0 {
			return mismatch(where, want, got)
		}
		return ""
	default:
		if want != got {
			return mismatch(where, want, got)
		}
		return ""
	}
}

func mismatch(where string, want, got any) string {
	return fmt.Sprintf("%s: expected %s, got %s", where, show(want), show(got))
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := string(b)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// sortErrors orders a list of golden-form field errors by type, field and
// detail, the keys the matching rules compare, and drops "message".
func sortErrors(v any) []any {
	l, _ := v.([]any)
	out := make([]any, 0, len(l))
	for _, e := range l {
		m, _ := e.(map[string]any)
		out = append(out, map[string]any{"type": m["type"], "field": m["field"], "detail": m["detail"]})
	}
	key := func(e any) string {
		m := e.(map[string]any)
		return fmt.Sprint(m["type"]) + "\x00" + fmt.Sprint(m["field"]) + "\x00" + fmt.Sprint(m["detail"])
	}
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

// errorsDiff compares two error lists as multisets of (type, field, detail).
func errorsDiff(where string, want, got any) string {
	return firstDiff(where, sortErrors(want), sortErrors(got))
}

func orEmpty(v any) any {
	if v == nil {
		return []any{}
	}
	return v
}

func joinReasons(r []string) string { return strings.Join(r, ", ") }
