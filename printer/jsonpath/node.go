package jsonpath

// node is one element of a parsed template. The concrete types below mirror
// the constructs of the Kubernetes JSONPath grammar.
type node interface{}

// listNode is a sequence of nodes evaluated one after the other, each on the
// output of the previous one. A template's root is a list whose elements
// are text nodes and one list per {action}.
type listNode struct {
	nodes []node
}

// textNode is literal text, outside actions or a quoted string inside one.
type textNode struct {
	text string
}

// fieldNode selects a key of a map (".name").
type fieldNode struct {
	name string
}

// identNode is a bare word: the keywords "range" and "end", or an error at
// evaluation time.
type identNode struct {
	name string
}

// sliceParam is one of the three numbers of an index or slice expression.
type sliceParam struct {
	value   int
	known   bool // the number was written (or implied, see derived)
	derived bool // the end of a single index: start+1
}

// arrayNode is "[i]", "[s:e]", "[s:e:step]" or "[*]".
type arrayNode struct {
	params [3]sliceParam
}

// filterNode is "[?(left op right)]" or the existence test "[?(left)]".
type filterNode struct {
	left, right *listNode
	op          string
}

// literalNode is a literal, used on either side of a filter comparison:
// an int, a float64 or a bool.
type literalNode struct{ value any }

// wildcardNode is ".*": every element of a map, slice or string.
type wildcardNode struct{}

// recursiveNode is "..": every container reachable from the input.
type recursiveNode struct{}

// unionNode is "[a,b,...]": the results of each branch, concatenated.
type unionNode struct {
	branches []*listNode
}
