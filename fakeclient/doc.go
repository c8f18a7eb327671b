// Package fakeclient is a controller-runtime client for tests that treats
// custom resources as the Kubernetes API server does.
//
// controller-runtime's fake client (sigs.k8s.io/controller-runtime/pkg/client/fake)
// stores whatever it is given: no OpenAPI validation, no defaults, no CEL
// rules, status written by main-resource updates unless the test remembers
// WithStatusSubresource. This client is built the same way, with the CRDs
// the cluster would have:
//
//	c, err := fakeclient.NewClientBuilder().
//		WithScheme(scheme).
//		WithCRDFiles("config/crd/bases").
//		WithObjects(existing...).
//		Build()
//
// WithCRDFiles reads files and folders as crdcheck -crds does, subfolders
// included, so that kubebuilder's config/crd can be given as it is; a path
// in which no CRD is found fails Build, as a client without its CRDs would
// validate nothing.
//
// Every CRD is first checked as the API server checks it when it is applied
// (crd.Validate of github.com/crdschema/crdschema/crd): a CRD the API
// server would refuse fails Build with a *CRDError carrying its errors. Each
// served version is compiled once (crd.New), on the first request that uses
// it.
//
// # Many clients
//
// A suite that builds a client per test can prepare its CRDs once and share
// them: BuildCRDSet reads and checks the CRDs and returns a CRDSet, safe
// for concurrent use, that WithCRDSet gives to each client; each version is
// then compiled once for all of them. The controller-runtime fake client
// that serves the other kinds, and its type machinery for the built-in
// kinds, is built when a test first uses one of those kinds.
//
//	var crds = sync.OnceValues(fakeclient.NewClientBuilder().WithCRDFiles("config/crd").BuildCRDSet)
//
//	func TestX(t *testing.T) {
//		set, err := crds()
//		...
//		c, err := fakeclient.NewClientBuilder().WithScheme(scheme).WithCRDSet(set).Build()
//
// # Custom resources
//
// For every kind a CRD serves, typed or unstructured (and
// PartialObjectMetadata for reads):
//
//   - Create, Update, Patch (JSON patch and merge patch; a strategic merge
//     patch is refused with the API server's 415), server-side apply
//     (Patch with client.Apply, and Apply) and the status and scale
//     subresources run the API server's request pipeline: unknown fields
//     pruned and reported as warnings (refused with fieldValidation=Strict),
//     nulls dropped, defaults applied, system fields set, the generation
//     bumped on changes other than metadata, the status ignored by
//     main-resource writes and everything but the status ignored by status
//     writes when the version has the status subresource, schema, metadata
//     and CEL validation, transition rules and ratcheting on updates. The
//     object passed is filled with the object as the server returns it.
//   - A refused write returns the API server's *apierrors.StatusError: the
//     same reason, code, causes and message (`Widget.example.com "a" is
//     invalid: ...`), so apierrors.IsInvalid and tests that match message
//     substrings behave as against a cluster. Nothing is stored.
//   - Server-side apply merges with the CRD's list types and map keys
//     (structured-merge-diff with a type converter built from the CRD's
//     published OpenAPI v3 schema) and records managedFields; conflicts
//     between managers are refused unless forced. Other writes record their
//     manager's fields too (operation Update), under the FieldOwner option or,
//     as the API server derives it from client-go's user agent, the
//     program's name.
//   - Get, List and Watch read objects as the API server reads them from
//     storage: pruned, defaulted and converted to the requested version. Objects
//     are stored in their storage version; a CRD with conversion strategy
//     None is read and written in any served version. List and Watch field
//     selectors support metadata.name, metadata.namespace (namespaced kinds)
//     and the version's selectableFields, and refuse others with the API
//     server's "field label not supported" error, unless an index for the
//     field was registered with WithIndex (which emulates a cache index).
//   - The REST mapper answers for the CRDs' kinds as client-go's discovery
//     mapper (restmapper.NewDiscoveryRESTMapper) answers over the API
//     server's discovery of the same CRDs: plurals, singulars and scopes,
//     versions preferred as discovery orders them (v1 before v1beta1), a
//     kind asked without a version mapped to its preferred version; short
//     names are expanded as kubectl expands them.
//   - Kinds of a CRD's group that no CRD serves, and versions no CRD serves,
//     are refused with a meta.NoKindMatchError, as the real client's REST
//     mapping refuses them.
//
// # Other kinds
//
// Kinds no CRD describes (built-in types, kinds registered only in the
// scheme, unstructured objects of other groups) are served by a
// controller-runtime fake client built from the same options, and behave
// exactly as in controller-runtime's fake client.
//
// # Concurrency
//
// A client is safe for concurrent use by many goroutines: writes of custom
// resources use the store's resourceVersion checks (a patch retries on a
// conflicting concurrent write, as the API server does), and each client
// has its own state.
//
// # Versions
//
// The package supports sigs.k8s.io/controller-runtime v0.22 to v0.25 (its
// go.mod requires v0.22.4 and k8s.io v0.34.1, so that adding it upgrades
// neither; CI tests each newer minor release). Status().Apply needs v0.23
// or later, WithGlobalResourceVersionCounter v0.25 or later.
//
// # Differences from a cluster
//
// Conversion webhooks are not called (reading a version other than the
// storage version of a CRD with conversion strategy Webhook fails);
// admission webhooks and validating admission policies are not run;
// resourceVersions are per object unless WithGlobalResourceVersionCounter
// is set (then the CRDs' objects and the other kinds each have a counter).
package fakeclient
