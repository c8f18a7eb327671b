package celparse_test

import (
	"fmt"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema/internal/celparse"
)

// A Parser parses a text as its environment's env.Parse does, or declines
// and leaves the text to env.Parse.
func Example() {
	env, err := cel.NewEnv(cel.OptionalTypes(), cel.Variable("self", cel.ListType(cel.IntType)))
	if err != nil {
		panic(err)
	}
	p := celparse.New(env)
	for _, text := range []string{"self.all(x, x > 0)", "self.all(x, x >)"} {
		a, ok := p.Parse(text)
		if !ok {
			// Declined: env.Parse gives the AST or, here, cel-go's error.
			_, iss := env.Parse(text)
			fmt.Printf("%s: declined; cel-go: %v\n", text, iss.Err() != nil)
			continue
		}
		checked, iss := env.Check(a)
		fmt.Printf("%s: parsed, checked: %v, type %v\n", text, iss.Err() == nil, checked.OutputType())
	}
	// Output:
	// self.all(x, x > 0): parsed, checked: true, type bool
	// self.all(x, x >): declined; cel-go: true
}
