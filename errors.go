package crdschema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// ErrorType is the reason of a field error. Its values are Kubernetes'
// field.ErrorType strings ("FieldValueInvalid", ...), which is also how they
// appear in API status causes.
type ErrorType string

// The error types, as Kubernetes defines them.
const (
	ErrorTypeNotFound     ErrorType = "FieldValueNotFound"
	ErrorTypeRequired     ErrorType = "FieldValueRequired"
	ErrorTypeDuplicate    ErrorType = "FieldValueDuplicate"
	ErrorTypeInvalid      ErrorType = "FieldValueInvalid"
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	ErrorTypeForbidden    ErrorType = "FieldValueForbidden"
	ErrorTypeTooLong      ErrorType = "FieldValueTooLong"
	ErrorTypeTooMany      ErrorType = "FieldValueTooMany"
	ErrorTypeInternal     ErrorType = "InternalError"
	ErrorTypeTypeInvalid  ErrorType = "FieldValueTypeInvalid"
)

// Error types that Kubernetes defines but the API server does not report
// for custom resources; Error still renders them as Kubernetes does.
const (
	errorTypeTooFew   ErrorType = "FieldValueTooFew"
	errorTypeTooShort ErrorType = "FieldValueTooShort"
)

// String returns the human-readable text of t, as it starts the body of an
// error message ("Invalid value", "Required value", ...).
func (t ErrorType) String() string {
	switch t {
	case ErrorTypeNotFound:
		return "Not found"
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeInvalid, ErrorTypeTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeTooMany:
		return "Too many"
	case errorTypeTooFew:
		return "Too few"
	case ErrorTypeInternal:
		return "Internal error"
	case errorTypeTooShort:
		return "Too short"
	}
	return fmt.Sprintf("<unknown error %q>", string(t))
}

// Error is a problem with one field: the type of problem, the field's path,
// the offending value and a detail text. Its Error method renders the text
// Kubernetes renders for the same error, byte for byte.
//
// BadValue is the offending value as decoded (nil for a JSON null), or what
// Kubernetes puts there instead: "" for Required and Forbidden, "<value
// omitted>" for TooLong, and a value of an internal type (Kubernetes'
// OmitValueType) for an Invalid or TooMany error whose message shows no
// value, such as a failed CEL rule on an object.
type Error struct {
	Type     ErrorType
	Field    string // the field's path, as Path.String renders it
	BadValue any
	Detail   string
}

// Error renders e as "<field>: <body>", as Kubernetes' field.Error does.
func (e *Error) Error() string {
	return e.Field + ": " + e.Body()
}

// Body renders the part of the message after the field: the error type's
// text, the value where the type shows one, and the detail.
func (e *Error) Body() string {
	var s string
	switch e.Type {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeTooLong, errorTypeTooShort, ErrorTypeInternal:
		s = e.Type.String()
	case ErrorTypeInvalid, ErrorTypeTypeInvalid, ErrorTypeNotSupported,
		ErrorTypeNotFound, ErrorTypeDuplicate, ErrorTypeTooMany, errorTypeTooFew:
		if _, ok := e.BadValue.(jsonvalue.Omitted); ok {
			s = e.Type.String()
			break
		}
		s = e.Type.String() + ": " + jsonvalue.Format(e.BadValue)
	default:
		s = "Internal error: unhandled error code: " + e.Type.String() + ": please report this"
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// ErrorList is a list of field errors. The nil list means no errors.
//
// An ErrorList is not an error: a function that returns error should
// return list.ToAggregate(), which is nil for an empty list.
type ErrorList []*Error

// ToAggregate returns l as one error, as Kubernetes' ErrorList.ToAggregate
// does: nil when l is empty, otherwise an error holding the errors of l with
// repeated messages left out. Its text is the single message alone, or
// several as "[m1, m2]". errors.As finds the *Error values in it.
func (l ErrorList) ToAggregate() error {
	if len(l) == 0 {
		return nil
	}
	agg := &aggregate{errs: make([]error, 0, len(l))}
	seen := make(map[string]bool, len(l))
	for _, e := range l {
		m := e.Error()
		if seen[m] {
			continue
		}
		seen[m] = true
		agg.errs = append(agg.errs, e)
	}
	return agg
}

// aggregate is the error ToAggregate returns: errors with distinct
// messages. It is a pointer, so that comparing two errors never panics.
type aggregate struct{ errs []error }

func (a *aggregate) Error() string {
	if len(a.errs) == 1 {
		return a.errs[0].Error()
	}
	msgs := make([]string, len(a.errs))
	for i, e := range a.errs {
		msgs[i] = e.Error()
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Unwrap returns the errors of a, for errors.Is and errors.As.
func (a *aggregate) Unwrap() []error { return a.errs }

// Invalid reports a value that is not valid for its field.
func Invalid(field *Path, value any, detail string) *Error {
	return &Error{Type: ErrorTypeInvalid, Field: field.String(), BadValue: value, Detail: detail}
}

// TypeInvalid reports a value of the wrong type.
func TypeInvalid(field *Path, value any, detail string) *Error {
	return &Error{Type: ErrorTypeTypeInvalid, Field: field.String(), BadValue: value, Detail: detail}
}

// Required reports a missing value.
func Required(field *Path, detail string) *Error {
	return &Error{Type: ErrorTypeRequired, Field: field.String(), BadValue: "", Detail: detail}
}

// Duplicate reports a value that must be unique but is not.
func Duplicate(field *Path, value any) *Error {
	return &Error{Type: ErrorTypeDuplicate, Field: field.String(), BadValue: value}
}

// Forbidden reports a field that may not be set (in this context).
func Forbidden(field *Path, detail string) *Error {
	return &Error{Type: ErrorTypeForbidden, Field: field.String(), BadValue: "", Detail: detail}
}

// NotSupported reports a value outside a known set; the detail lists the
// supported values, each quoted.
func NotSupported[T ~string](field *Path, value any, supported []T) *Error {
	detail := ""
	if len(supported) > 0 {
		q := make([]string, len(supported))
		for i, v := range supported {
			q[i] = strconv.Quote(string(v))
		}
		detail = "supported values: " + strings.Join(q, ", ")
	}
	return &Error{Type: ErrorTypeNotSupported, Field: field.String(), BadValue: value, Detail: detail}
}

// TooLong reports a value longer than max bytes (max < 0: no limit known).
// The value itself is not printed.
func TooLong(field *Path, value any, max int) *Error {
	detail := "value is too long"
	if max >= 0 {
		unit := "bytes"
		if max == 1 {
			unit = "byte"
		}
		detail = fmt.Sprintf("may not be more than %d %s", max, unit)
	}
	return &Error{Type: ErrorTypeTooLong, Field: field.String(), BadValue: "<value omitted>", Detail: detail}
}

// TooMany reports a list or map with more than max items; actual < 0 leaves
// the count out of the message.
func TooMany(field *Path, actual, max int) *Error {
	detail := "has too many items"
	if max >= 0 {
		unit := "items"
		if max == 1 {
			unit = "item"
		}
		detail = fmt.Sprintf("must have at most %d %s", max, unit)
	}
	var v any = actual
	if actual < 0 {
		v = jsonvalue.Omitted{}
	}
	return &Error{Type: ErrorTypeTooMany, Field: field.String(), BadValue: v, Detail: detail}
}

// InternalError reports a failure of the library itself, not of the input.
func InternalError(field *Path, err error) *Error {
	return &Error{Type: ErrorTypeInternal, Field: field.String(), BadValue: err, Detail: err.Error()}
}
