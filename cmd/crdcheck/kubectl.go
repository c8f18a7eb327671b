package main

import (
	"fmt"
	"strings"

	"github.com/crdschema/crdschema"
)

// invalidMessage is what kubectl prints when the API server rejects an
// object of kind named name as invalid with errs, at least one (a status
// of reason Invalid): the causes, each as "field: message", without
// repeats; one inline, several as a list. The text ends in a newline, as
// kubectl's.
func invalidMessage(kind, name string, errs crdschema.ErrorList) string {
	prefix := fmt.Sprintf("The %s %q is invalid: ", kind, name)
	seen := make(map[string]bool, len(errs))
	var causes []string
	for _, e := range errs {
		msg := e.Field + ": " + e.Body()
		if !seen[msg] {
			seen[msg] = true
			causes = append(causes, msg)
		}
	}
	if len(causes) == 1 {
		return prefix + causes[0] + "\n"
	}
	return prefix + "\n* " + strings.Join(causes, "\n* ") + "\n"
}

// requestError is what kubectl prints when the API server refuses a
// create or update (operation) of an object of file before validation,
// with a status of reason (which may be "") and message msg.
func requestError(reason, operation, file, msg string) string {
	from := "Error from server"
	if reason != "" {
		from += " (" + reason + ")"
	}
	verb := map[string]string{"create": "creating", "update": "replacing"}[operation]
	return fmt.Sprintf("%s: error when %s %q: %s", from, verb, file, msg)
}
