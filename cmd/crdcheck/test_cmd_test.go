package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTestCommand runs crdtest's suites from the command line: a passing
// suite exits 0, a failing one 1 with the failing case named, and no suite
// at all is a usage error.
func TestTestCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"test", "../../crdtest/testdata/crontab"}, exitOK, "4 passed, 0 failed"},
		{[]string{"test", "../../crdtest/testdata/failing"}, exitRejected, "0 passed, 1 failed"},
		{[]string{"test"}, exitUsage, ""},
		{[]string{"test", "-crds"}, exitUsage, ""},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, strings.NewReader(""), &stdout, &stderr)
		if code != tt.code || !strings.Contains(stdout.String(), tt.out) {
			t.Errorf("crdcheck %q: exit %d, want %d; stdout %q (want %q); stderr %q", tt.args, code, tt.code, stdout.String(), tt.out, stderr.String())
		}
	}
}
