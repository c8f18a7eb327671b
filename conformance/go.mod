module github.com/crdschema/crdschema/conformance

go 1.24.0

require (
	github.com/crdschema/crdschema v0.0.0
	go.yaml.in/yaml/v3 v3.0.6
)

require sigs.k8s.io/json v0.0.0-20250730193827-2d320260d730 // indirect

replace github.com/crdschema/crdschema => ../
