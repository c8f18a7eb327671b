package pattern_test

import (
	"fmt"

	"github.com/crdschema/crdschema/internal/pattern"
)

func Example() {
	m, err := pattern.Compile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	if err != nil {
		panic(err)
	}
	for _, s := range []string{"backend.shop-prod.svc", "Backend", "backend-", "bäckend"} {
		fmt.Println(s, m.MatchString(s))
	}
	_, err = pattern.Compile(`^[a-z`)
	fmt.Println(err)
	// Output:
	// backend.shop-prod.svc true
	// Backend false
	// backend- false
	// bäckend false
	// error parsing regexp: missing closing ]: `[a-z`
}
