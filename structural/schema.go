package structural

import "github.com/crdschema/crdschema"

// Schema is a structural schema: an OpenAPI v3 schema split, node by node,
// into the parts that shape an object (type, properties, items,
// additionalProperties and the x-kubernetes extensions) and the parts that
// only validate values. It is the form every other package of this module
// works on. Build it with New; it is immutable afterwards and safe for
// concurrent use.
type Schema struct {
	Generic
	Extensions

	// Items is the schema of the elements of an array.
	Items *Schema
	// Properties are the schemas of an object's known fields.
	Properties map[string]*Schema
	// AdditionalProperties is the schema (or boolean) for the other keys.
	AdditionalProperties *SchemaOrBool

	// ValueValidation holds the validating keywords, junctors included;
	// nil when the node has none.
	ValueValidation *ValueValidation
	// XValidations are the node's CEL rules (x-kubernetes-validations).
	XValidations []crdschema.ValidationRule
}

// SchemaOrBool is the value of additionalProperties: a schema, or a bool.
// A schema implies Bool true.
type SchemaOrBool struct {
	Schema *Schema
	Bool   bool
}

// Generic are the keywords that describe a node without validating it.
type Generic struct {
	Description string
	// Type is "object", "array", "string", "integer", "number", "boolean"
	// or "" (for int-or-string and preserve-unknown-fields nodes).
	Type  string
	Title string
	// Default is the node's default; nil when absent, a JSON whose Value
	// is nil for an explicit null.
	Default      *crdschema.JSON
	Nullable     bool
	ExternalDocs *crdschema.ExternalDocumentation
	Example      *crdschema.JSON
}

// Extensions are the x-kubernetes extensions that shape an object.
type Extensions struct {
	XPreserveUnknownFields bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
}

// ValueValidation are the keywords that validate a value.
type ValueValidation struct {
	Format           string
	Maximum          *float64
	ExclusiveMaximum bool
	Minimum          *float64
	ExclusiveMinimum bool
	MaxLength        *int64
	MinLength        *int64
	Pattern          string
	MaxItems         *int64
	MinItems         *int64
	UniqueItems      bool
	MultipleOf       *float64
	Enum             []crdschema.JSON
	MaxProperties    *int64
	MinProperties    *int64
	Required         []string
	AllOf            []NestedValueValidation
	OneOf            []NestedValueValidation
	AnyOf            []NestedValueValidation
	Not              *NestedValueValidation
}

// NestedValueValidation is a schema inside allOf, anyOf, oneOf or not. It
// may only validate; whatever shaping keywords it sets are kept in the
// Forbidden fields so that Validate can report them.
type NestedValueValidation struct {
	ValueValidation
	XValidations         []crdschema.ValidationRule
	Items                *NestedValueValidation
	Properties           map[string]*NestedValueValidation
	AdditionalProperties *NestedValueValidation

	ForbiddenGenerics   Generic
	ForbiddenExtensions Extensions
}

// HasDefault reports whether s (which may be nil) has a default.
func (s *Schema) HasDefault() bool {
	return s != nil && s.Default != nil && s.Default.Value != nil
}
