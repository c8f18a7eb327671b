// Package jsonvalue holds the operations on decoded JSON values
// (map[string]any, []any, string, int64, float64, bool and nil) that the
// packages of this module share: deep copies, the two equalities the API
// server uses, and the rendering of a value in a field error.
package jsonvalue
