package jsonpath_test

import (
	"fmt"
	"os"

	"github.com/crdschema/crdschema/printer/jsonpath"
)

func Example() {
	pod := map[string]any{
		"metadata": map[string]any{"name": "web-0"},
		"status": map[string]any{
			"conditions": []any{
				map[string]any{"type": "Initialized", "status": "True"},
				map[string]any{"type": "Ready", "status": "False"},
			},
		},
	}
	t, err := jsonpath.Parse("ready", `{.metadata.name} ready={.status.conditions[?(@.type=="Ready")].status}{"\n"}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := t.Execute(os.Stdout, pod); err != nil {
		fmt.Println(err)
	}

	list := jsonpath.MustParse("types", `{range .status.conditions[*]}{.type}={.status};{end}`)
	s, _ := list.ExecuteString(pod)
	fmt.Println(s)

	_, err = jsonpath.Parse("bad", "{.spec[0}")
	fmt.Println(err)
	// Output:
	// web-0 ready=False
	// Initialized=True;Ready=False;
	// unterminated array
}
