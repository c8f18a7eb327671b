// Command crdcheck checks Kubernetes manifests against
// CustomResourceDefinitions offline, exactly as the API server would when
// they are applied (the verdicts of k8s.io/apiextensions-apiserver
// v0.37.2, Kubernetes v1.37.2), and prints what kubectl would print. It is
// made for CI: rendered Helm and Kustomize output with the CRDs inside,
// JUnit, TAP and GitHub Actions output, and two further commands, upgrade
// (what applying new CRDs does to the objects already stored) and schema
// (JSON Schemas for editors and kubeconform).
//
// Usage:
//
//	crdcheck [check] [flags] FILE...          check manifests (the default command)
//	crdcheck upgrade -from STORED -to NEW [OBJECTS...]
//	crdcheck schema [-d DIR] CRDS...
//	crdcheck version
//
// Flags may come before, between or after the FILEs ("--" ends them). For
// example, from the root of the crdschema module:
//
//	go run ./cmd/crdcheck -crds config/crd manifests/
//	go run ./cmd/crdcheck manifests/ -crds config/crd -old live.yaml
//	helm template chart/ | go run ./cmd/crdcheck -o github -
//	go run ./cmd/crdcheck upgrade -from live-crds.yaml -to chart/crds/ stored.yaml
//	go run ./cmd/crdcheck schema -d schemas/ chart/crds/
//
// # Checking manifests
//
// crdcheck reads every manifest FILE (a file, a directory searched
// recursively for *.yaml, *.yml and *.json, or - for the standard input):
// YAML streams of several documents (split as kubectl splits them, on
// lines starting with "---", and read as kubectl reads them, YAML 1.1:
// yes and on are booleans, 1.0 is the integer 1), JSON, and lists (a v1
// List, or a typed list such as RoleList: any document with items, as
// kubectl reads it), whose items are checked one by one. Files are read
// in blocks and split as they are read (a file is never held whole), documents are decoded on -j goroutines,
// and each object is checked as soon as the CRD serving its apiVersion
// (group and version) and kind is known, and then dropped.
//
// The CRDs are those under -crds (repeatable; other kinds of documents
// there are ignored) and the CustomResourceDefinitions found among the
// manifests themselves, in any order, as Helm and Kustomize render charts.
// Each is checked as the API server checks a CRD on creation; a rejected
// CRD is reported with the API server's errors and not used. When two CRDs
// define the same name or kind, the first is used (-crds ones first) and
// the second is rejected. Each served version is prepared once, when the
// first object of that version is met, and its CEL rules are compiled as
// objects reach them (rules no object reaches are not compiled). Objects
// are checked while their CRD is validated, not after: when the CRD turns
// out rejected, their outcomes are replaced by "not checked".
//
// Every object is checked
//
//   - without -old, as a create request;
//   - with -old FILE (repeatable), as an update (PUT) of the old object of
//     the same group, kind, namespace and name found in those files (a
//     kubectl get -o yaml dump, Lists included), as the API server stores
//     it, with validation ratcheting. Like kubectl apply, the update carries
//     the old object's resourceVersion when the new one has none. An object
//     without an old one is checked as a create.
//
// An object of a built-in kind of the release (-kubernetes-version) is
// checked with package builtin: decoding as the API server's Go types do,
// the required fields of the published schema, ObjectMeta and the name
// rule; hand-written validation, defaulting and admission are not
// reproduced, and the report says so. An object whose kind neither a CRD
// of the input nor the release serves is not checked. Objects not checked are listed with -v, counted in the summary, and make
// the exit status 1 only with -fail-unchecked (the former -strict-kinds);
// they are never reported as refused by the API server.
//
// Flags of check:
//
//	-crds DIR        directory or file of CRDs; repeatable
//	-old FILE        file or directory of stored objects: check updates
//	-o FORMAT        text (default), json, junit, tap or github
//	-j N             documents decoded and checked in parallel (default: CPUs)
//	-strict          refuse objects with unknown fields, as kubectl
//	                 --validate=strict (its default) does; without it they
//	                 are warnings, as with --validate=warn
//	-fail-unchecked  exit 1 when an object was not checked
//	-show-result     JSON output: include each accepted object as the API
//	                 server would store it (pruned, defaulted, prepared)
//	-v               text output: also list accepted and not checked objects
//	-progress        always show the progress line on stderr
//	-version         print crdschema's version and the Kubernetes release
//
// # Locations
//
// Every document is located as FILE:LINE, the line of its first line of
// content (after the "---" and any comments); the standard input is named
// <stdin>; an item of a List adds " items[i]" (and the line is the
// item's when the List is written in block style, as kubectl get -o yaml
// writes it). YAML errors give the line in the file.
//
// # Text output
//
// For every rejected object crdcheck prints its location, kind, namespace
// and name, then the error kubectl prints for it, with a blank line between
// two objects, for instance
//
//	routes.yaml:12: HTTPRoute default/web (gateway.networking.k8s.io/v1): rejected
//	The HTTPRoute "web" is invalid: spec.hostnames[0]: Invalid value: "-x": ...
//
// or, with several errors, kubectl's list (after "is invalid: " comes a
// new line and one "* field: message" line per error; like kubectl,
// repeated identical messages are shown once). Fields that the API server
// would drop as unknown, and the API server's other warnings (finalizer
// names), are printed as kubectl prints them (Warning: unknown field
// "spec.x"). A request that the API server refuses before validation
// (a wrong apiVersion, a body it cannot decode, a name that does not
// match) is shown as kubectl shows it, "Error from server (<reason>):
// error when creating "<file>": <message>"; so is, with -strict, a body
// with unknown fields. Rejected CRDs are shown the same way, as `The
// CustomResourceDefinition "name" is invalid: ...`. Documents that cannot
// be read (a YAML error, an object without apiVersion or kind, a List item
// that is not an object) and files that cannot be read are shown with their
// location and the reason. A summary closes the report:
//
//	not checked, no accepted CRD of the input serves their apiVersion and kind: apps/v1 Deployment (built-in): 1
//	CRDs: 1 accepted, 0 rejected
//	objects: 5 accepted, 1 rejected, 1 not checked, 0 unreadable; 0 warning(s)
//
// On a terminal, a progress line is written to stderr once a run has
// lasted a second; with -progress it is always written (on anything else
// as plain lines at most once a second, and a final line with the
// throughput).
//
// # JSON output
//
// With -o json, crdcheck writes one JSON document with this shape (every
// key is always present unless marked optional; lists are never null):
//
//	{
//	  "crds": [{
//	    "file": "crds/routes.yaml", "line": 1, "document": 1,
//	    "item": 0,                           // optional: 1-based position in a List's items
//	    "source": "crds",                    // crds | manifests (found among the manifests)
//	    "name": "httproutes.gateway.networking.k8s.io",
//	    "status": "accepted",                // accepted | rejected
//	    "errors": [FieldError, ...],         // why the API server refuses the CRD
//	    "unknownFields": ["spec.x"],         // fields dropped while decoding the CRD
//	    "error": "...",                      // optional: the CRD could not be used (decoding, duplicate)
//	    "message": "..."                     // optional: kubectl's text when rejected
//	  }],
//	  "objects": [{
//	    "file": "routes.yaml", "line": 12,   // line 0: the file itself could not be read
//	    "document": 2,                       // 1-based position among the file's documents
//	    "item": 0,                           // optional: 1-based position in a List's items
//	    "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
//	    "namespace": "default", "name": "web",
//	    "operation": "create",               // create | update ("" when not checked)
//	    "status": "rejected",                // accepted | rejected | notChecked | error
//	    "errors": [FieldError, ...],         // validation errors; [] when none
//	    "unknownFields": ["spec.x"],         // fields the API server drops
//	    "warnings": ["unknown field \"spec.x\""], // the API server's warnings (unknown fields, finalizer names)
//	    "error": "...",                      // optional: refused before validation, unreadable, or why not checked
//	    "message": "...",                    // optional: what kubectl prints for a rejection, without its final newline
//	    "object": {...}                      // optional, with -show-result: the object as it would be stored
//	  }],
//	  "summary": {"crds": 1, "crdsRejected": 0, "objects": 2, "accepted": 1,
//	              "rejected": 1, "notChecked": 0, "errors": 0, "warnings": 0}
//	}
//
// CRDs and objects are listed in the order of the files (directories are
// walked in lexical order) and of the documents in each file, whatever -j.
// A FieldError is {"type": "FieldValueInvalid", "field": "spec.x",
// "detail": "...", "message": "spec.x: Invalid value: ..."}, as in an API
// status cause.
//
// # CI output
//
// -o junit writes JUnit XML: a test suite per file, a test case per CRD
// and object (name "FILE:LINE: Kind ns/name (apiVersion)"), a failure for a
// rejection (message: the first line of kubectl's text; body: the whole
// text), an error for an unreadable document, skipped for an object not
// checked (a failure with -fail-unchecked).
//
// -o tap writes TAP version 13: one test point per CRD and object, "not
// ok" with a YAML diagnostic block (status, message, at) for a rejection
// or an unreadable document, "# SKIP" for an object not checked.
//
// -o github writes GitHub Actions workflow commands, so that errors appear
// on the lines of the pull request: "::error file=F,line=L,title=...::text"
// for every rejected or unreadable document (at its first line; the text is
// kubectl's, with %, CR and LF escaped as the syntax requires), a
// "::warning" per unknown field, then the summary.
//
// # Exit status
//
// 0 when every CRD and object is accepted (warnings and objects not checked
// allowed); 1 when a CRD or an object is rejected, or, with
// -fail-unchecked, an object was not checked; 2 for a usage error or an
// input that cannot be read: a file or directory, a document that is not
// YAML or JSON, an object without apiVersion or kind, a List item that is
// not an object (everything else is still checked and reported).
//
// # Memory
//
// Unless GOGC is set, crdcheck runs the garbage collector with a target
// of 70 instead of Go's 100: checking allocates much and keeps little,
// and this keeps the peak memory 3 to 4 MB lower (about kubeconform's on
// 2,000 HTTPRoutes) for about 10% more CPU time. GOGC=100 (or more)
// trades memory for speed.
//
// # upgrade
//
// crdcheck upgrade -from STORED -to NEW [OBJECTS...] reports, for every CRD
// of NEW that replaces the CRD of the same name in STORED (for instance
// kubectl get crd NAME -o yaml), whether the API server accepts the update
// (its errors), the stored-version hazards (a version of
// status.storedVersions removed, the storage version changed without
// conversion), the schema changes that can affect stored objects, and a
// verdict per stored object of OBJECTS (kubectl get -o yaml output): valid,
// ratcheted (invalid, but no-op, metadata-only and status updates still
// pass), blocked (one of them fails: the rule cannot ratchet), changed on
// read (fields pruned or defaulted when the new CRD reads it: named) or
// unreadable. The verdicts come from package upgrade, which runs the API
// server's pipeline. A stored object of a namespaced kind without a
// namespace is read as stored in "default". -o json writes them as JSON,
// in the check command's shape (file, line, document, item, status,
// errors, error); -o junit, tap and github as the check command does, with
// blocked, unreadable and field-losing objects and refused updates as
// failures, and hazards, schema changes and ratcheted objects as
// warnings. Exit status: 1 when an update is refused or an object is
// blocked, unreadable or loses fields on read; 2 for usage and input
// errors (a -from or -to path that does not exist is one, at once); 0
// otherwise.
//
// # schema
//
// crdcheck schema [-d DIR] [-strict] CRDS... writes the JSON Schema of every
// version of every CRD (package jsonschema) into DIR as
// KIND-GROUP-VERSION.json, for yaml-language-server and for kubeconform (a
// CRD the API server refuses is reported and not written: exit status 1;
// two different schemas for one file name: exit status 2):
//
//	kubeconform -schema-location 'DIR/{{ .ResourceKind }}-{{ .Group }}-{{ .ResourceAPIVersion }}.json' manifests/
package main
