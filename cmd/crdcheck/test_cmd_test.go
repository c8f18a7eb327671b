package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestCommand runs crdtest's suites from the command line: a passing
// suite exits 0, a failing one 1 with the failing case named, and no suite
// at all, a missing path or a file that is not a suite (binary data) are
// usage and input errors, 2.
func TestTestCommand(t *testing.T) {
	binary := filepath.Join(t.TempDir(), "x.testsuite.yaml")
	if err := os.WriteFile(binary, []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x03\x00>\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"test", "../../crdtest/testdata/crontab"}, exitOK, "4 passed, 0 failed"},
		{[]string{"test", "../../crdtest/testdata/failing"}, exitRejected, "0 passed, 1 failed"},
		{[]string{"test"}, exitUsage, ""},
		{[]string{"test", "-crds"}, exitUsage, ""},
		{[]string{"test", "testdata/nope"}, exitUsage, "ERROR testdata/nope"},
		{[]string{"test", binary}, exitUsage, "ERROR " + binary},
		{[]string{"test", binary, "../../crdtest/testdata/crontab"}, exitUsage, "4 passed, 0 failed, 1 unreadable"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, strings.NewReader(""), &stdout, &stderr)
		if code != tt.code || !strings.Contains(stdout.String(), tt.out) {
			t.Errorf("crdcheck %q: exit %d, want %d; stdout %q (want %q); stderr %q", tt.args, code, tt.code, stdout.String(), tt.out, stderr.String())
		}
	}
}
