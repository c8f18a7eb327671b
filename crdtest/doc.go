// Package crdtest runs YAML test suites of CustomResourceDefinitions through
// the API server's request pipeline of package crd, in-process: each case
// creates or updates an object and checks the error the API server answers
// with, or the object it stores. A suite runs in milliseconds, without a
// kube-apiserver, etcd or envtest.
//
//	func TestCRDs(t *testing.T) {
//		crdtest.Run(t, "testdata") // every *.testsuite.yaml below testdata
//	}
//
// Run makes one subtest per suite file, CRD variant, kind of case and case;
// a failure shows the missing error text, or the fields in which the
// expected and the stored object differ. RunFiles does the same for a
// command line tool and writes a report.
//
// # The suite format
//
// The format is the one of openshift/api, whose suites (files
// <group>/<version>/tests/<crd name>/<feature gate>.yaml) run unmodified,
// with the semantics of that project's runner (its tests/ folder):
//
//	name: Infrastructure             # a name for the suite
//	crdName: infrastructures.config.openshift.io   # metadata.name of the CRD
//	featureGates: [Gate, -OtherGate] # optional: which CRD variants (below)
//	version: v1                      # optional: the version under test
//	tests:
//	  onCreate:
//	  - name: Should be able to create a minimal Infrastructure
//	    initial: |                   # the object to create, as YAML
//	      apiVersion: config.openshift.io/v1
//	      kind: Infrastructure
//	      spec: {}
//	    expected: |                  # the object as stored; or:
//	      apiVersion: config.openshift.io/v1
//	      kind: Infrastructure
//	      spec: {}
//	    expectedError: "..."         # a substring of the API server's error
//	  onUpdate:
//	  - name: ...
//	    initialCRDPatches:           # optional: JSON patch (RFC 6902) of the CRD
//	    - op: remove                 # for creating initial (ratcheting tests)
//	      path: /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/maxLength
//	    initial: |                   # created first (its status written after)
//	      ...
//	    updated: |                   # the update (its status written after)
//	      ...
//	    expected: |                  # the object as stored in the end; or:
//	    expectedError: "..."         # a substring of the update's error
//	    expectedStatusError: "..."   # a substring of the status update's error
//
// Fields the format does not know are ignored, as openshift/api's runner
// ignores them, and reported as warnings: a misspelt field (featureGate for
// featureGates) silently changes what runs.
//
// The CRD: a suite's crdName is looked up among the CRD manifests of the
// directories WithCRDs names; without it, in <group>/<version>/
// zz_generated.crd-manifests for a suite in openshift/api's layout, else in
// the suite's own directory. Every manifest of that name is a variant the
// suite runs against, unless featureGates selects among them: a manifest
// of the CustomNoUpgrade feature set is kept unless a gate must be disabled
// ("-Gate"); a manifest with cluster-profile annotations
// (include.release.openshift.io/...) is kept when the FeatureGate manifest
// of its first cluster profile, feature set and major version (found in
// the nearest payload-manifests/featuregates above the suite, or in the
// directory WithFeatureGates names) enables every gate named and disables
// every gate named with "-"; a manifest without those annotations is kept.
// Each variant is installed with the suite's version alone, served and
// stored (version may be left out when every variant has one version), and
// must be a CRD the API server accepts (crd.Validate): a refused CRD fails
// its cases with the API server's error.
//
// Objects: initial, updated and expected are YAML read as Kubernetes
// clients read it (YAML 1.1; a number written 1.0 is the integer 1). Every
// object gets metadata.generateName "test-" and metadata.namespace
// "default" (cleared for cluster-scoped resources); generated names end in
// "b2c4d" and uids are fixed, so messages are reproducible.
//
// An onCreate case creates initial. With expectedError, the request must
// fail and its error contain that text; otherwise it must succeed, and the
// object read back must equal expected.
//
// An onUpdate case runs openshift/api's sequence:
//  1. with initialCRDPatches, the CRD manifest (all its versions) is
//     patched, gets a root property "sentinel" (a string with one allowed
//     value, which initial carries), and must be accepted as an update of
//     the installed CRD;
//  2. initial is created (it must succeed); if it has a status, the status
//     is written through the status subresource (it must succeed);
//  3. with initialCRDPatches, the CRD is restored and the object updated
//     once unchanged (it must succeed: ratcheting lets through what the
//     patched CRD allowed);
//  4. updated is sent as an update of the main resource, with the stored
//     object's name, namespace and resourceVersion. With expectedError, it
//     must fail with that text, and the case ends; otherwise it must succeed;
//  5. if updated has a status, it is written through the status
//     subresource. With expectedStatusError, it must fail with that text, and
//     the case ends; otherwise it must succeed;
//  6. the object read back must equal expected.
//
// Errors are matched as substrings of the API server's whole message, as a
// Kubernetes client prints it: for an invalid object,
// `<Kind>.<group> "<name>" is invalid: <errors>`, the errors being one
// field error alone or several as "[e1, e2]" (each distinct text once), as
// k8s.io/apimachinery's errors.NewInvalid writes them; for a request
// refused before validation, the status message. The texts are those of
// the release package crd reproduces (Kubernetes 1.37): suites written
// against an older API server may expect older texts (README.md lists the
// differences met in openshift/api's suites).
//
// Objects are compared as openshift/api's runner compares them
// (controller-runtime's komega.EqualObject with IgnoreAutogeneratedMetadata):
// expected takes the stored object's name and namespace; metadata.uid,
// generation, creationTimestamp, resourceVersion, managedFields,
// deletionGracePeriodSeconds, deletionTimestamp, selfLink and generateName
// are ignored; everything else must be equal, the types of numbers
// included.
//
// Bad input fails with an error that names the file and the case: a suite
// that is not YAML or lacks crdName, a CRD that cannot be found or has not
// the version, an initial, updated or expected that is not a YAML object,
// an object whose apiVersion and kind the CRD does not serve.
package crdtest
