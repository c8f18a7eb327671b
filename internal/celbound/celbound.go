// Package celbound carries, from package celrules to package crd, the
// celrules.ValidateOption that lets a validation run its CEL rules without
// runtime cost tracking where static bounds prove that no cost limit can be
// reached (see celrules/bounded.go). Such a run returns the budget less the
// bound instead of less the exact cost, which is why the option is not
// exported: package crd does not use the remaining budget.
package celbound

// Option is the option, a celrules.ValidateOption; package celrules sets it
// when it is initialised.
var Option any
