package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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
// compared by value, so 1 and 1.0 are equal; an empty list or object equal
// to a missing one of the same kind), else where and how they differ
// (-want +got).
func firstDiff(where string, want, got any) string {
	if d := cmp.Diff(want, got, numbersByValue, cmpopts.EquateEmpty()); d != "" {
		return where + " (-want +got):\n" + d
	}
	return ""
}

// numbersByValue compares JSON numbers by their value.
var numbersByValue = cmp.Comparer(func(a, b json.Number) bool {
	x, xok := new(big.Rat).SetString(string(a))
	y, yok := new(big.Rat).SetString(string(b))
	return xok && yok && x.Cmp(y) == 0
})

// goldenErrors turns a list of golden-form field errors into the keys the
// matching rules compare (type, field, detail and, with compareMessages,
// message). Unless ordered, the list is sorted by type, field and detail.
func goldenErrors(v any, ordered bool) []any {
	l, _ := v.([]any)
	out := make([]any, 0, len(l))
	for _, e := range l {
		m, _ := e.(map[string]any)
		x := map[string]any{"type": m["type"], "field": m["field"], "detail": m["detail"]}
		if compareMessages {
			x["message"] = m["message"]
		}
		out = append(out, x)
	}
	if ordered {
		return out
	}
	key := func(e any) string {
		m := e.(map[string]any)
		return fmt.Sprint(m["type"]) + "\x00" + fmt.Sprint(m["field"]) + "\x00" + fmt.Sprint(m["detail"])
	}
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

// compareMessages also compares the errors' messages, which show the bad
// value; CRDSCHEMA_MESSAGES=0 compares type, field and detail alone.
var compareMessages = os.Getenv("CRDSCHEMA_MESSAGES") != "0"

// errorsDiff compares the errors of a golden result (the "crd" object or a
// request) with the library's: in order when the golden's errorsOrdered is
// true (upstream gave them in the same order in every run of the oracle),
// else as multisets of (type, field, detail).
func errorsDiff(where string, want map[string]any, got any) string {
	ordered := want["errorsOrdered"] == true
	return firstDiff(where, goldenErrors(orEmpty(want["errors"]), ordered), goldenErrors(got, ordered))
}

func orEmpty(v any) any {
	if v == nil {
		return []any{}
	}
	return v
}

func joinReasons(r []string) string { return strings.Join(r, ", ") }
