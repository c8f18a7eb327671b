// Command crdcheck validates Kubernetes manifests against
// CustomResourceDefinitions offline, exactly as the API server would when
// they are applied, and prints what kubectl would print.
//
// Usage:
//
//	crdcheck -crds DIR [flags] FILE...
//
// For example, from the root of the crdschema module (the paths are
// yours):
//
//	go run ./examples/crdcheck -crds config/crd manifests/
//	go run ./examples/crdcheck -crds config/crd -old live.yaml manifests/
//	helm template chart/ | go run ./examples/crdcheck -crds chart/crds -
//
// crdcheck first loads every CustomResourceDefinition found under DIR
// (recursively, in *.yaml, *.yml and *.json files; other documents are
// ignored) and checks each as the API server checks a CRD on creation.
// Rejected CRDs are reported and not used. Then it checks every object of
// every manifest FILE (a file, a directory searched like DIR, or - for
// the standard input; YAML streams of several documents, JSON, and v1 List
// objects whose items are checked one by one) with the CRD that serves its
// apiVersion (group and version) and kind:
//
//   - without -old, as a create request;
//   - with -old FILE (repeatable), as an update (PUT) of the old object of
//     the same group, kind, namespace and name found in those files, as
//     the API server stores it. Like kubectl apply, the update carries the
//     old object's resourceVersion when the new one has none. An object
//     without an old one is checked as a create.
//
// Each served version of a CRD is compiled once, when the first object of
// that version is met; objects are checked concurrently (-j).
//
// Flags:
//
//	-crds DIR       directory (or file) of CRDs; repeatable; required
//	-old FILE       file or directory of stored objects: check updates
//	-o text|json    output format (default text)
//	-j N            objects checked in parallel (default: number of CPUs)
//	-strict         refuse objects with unknown fields, as kubectl
//	                --validate=strict (its default) does; without it they
//	                are warnings, as with --validate=warn
//	-strict-kinds   an object whose apiVersion and kind no CRD serves is
//	                an error
//	-v              also list accepted and skipped objects
//	-progress       always show the progress line on stderr
//
// # Text output
//
// For every rejected object crdcheck prints where it is (FILE#DOC, the
// 1-based position of the document in the file, with .items[i] for an
// item of a List), its kind, namespace and name, then the error kubectl
// prints for it, for instance
//
//	routes.yaml#2: HTTPRoute default/web (gateway.networking.k8s.io/v1): rejected
//	The HTTPRoute "web" is invalid: spec.hostnames[0]: Invalid value: "-x": ...
//
// or, with several errors, kubectl's list (after "is invalid: " comes a
// new line and one "* field: message" line per error; like kubectl, repeated
// identical messages are shown once). Fields that the API server would drop
// as unknown are printed as kubectl's warnings (Warning: unknown field
// "spec.x"). A request that the API server refuses before validation
// (a wrong apiVersion, a body it cannot decode, a name that does not match)
// is shown as kubectl shows it, "Error from server (<reason>): error when
// creating "<file>": <message>"; so is, with -strict, a body with unknown
// fields ("... strict decoding error: unknown field ..."). Rejected
// CRDs are shown the same way, as `The CustomResourceDefinition "name" is
// invalid: ...`; a CRD name defined twice is rejected the second time (the
// first definition is used). Objects whose apiVersion and kind no accepted
// CRD serves are skipped and counted by kind. A summary closes the report.
//
// A progress line is written to stderr when more than 1,000 objects are
// checked and stderr is a terminal, or always with -progress (then, when
// stderr is not a terminal, as plain lines at most once a second and a
// final line with the throughput).
//
// # JSON output
//
// With -o json, crdcheck writes one JSON document with this shape (every
// key is always present unless marked optional; lists are never null):
//
//	{
//	  "crds": [{
//	    "file": "crds/routes.yaml", "document": 1,
//	    "name": "httproutes.gateway.networking.k8s.io",
//	    "status": "accepted",                // accepted | rejected
//	    "errors": [FieldError, ...],         // why the API server refuses the CRD
//	    "unknownFields": ["spec.x"],         // fields dropped while decoding the CRD
//	    "error": "...",                      // optional: the CRD could not be used (decoding, duplicate)
//	    "message": "..."                     // optional: kubectl's text when rejected
//	  }],
//	  "objects": [{
//	    "file": "routes.yaml", "document": 2, // document 0: the file could not be split into documents
//	    "item": 0,                           // optional: 1-based position in a List's items
//	    "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
//	    "namespace": "default", "name": "web",
//	    "operation": "create",               // create | update ("" when not checked)
//	    "status": "rejected",                // accepted | rejected | skipped
//	    "errors": [FieldError, ...],         // validation errors; [] when none
//	    "unknownFields": ["spec.x"],         // fields the API server drops (kubectl warns)
//	    "error": "...",                      // optional: refused before validation, undecodable, or why skipped
//	    "message": "..."                     // optional: what kubectl prints for a rejection, without its final newline
//	  }],
//	  "summary": {"crds": 1, "crdsRejected": 0, "objects": 2, "accepted": 1,
//	              "rejected": 1, "skipped": 0, "warnings": 0}
//	}
//
// CRDs and objects are listed in the order of the files (directories are
// walked in lexical order) and of the documents in each file, whatever -j.
// The summary's warnings count the unknown fields of all objects.
//
// A FieldError is {"type": "FieldValueInvalid", "field": "spec.x",
// "detail": "...", "message": "spec.x: Invalid value: ..."}, as in an API
// status cause: type is the reason, field the path, detail the detail text
// and message the error's whole text. Errors are listed in the order the
// library reports them, duplicates included.
//
// # Exit status
//
// 0 when every CRD and object is accepted (warnings allowed); 1 when a CRD
// or an object is rejected or cannot be decoded, or, with -strict-kinds,
// an object's kind is not served by any CRD; 2 for a usage error or a file
// or directory that cannot be read.
package main
