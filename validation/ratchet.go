package validation

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/ratchet"
)

// Result is the outcome of ValidateUpdate.
type Result struct {
	// Errors fail the update.
	Errors crdschema.ErrorList
	// Warnings are the failures that ratcheting keeps from being errors,
	// which the API server returns as warnings (package celrules' Result
	// reports those of the CEL rules the same way).
	Warnings crdschema.ErrorList
}

// ValidateUpdate validates obj like Validate, ratcheting with c, the
// correlation of obj with the object it replaces (ratchet.Correlate): the
// failures of a part of the object that the update left unchanged are
// reported as warnings, not errors. Where a node's value is
// correlated and unchanged, its failures (those of its descendants
// included) become warnings; a node without a correlation stays under its
// nearest correlated ancestor. The root's kind and apiVersion never
// ratchet on their own. Embedded resources never ratchet, and the errors
// of list sets and maps are all or nothing: they are reported only when
// the old object has none. With a nil c, it is Validate.
func (v *Validator) ValidateUpdate(fldPath *crdschema.Path, obj any, c *ratchet.Correlation) Result {
	if v == nil || v.root == nil {
		return Result{}
	}
	r := v.validateOpenAPIUpdate(fldPath, obj, c)
	r.Errors = append(r.Errors, v.embeddedMeta(fldPath, obj)...)
	if errs := v.listSetsAndMaps(fldPath, obj); len(errs) > 0 {
		if c == nil || len(v.listSetsAndMaps(fldPath, oldValue(c))) == 0 {
			r.Errors = append(r.Errors, errs...)
		}
	}
	return r
}

func oldValue(c *ratchet.Correlation) any {
	_, old := c.Values()
	return old
}

func (v *Validator) validateOpenAPIUpdate(fldPath *crdschema.Path, obj any, c *ratchet.Correlation) Result {
	st := states.Get().(*state)
	defer putState(st)
	st.corr, st.corrRoot = c, true
	v.root.validate(obj, st)
	if c != nil && st.errorsSince(0) && c.Unchanged() {
		st.markWarnings(0)
	}
	if !st.warnings {
		return Result{Errors: toFieldErrors(fldPath, st.fails)}
	}
	var e, w []failure
	for _, f := range st.fails {
		if f.warning {
			w = append(w, f)
		} else {
			e = append(e, f)
		}
	}
	return Result{Errors: toFieldErrors(fldPath, e), Warnings: toFieldErrors(fldPath, w)}
}

// child validates the value of a property, map entry or item with n,
// following the correlation when ratcheting.
func (st *state) child(n *node, e pathElem, v any) int {
	st.push(e)
	var mc int
	if st.corr == nil {
		mc = n.validate(v, st)
	} else {
		mc = st.correlatedChild(n, e, v)
	}
	st.pop()
	return mc
}

func (st *state) correlatedChild(n *node, e pathElem, v any) int {
	parent, parentRoot := st.corr, st.corrRoot
	var c *ratchet.Correlation
	if e.kind == pathIndex {
		c = parent.Index(e.index)
	} else if !(parentRoot && (e.name == "kind" || e.name == "apiVersion")) {
		c = parent.Key(e.name)
	}
	if c == nil {
		// Uncorrelated: stay with the current correlation, as upstream
		// does.
		return n.validate(v, st)
	}
	st.corr, st.corrRoot = c, false
	from := len(st.fails)
	mc := n.validate(v, st)
	if st.errorsSince(from) && c.Unchanged() {
		st.markWarnings(from)
	}
	st.corr, st.corrRoot = parent, parentRoot
	return mc
}

// errorsSince reports whether a failure from index from on is an error,
// not a warning.
func (st *state) errorsSince(from int) bool {
	if !st.warnings {
		return len(st.fails) > from
	}
	for i := from; i < len(st.fails); i++ {
		if !st.fails[i].warning {
			return true
		}
	}
	return false
}

func (st *state) markWarnings(from int) {
	for i := from; i < len(st.fails); i++ {
		st.fails[i].warning = true
	}
	st.warnings = true
}
