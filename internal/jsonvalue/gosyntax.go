package jsonvalue

import "fmt"

// GoSyntax renders v as fmt's %#v prints it, the way Kubernetes 1.33
// printed the bad value of a field error that is not a number, boolean,
// string or Stringer, at any depth:
//
//	map[string]interface {}{"labels":map[string]interface {}{"a":"x", "b":42}}
func GoSyntax(v any) string { return fmt.Sprintf("%#v", v) }
