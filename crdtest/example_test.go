package crdtest_test

import (
	"context"
	"fmt"
	"os"

	"github.com/crdschema/crdschema/crdtest"
)

// RunFiles runs suites for a command line tool. In a Go test, use Run:
//
//	func TestCronTab(t *testing.T) { crdtest.Run(t, "testdata/crontab") }
func ExampleRunFiles() {
	failed, err := crdtest.RunFiles(context.Background(), os.Stdout, []string{"testdata/crontab", "testdata/failing"})
	fmt.Println(failed, err)
	// Output:
	// FAIL testdata/failing/crontab.testsuite.yaml [crontab-crd.yaml] onCreate "expects the wrong message"
	//     create: the error does not contain the expected text
	//       want (substring): minReplicas must not exceed replicas
	//       got:              CronTab.stable.example.com "test-b2c4d" is invalid: spec: Invalid value: replicas should be greater than or equal to minReplicas
	// 4 passed, 1 failed
	// 1 <nil>
}
