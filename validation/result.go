package validation

import (
	"encoding/json"
	"strings"

	"github.com/crdschema/crdschema"
)

// The failure codes of the OpenAPI validator. They decide which kind of
// field error a failure becomes.
const (
	codePlain            = 0 // junctor failures and range checks: no field
	codeInvalidType      = 600
	codeRequired         = 601
	codeTooLong          = 602
	codeTooShort         = 603
	codePattern          = 604
	codeEnum             = 605
	codeMultipleOf       = 606
	codeMaximum          = 607
	codeMinimum          = 608
	codeUnique           = 609
	codeMaxItems         = 610
	codeMinItems         = 611
	codeTooFewProps      = 613
	codeTooManyProps     = 614
	codeUnallowedProp    = 615
	codeMultipleOfNotPos = 617
)

// failure is one failed check, before it is turned into a field error. It
// keeps what the API server's validator keeps: the path in the validator's
// own notation ("spec.items[0]"), the message, the value and the limit.
type failure struct {
	code  int
	path  string
	msg   string
	value any   // nil: no value
	limit int64 // the maximum, for the length and count failures
	enum  *node // for enum failures: the node whose values are listed

	warning bool // ratcheted: reported as a warning
}

// toFieldErrors converts failures to field errors below fldPath, as the API
// server does, dropping failures whose message repeats an earlier one. The
// order is the API server's: the order in which its validator finds them
// (each schema's checks in turn: type, junctors, string, format, number,
// array, enum, object; a junctor's branches before its own failure), with
// the keys of an object in key order where the API server's follows Go's
// map order.
func toFieldErrors(fldPath *crdschema.Path, fs []failure) crdschema.ErrorList {
	if len(fs) == 0 {
		return nil
	}
	errs := make(crdschema.ErrorList, 0, len(fs))
	var seen map[string]struct{}
	if len(fs) > 1 {
		seen = make(map[string]struct{}, len(fs))
	}
	for i := range fs {
		f := &fs[i]
		if seen != nil {
			if _, dup := seen[f.msg]; dup {
				continue
			}
			seen[f.msg] = struct{}{}
		}
		errs = append(errs, f.fieldError(fldPath))
	}
	return errs
}

func (f *failure) fieldError(fldPath *crdschema.Path) *crdschema.Error {
	if f.code == codePlain {
		return crdschema.Invalid(fldPath, "", f.msg)
	}
	p := fldPath
	if f.path != "" && f.path != "." {
		p = fldPath.Child(strings.TrimPrefix(f.path, "."))
	}
	var value any = ""
	if f.value != nil {
		value = f.value
	}
	switch f.code {
	case codeRequired:
		return crdschema.Required(p, "")
	case codeEnum:
		return crdschema.NotSupported(p, f.value, supportedValues(f.enum.enum))
	case codeTooLong:
		return crdschema.TooLong(p, "", int(f.limit))
	case codeMaxItems, codeTooManyProps:
		actual := int64(-1)
		if n, ok := f.value.(int64); ok {
			actual = n
		}
		return crdschema.TooMany(p, int(actual), int(f.limit))
	case codeInvalidType:
		return crdschema.TypeInvalid(p, value, f.msg)
	}
	return crdschema.Invalid(p, value, f.msg)
}

// supportedValues renders enum values as the API server lists them in an
// "Unsupported value" error: strings as they are, anything else as JSON.
func supportedValues(enum []any) []string {
	out := make([]string, len(enum))
	for i, v := range enum {
		if s, ok := v.(string); ok {
			out[i] = s
			continue
		}
		b, _ := json.Marshal(v)
		out[i] = string(b)
	}
	return out
}
