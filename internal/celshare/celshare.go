// Package celshare lets package crd tell a celrules.Cache of its own that
// the structural schemas it is given are never modified, so that the
// Cache may keep the CEL type of each schema node by node: crd.New then
// derives (and digests) each node's type once for checking the rules of
// the CRD and compiling them for serving. A Cache given by a user does
// not keep types by node: the user may modify a schema between calls.
package celshare

// ShareNodeTypes, set by package celrules, makes cache (a new
// *celrules.Cache that no one else holds) keep CEL types by schema node.
var ShareNodeTypes func(cache any)
