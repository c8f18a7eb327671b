package jsonpath

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Limits that keep evaluation bounded on hostile templates or data.
const (
	// maxValues is the most values one evaluation may produce in total.
	maxValues = 1 << 20
	// maxDepth bounds recursive descent into nested data.
	maxDepth = 10000
)

var (
	errTooManyValues = fmt.Errorf("jsonpath evaluation produced more than %d values", maxValues)
	errTooDeep       = fmt.Errorf("jsonpath recursive descent deeper than %d levels", maxDepth)
)

// evaluation is the state of one FindResults call. Besides the budget it
// holds the counters with which {range} and {end} communicate, which is how
// upstream implements ranges; keeping them per call (upstream keeps them on
// the template) makes a Template reusable.
type evaluation struct {
	t          *Template
	beginRange int
	inRange    int
	endRange   int
	lastEnd    int // index in t.root.nodes of the last {end} reached, or -1
	produced   int
}

// count charges n produced values to the budget.
func (e *evaluation) count(n int) error {
	e.produced += n
	if e.produced > maxValues {
		return errTooManyValues
	}
	return nil
}

// find evaluates the root nodes from index start on data. A {range} action
// evaluates the nodes after it once per value it selects, until the
// matching {end}; evaluation then resumes after that {end}.
func (e *evaluation) find(data any, start int) ([][]any, error) {
	nodes := e.t.root.nodes
	cur := []any{data}
	all := [][]any{}
	for i := start; i < len(nodes); i++ {
		results, err := e.walk(cur, nodes[i])
		if err != nil {
			return nil, err
		}
		if e.endRange > 0 && e.endRange <= e.inRange {
			e.endRange--
			e.lastEnd = i
			break
		}
		if e.beginRange > 0 {
			e.beginRange--
			e.inRange++
			if len(results) > 0 {
				for _, v := range results {
					if v == nil {
						v = NoValue{}
					}
					sub, err := e.find(v, i+1)
					if err != nil {
						return nil, err
					}
					all = append(all, sub...)
				}
			} else if _, err := e.find(NoValue{}, i+1); err != nil {
				// Even an empty range is walked once, to find its {end}.
				return nil, err
			}
			e.inRange--
			if e.lastEnd > i {
				i = e.lastEnd // resume after the range's {end}
			}
			continue
		}
		all = append(all, results)
	}
	return all, nil
}

// walk evaluates one node on every input value. As upstream, some failing
// steps return their input along with the error; an existence filter
// counts those values.
func (e *evaluation) walk(in []any, n node) ([]any, error) {
	switch n := n.(type) {
	case *listNode:
		return e.list(in, n)
	case *textNode:
		return []any{n.text}, e.count(1)
	case *fieldNode:
		return e.field(in, n)
	case *arrayNode:
		return e.array(in, n)
	case *filterNode:
		return e.filter(in, n)
	case *literalNode:
		return slices.Repeat([]any{n.value}, len(in)), e.count(len(in))
	case *wildcardNode:
		return e.wildcard(in)
	case *recursiveNode:
		return e.recursive(in)
	case *unionNode:
		return e.union(in, n)
	case *identNode:
		return e.identifier(in, n)
	}
	return in, fmt.Errorf("unexpected node %T", n)
}

func (e *evaluation) list(in []any, l *listNode) ([]any, error) {
	cur := in
	for _, n := range l.nodes {
		var err error
		if cur, err = e.walk(cur, n); err != nil {
			return cur, err
		}
	}
	return cur, nil
}

func (e *evaluation) identifier(in []any, n *identNode) ([]any, error) {
	switch n.name {
	case "range":
		e.beginRange++
		return in, nil
	case "end":
		if e.inRange > 0 {
			e.endRange++
			return []any{}, nil
		}
		return []any{}, errors.New("not in range, nothing to end")
	}
	return in, fmt.Errorf("unrecognized identifier %v", n.name)
}

func (e *evaluation) field(in []any, n *fieldNode) ([]any, error) {
	out := []any{}
	if len(in) == 0 {
		return out, nil
	}
	for _, v := range in {
		if m, ok := v.(map[string]any); ok {
			if x, found := m[n.name]; found {
				out = append(out, x)
			}
		}
	}
	if len(out) == 0 {
		if e.t.allowMissing {
			return out, nil
		}
		return out, fmt.Errorf("%s is not found", n.name)
	}
	return out, e.count(len(out))
}

func (e *evaluation) array(in []any, n *arrayNode) ([]any, error) {
	out := []any{}
	for _, v := range in {
		if v == nil {
			continue
		}
		list, ok := v.([]any)
		if !ok {
			return in, fmt.Errorf("%s is not array or slice", typeName(v))
		}
		length := len(list)
		p := n.params
		if !p[0].known {
			p[0].value = 0
		}
		if p[0].value < 0 {
			p[0].value += length
		}
		if !p[1].known {
			p[1].value = length
		}
		if p[1].value < 0 || (p[1].value == 0 && p[1].derived) {
			p[1].value += length
		}
		if p[1].value == p[0].value {
			// Nothing selected: upstream stops here, dropping the
			// remaining inputs.
			return out, nil
		}
		if p[0].value >= length || p[0].value < 0 {
			return in, fmt.Errorf("array index out of bounds: index %d, length %d", p[0].value, length)
		}
		if p[1].value > length || p[1].value < 0 {
			return in, fmt.Errorf("array index out of bounds: index %d, length %d", p[1].value-1, length)
		}
		if p[0].value > p[1].value {
			return in, fmt.Errorf("starting index %d is greater than ending index %d", p[0].value, p[1].value)
		}
		step := 1
		if p[2].known {
			if p[2].value <= 0 {
				return in, errors.New("step must be > 0")
			}
			step = p[2].value
		}
		sel := list[p[0].value:p[1].value]
		for i := 0; i < len(sel); i += step {
			out = append(out, sel[i])
		}
		if err := e.count((len(sel) + step - 1) / step); err != nil {
			return out, err
		}
	}
	return out, nil
}

func (e *evaluation) union(in []any, n *unionNode) ([]any, error) {
	out := []any{}
	for _, b := range n.branches {
		r, err := e.list(in, b)
		if err != nil {
			return in, err
		}
		out = append(out, r...)
	}
	return out, nil
}

// children returns the elements of a map (by sorted key), a slice, or the
// bytes of a string; nil for anything else.
func children(v any) []any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return nil
		}
		keys := slices.Sorted(maps.Keys(x))
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = x[k]
		}
		return out
	case []any:
		return x
	case string:
		if x == "" {
			return nil
		}
		out := make([]any, len(x))
		for i := 0; i < len(x); i++ {
			out[i] = x[i]
		}
		return out
	}
	return nil
}

func (e *evaluation) wildcard(in []any) ([]any, error) {
	out := []any{}
	for _, v := range in {
		c := children(v)
		if err := e.count(len(c)); err != nil {
			return out, err
		}
		out = append(out, c...)
	}
	return out, nil
}

// recursive returns, in depth-first pre-order, every value reachable from
// the inputs that has children of its own (maps, slices and non-empty
// strings), starting with the inputs themselves.
func (e *evaluation) recursive(in []any) ([]any, error) {
	out := []any{}
	err := e.descend(in, &out, 0)
	return out, err
}

func (e *evaluation) descend(in []any, out *[]any, depth int) error {
	if depth > maxDepth {
		return errTooDeep
	}
	for _, v := range in {
		var c []any
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 {
				continue
			}
			c = children(x)
		case []any:
			if len(x) == 0 {
				continue
			}
			c = x
		case string:
			// A non-empty string counts; its bytes have no children.
			if x == "" {
				continue
			}
		default:
			continue
		}
		*out = append(*out, v)
		if err := e.count(1); err != nil {
			return err
		}
		if c != nil {
			if err := e.descend(c, out, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *evaluation) filter(in []any, n *filterNode) ([]any, error) {
	out := []any{}
	for _, v := range in {
		before := len(out)
		list, ok := v.([]any)
		if !ok {
			return in, fmt.Errorf("%s is not array or slice and cannot be filtered", valueString(v))
		}
		one := make([]any, 1) // reused: no step keeps its input slice
		for _, item := range list {
			one[0] = item
			lefts, err := e.list(one, n.left)
			if n.op == "exists" {
				if len(lefts) > 0 {
					out = append(out, item)
				}
				continue
			}
			if err != nil {
				return in, err
			}
			switch {
			case len(lefts) == 0:
				continue
			case len(lefts) > 1:
				return in, errors.New("can only compare one element at a time")
			}
			rights, err := e.list(one, n.right)
			if err != nil {
				return in, err
			}
			switch {
			case len(rights) == 0:
				continue
			case len(rights) > 1:
				return in, errors.New("can only compare one element at a time")
			}
			pass, err := compare(n.op, lefts[0], rights[0])
			if err != nil {
				return out, err
			}
			if pass {
				out = append(out, item)
			}
		}
		if err := e.count(len(out) - before); err != nil {
			return out, err
		}
	}
	return out, nil
}

// typeName names the Go type of v as reflect.Type.String does.
func typeName(v any) string {
	if _, ok := v.(NoValue); ok {
		return "<invalid Value>"
	}
	return fmt.Sprintf("%T", v)
}

// valueString formats v as fmt formats the reflect.Value holding it.
func valueString(v any) string {
	if _, ok := v.(NoValue); ok {
		return "<invalid reflect.Value>"
	}
	return fmt.Sprintf("%v", v)
}
