package crdschema

import (
	"encoding/json"
	"errors"

	"github.com/crdschema/crdschema/internal/jsonscan"
	kjson "sigs.k8s.io/json"
)

// MarshalJSON encodes the value; a nil Value encodes as null.
func (j JSON) MarshalJSON() ([]byte, error) {
	return json.Marshal(j.Value)
}

// UnmarshalJSON decodes any JSON value the way Kubernetes decodes request
// bodies: integers that fit become int64, other numbers float64 (the
// results of sigs.k8s.io/json, by a faster scanner).
func (j *JSON) UnmarshalJSON(data []byte) error {
	v, err := jsonscan.Decode(data)
	if err != nil {
		return err
	}
	j.Value = v
	return nil
}

var nullLiteral = []byte("null")

// MarshalJSON encodes the schema, or true or false when there is none.
func (s JSONSchemaPropsOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return json.Marshal(s.Allows)
}

// UnmarshalJSON accepts a schema object, true or false.
func (s *JSONSchemaPropsOrBool) UnmarshalJSON(data []byte) error {
	var v JSONSchemaPropsOrBool
	switch {
	case len(data) == 0:
	case data[0] == '{':
		v.Allows = true
		v.Schema = new(JSONSchemaProps)
		if err := kjson.UnmarshalCaseSensitivePreserveInts(data, v.Schema); err != nil {
			return err
		}
	case string(data) == "true":
		v.Allows = true
	case string(data) == "false":
	default:
		return errors.New("boolean or JSON schema expected")
	}
	*s = v
	return nil
}

// MarshalJSON encodes the list when there is one, else the schema.
func (s JSONSchemaPropsOrArray) MarshalJSON() ([]byte, error) {
	if s.JSONSchemas != nil {
		return json.Marshal(s.JSONSchemas)
	}
	return json.Marshal(s.Schema)
}

// UnmarshalJSON accepts a schema object or a list of schemas. Like the API
// server, it ignores any other JSON value.
func (s *JSONSchemaPropsOrArray) UnmarshalJSON(data []byte) error {
	var v JSONSchemaPropsOrArray
	if err := unmarshalSchemaOrList(data, &v.Schema, &v.JSONSchemas); err != nil {
		return err
	}
	*s = v
	return nil
}

// MarshalJSON encodes the list of names when there is one, else the schema.
func (s JSONSchemaPropsOrStringArray) MarshalJSON() ([]byte, error) {
	if s.Property != nil {
		return json.Marshal(s.Property)
	}
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return nullLiteral, nil
}

// UnmarshalJSON accepts a schema object or a list of property names. Like
// the API server, it ignores any other JSON value.
func (s *JSONSchemaPropsOrStringArray) UnmarshalJSON(data []byte) error {
	var v JSONSchemaPropsOrStringArray
	if err := unmarshalSchemaOrList(data, &v.Schema, &v.Property); err != nil {
		return err
	}
	*s = v
	return nil
}

// unmarshalSchemaOrList decodes data into a new *schema when it is an
// object, into a new list when it is a list, and ignores any other JSON
// value, as the API server does.
func unmarshalSchemaOrList[T any](data []byte, schema **JSONSchemaProps, list *[]T) error {
	if len(data) < 2 {
		return nil
	}
	switch data[0] {
	case '{':
		*schema = new(JSONSchemaProps)
		return kjson.UnmarshalCaseSensitivePreserveInts(data, *schema)
	case '[':
		*list = []T{}
		return kjson.UnmarshalCaseSensitivePreserveInts(data, list)
	}
	return nil
}
