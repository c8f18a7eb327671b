package testserver

import (
	"context"
	"encoding/base64"

	"github.com/crdschema/crdschema/printer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/apiserver/pkg/registry/rest"
)

// builtin describes a built-in kind the server stores as given.
type builtin struct {
	group, version, resource, singular, kind string
	namespaced                               bool
	shortNames                               []string
	status                                   bool
	prepare                                  func(runtime.Object)
}

// builtins are the built-in kinds a controller's test touches.
var builtins = []builtin{
	{version: "v1", resource: "namespaces", singular: "namespace", kind: "Namespace", shortNames: []string{"ns"}, status: true, prepare: prepareNamespace},
	{version: "v1", resource: "configmaps", singular: "configmap", kind: "ConfigMap", namespaced: true, shortNames: []string{"cm"}},
	{version: "v1", resource: "secrets", singular: "secret", kind: "Secret", namespaced: true, prepare: prepareSecret},
	{version: "v1", resource: "serviceaccounts", singular: "serviceaccount", kind: "ServiceAccount", namespaced: true, shortNames: []string{"sa"}},
	{version: "v1", resource: "events", singular: "event", kind: "Event", namespaced: true, shortNames: []string{"ev"}},
	{group: "events.k8s.io", version: "v1", resource: "events", singular: "event", kind: "Event", namespaced: true, shortNames: []string{"ev"}},
	{group: "coordination.k8s.io", version: "v1", resource: "leases", singular: "lease", kind: "Lease", namespaced: true},
}

// initialNamespaces exist when the server starts, as in a new cluster.
var initialNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

func (s *Server) installBuiltins() {
	for _, b := range builtins {
		gr := schema.GroupResource{Group: b.group, Resource: b.resource}
		k := &resourceKind{
			gr:               gr,
			singular:         b.singular,
			kind:             b.kind,
			listKind:         b.kind + "List",
			namespaced:       b.namespaced,
			shortNames:       b.shortNames,
			storageVersion:   b.version,
			server:           s,
			versions:         map[string]*servedVersion{},
			order:            []string{b.version},
			tableConvertor:   rest.NewDefaultTableConvertor(gr),
			prepareForCreate: b.prepare,
		}
		k.store = newMemStore(s.revs, newObject(k, b.version), s.history, s.bookmark)
		k.versions[b.version] = &servedVersion{
			kind:   k,
			gvk:    schema.GroupVersionKind{Group: b.group, Version: b.version, Kind: b.kind},
			fields: printer.NewFields(nil, b.namespaced),
			status: b.status,
		}
		s.kinds[gr] = k
		if b.resource == "namespaces" {
			s.ns = k
		}
	}
	s.installCRDResource()
	for _, name := range initialNamespaces {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("v1")
		u.SetKind("Namespace")
		u.SetName(name)
		u.SetUID(types.UID(uuid.NewUUID()))
		u.SetCreationTimestamp(metav1.Now())
		u.SetLabels(map[string]string{"kubernetes.io/metadata.name": name})
		prepareNamespace(u)
		_ = s.ns.store.Create(context.Background(), "//namespaces/"+name, u, &unstructured.Unstructured{}, 0)
	}
}

// prepareNamespace sets a new namespace's finalizer, phase and name label.
func prepareNamespace(obj runtime.Object) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return
	}
	_ = unstructured.SetNestedStringSlice(u.Object, []string{"kubernetes"}, "spec", "finalizers")
	_ = unstructured.SetNestedField(u.Object, "Active", "status", "phase")
	l := u.GetLabels()
	if l == nil {
		l = map[string]string{}
	}
	l["kubernetes.io/metadata.name"] = u.GetName()
	u.SetLabels(l)
}

// prepareSecret moves stringData into data and defaults the type, as the
// API server does.
func prepareSecret(obj runtime.Object) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return
	}
	if sd, ok := u.Object["stringData"].(map[string]any); ok {
		data, _ := u.Object["data"].(map[string]any)
		if data == nil {
			data = map[string]any{}
		}
		for k, v := range sd {
			if s, ok := v.(string); ok {
				data[k] = base64.StdEncoding.EncodeToString([]byte(s))
			}
		}
		u.Object["data"] = data
		delete(u.Object, "stringData")
	}
	if t, _ := u.Object["type"].(string); t == "" {
		u.Object["type"] = "Opaque"
	}
}
