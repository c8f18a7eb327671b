package testserver

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
)

// crdCleanupFinalizer is the finalizer of a CRD whose custom resources are
// being deleted.
const crdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// namespaceFinalizer is the finalizer in a namespace's spec that the
// namespace controller removes once the namespace is empty.
const namespaceFinalizer = "kubernetes"

// immortalNamespaces may not be deleted (the NamespaceLifecycle admission
// plugin).
var immortalNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true}

// Delete deletes an object. A CRD and a namespace are not removed at once:
// as kube-apiserver's registries do, the first delete sets their
// deletionTimestamp (a CRD gets the cleanup finalizer and a Terminating
// condition, a namespace the Terminating phase), and the work of the
// controllers that finish them starts: the CRD finalizer of
// apiextensions-apiserver, and the content deletion of kube-controller-
// manager's namespace controller (which a test server has no other way to
// run). Objects with finalizers of their own hold the CRD or the namespace
// until the finalizers are removed.
func (p *pipelineREST) Delete(ctx context.Context, name string, deleteValidation rest.ValidateObjectFunc, options *metav1.DeleteOptions) (runtime.Object, bool, error) {
	k := p.version.kind
	s := k.server
	switch {
	case k == s.crds:
		return p.markForDeletion(ctx, name, deleteValidation, options, markCRD, func(u *unstructured.Unstructured) {
			go s.finalizeCRD(u.GetName())
		})
	case k == s.ns:
		if immortalNamespaces[name] {
			return nil, false, apierrors.NewForbidden(k.gr, name, fmt.Errorf("this namespace may not be deleted"))
		}
		return p.markForDeletion(ctx, name, deleteValidation, options, markNamespace, func(u *unstructured.Unstructured) {
			go s.finalizeNamespace(u.GetName())
		})
	}
	return p.Store.Delete(ctx, name, deleteValidation, options)
}

// markForDeletion is the first delete of a CRD or namespace: mark sets the
// deletionTimestamp and what goes with it; start starts the controller's
// work on the stored object. A later delete is the registry store's (it
// waits for the finalizers).
func (p *pipelineREST) markForDeletion(ctx context.Context, name string, deleteValidation rest.ValidateObjectFunc, options *metav1.DeleteOptions,
	mark func(u *unstructured.Unstructured), start func(u *unstructured.Unstructured)) (runtime.Object, bool, error) {
	obj, err := p.Store.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	cur, err := asUnstructured(obj)
	if err != nil {
		return nil, false, err
	}
	if cur.GetDeletionTimestamp() != nil {
		return p.Store.Delete(ctx, name, deleteValidation, options)
	}
	var pre *storage.Preconditions
	if options != nil && options.Preconditions != nil {
		pre = &storage.Preconditions{UID: options.Preconditions.UID, ResourceVersion: options.Preconditions.ResourceVersion}
	}
	update := func(in *unstructured.Unstructured) error {
		if deleteValidation != nil {
			if err := deleteValidation(ctx, in); err != nil {
				return err
			}
		}
		mark(in)
		return nil
	}
	if options != nil && len(options.DryRun) > 0 {
		if pre != nil {
			if err := pre.Check(name, cur); err != nil {
				return nil, false, err
			}
		}
		return cur, false, update(cur)
	}
	key, err := p.Store.KeyFunc(ctx, name)
	if err != nil {
		return nil, false, err
	}
	out := &unstructured.Unstructured{}
	err = p.version.kind.store.GuaranteedUpdate(ctx, key, out, false, pre, func(in runtime.Object, _ storage.ResponseMeta) (runtime.Object, *uint64, error) {
		u, err := asUnstructured(in)
		if err != nil {
			return nil, nil, err
		}
		return u, nil, update(u)
	}, nil)
	if err != nil {
		return nil, false, storageError(err, p, name)
	}
	start(out)
	return out, false, nil
}

// storageError turns an error of the memStore into the API server's.
func storageError(err error, p *pipelineREST, name string) error {
	switch {
	case storage.IsNotFound(err):
		return apierrors.NewNotFound(p.version.kind.gr, name)
	case storage.IsConflict(err), storage.IsInvalidObj(err):
		return apierrors.NewConflict(p.version.kind.gr, name, err)
	}
	return err
}

// markCRD is the CRD registry's first delete: a deletionTimestamp, the
// cleanup finalizer and the Terminating condition.
func markCRD(u *unstructured.Unstructured) {
	now := metav1.Now()
	u.SetDeletionTimestamp(&now)
	addFinalizer(u, crdCleanupFinalizer)
	setCondition(u, "Terminating", "True", "InstanceDeletionPending", "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon")
}

// markNamespace is the namespace registry's first delete: a
// deletionTimestamp and the Terminating phase.
func markNamespace(u *unstructured.Unstructured) {
	now := metav1.Now()
	u.SetDeletionTimestamp(&now)
	_ = unstructured.SetNestedField(u.Object, "Terminating", "status", "phase")
}

func addFinalizer(u *unstructured.Unstructured, f string) {
	fs := u.GetFinalizers()
	for _, x := range fs {
		if x == f {
			return
		}
	}
	u.SetFinalizers(append(fs, f))
}

func removeFinalizer(fs []string, f string) []string {
	var out []string
	for _, x := range fs {
		if x != f {
			out = append(out, x)
		}
	}
	return out
}

// setCondition sets a condition of a CRD's status, keeping its
// lastTransitionTime when its status does not change.
func setCondition(u *unstructured.Unstructured, typ, status, reason, message string) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	now := time.Now().UTC().Format(time.RFC3339)
	c := map[string]any{"type": typ, "status": status, "reason": reason, "message": message, "lastTransitionTime": now}
	found := false
	for i, x := range conds {
		if m, ok := x.(map[string]any); ok && m["type"] == typ {
			if m["status"] == status && m["lastTransitionTime"] != nil {
				c["lastTransitionTime"] = m["lastTransitionTime"]
			}
			conds[i] = c
			found = true
		}
	}
	if !found {
		conds = append(conds, c)
	}
	_ = unstructured.SetNestedSlice(u.Object, conds, "status", "conditions")
}

// finalizeCRD is apiextensions-apiserver's CRD finalizer: it deletes the
// custom resources of a CRD marked for deletion (through the registry, so
// that their own finalizers hold them), waits until none is left, removes
// the cleanup finalizer and, with no finalizer left, deletes the CRD.
func (s *Server) finalizeCRD(name string) {
	ctx := s.ctx
	key := "/" + crdGR.Group + "/" + crdGR.Resource + "/" + name
	update := func(f func(u *unstructured.Unstructured)) (*unstructured.Unstructured, error) {
		out := &unstructured.Unstructured{}
		err := s.crds.store.GuaranteedUpdate(ctx, key, out, false, nil, func(in runtime.Object, _ storage.ResponseMeta) (runtime.Object, *uint64, error) {
			u, err := asUnstructured(in)
			if err != nil {
				return nil, nil, err
			}
			f(u)
			return u, nil, nil
		}, nil)
		return out, err
	}
	u, err := update(func(u *unstructured.Unstructured) {
		setCondition(u, "Terminating", "True", "InstanceDeletionInProgress", "CustomResource deletion is in progress")
	})
	if err != nil {
		return
	}
	s.mu.RLock()
	k := s.crdKinds[name]
	s.mu.RUnlock()
	reason, message := "NeverEstablished", "resource was never established"
	if established(u.Object) && k != nil {
		if err := s.deleteAll(ctx, k, ""); err != nil {
			_, _ = update(func(u *unstructured.Unstructured) {
				setCondition(u, "Terminating", "True", "InstanceDeletionFailed", fmt.Sprintf("could not issue all deletes: %v", err))
			})
			return
		}
		if !s.waitEmpty(ctx, k, "") {
			return
		}
		reason, message = "InstanceDeletionCompleted", "removed all instances"
	}
	u, err = update(func(u *unstructured.Unstructured) {
		setCondition(u, "Terminating", "False", reason, message)
		u.SetFinalizers(removeFinalizer(u.GetFinalizers(), crdCleanupFinalizer))
	})
	if err != nil || len(u.GetFinalizers()) > 0 {
		return
	}
	gone := &unstructured.Unstructured{}
	if err := s.crds.store.Delete(ctx, key, gone, nil, func(context.Context, runtime.Object) error { return nil }, nil, storage.DeleteOptions{}); err == nil {
		s.crdDeleted(gone)
	}
}

// finalizeNamespace is the namespace controller's work on a namespace
// marked for deletion: it deletes every object in it (through the registry,
// so that their finalizers hold them), waits until none is left, removes
// the namespace's finalizer and, with no finalizer left, deletes it.
func (s *Server) finalizeNamespace(name string) {
	ctx := s.ctx
	s.mu.RLock()
	var kinds []*resourceKind
	for _, k := range s.kinds {
		if k.namespaced {
			kinds = append(kinds, k)
		}
	}
	s.mu.RUnlock()
	for _, k := range kinds {
		if err := s.deleteAll(ctx, k, name); err != nil {
			return
		}
	}
	key := "//namespaces/" + name
	// Until the namespace is empty: its conditions say what remains, as
	// the namespace controller's do.
	for {
		ch := s.revs.changed()
		remaining, finalizers := map[string]int{}, map[string]int{}
		for _, k := range kinds {
			for _, o := range objectsIn(k, name) {
				remaining[k.gr.Resource+"."+k.gr.Group]++
				for _, f := range o.GetFinalizers() {
					finalizers[f]++
				}
			}
		}
		if err := s.setNamespaceConditions(ctx, key, remaining, finalizers); err != nil {
			return
		}
		if len(remaining) == 0 {
			break
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
	out := &unstructured.Unstructured{}
	err := s.ns.store.GuaranteedUpdate(ctx, key, out, false, nil, func(in runtime.Object, _ storage.ResponseMeta) (runtime.Object, *uint64, error) {
		u, err := asUnstructured(in)
		if err != nil {
			return nil, nil, err
		}
		fs, _, _ := unstructured.NestedStringSlice(u.Object, "spec", "finalizers")
		if fs = removeFinalizer(fs, namespaceFinalizer); len(fs) == 0 {
			unstructured.RemoveNestedField(u.Object, "spec", "finalizers")
		} else {
			_ = unstructured.SetNestedStringSlice(u.Object, fs, "spec", "finalizers")
		}
		return u, nil, nil
	}, nil)
	if err != nil {
		return
	}
	if fs, _, _ := unstructured.NestedStringSlice(out.Object, "spec", "finalizers"); len(fs) > 0 || len(out.GetFinalizers()) > 0 {
		return
	}
	_ = s.ns.store.Delete(ctx, key, &unstructured.Unstructured{}, nil, func(context.Context, runtime.Object) error { return nil }, nil, storage.DeleteOptions{})
}

// setNamespaceConditions sets the conditions the namespace controller
// keeps on a namespace being deleted: the content remaining and the
// finalizers holding it, and the "ok" variants of the others.
func (s *Server) setNamespaceConditions(ctx context.Context, key string, remaining, finalizers map[string]int) error {
	type cond struct{ typ, status, reason, message string }
	conds := []cond{
		{"NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered", "All resources successfully discovered"},
		{"NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions", "All legacy kube types successfully parsed"},
		{"NamespaceDeletionContentFailure", "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"},
		{"NamespaceContentRemaining", "False", "ContentRemoved", "All content successfully removed"},
		{"NamespaceFinalizersRemaining", "False", "ContentHasNoFinalizers", "All content-preserving finalizers finished"},
	}
	counts := func(m map[string]int, format string) string {
		var parts []string
		for name, n := range m {
			parts = append(parts, fmt.Sprintf(format, name, n))
		}
		sort.Strings(parts)
		return strings.Join(parts, ", ")
	}
	if len(remaining) > 0 {
		conds[3] = cond{"NamespaceContentRemaining", "True", "SomeResourcesRemain", "Some resources are remaining: " + counts(remaining, "%s has %d resource instances")}
	}
	if len(finalizers) > 0 {
		conds[4] = cond{"NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: " + counts(finalizers, "%s in %d resource instances")}
	}
	return s.ns.store.GuaranteedUpdate(ctx, key, &unstructured.Unstructured{}, false, nil, func(in runtime.Object, _ storage.ResponseMeta) (runtime.Object, *uint64, error) {
		u, err := asUnstructured(in)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range conds {
			setCondition(u, c.typ, c.status, c.reason, c.message)
		}
		return u, nil, nil
	}, nil)
}

// deleteAll deletes the objects of a kind in a namespace ("": all) through
// its registry store.
func (s *Server) deleteAll(ctx context.Context, k *resourceKind, namespace string) error {
	v := k.versions[k.storageVersion]
	if v == nil && len(k.order) > 0 {
		v = k.versions[k.order[0]]
	}
	if v == nil {
		return nil
	}
	sv, err := v.serve(false)
	if err != nil {
		return err
	}
	spaces := map[string]bool{}
	for _, key := range k.store.keys() {
		if ns := namespaceOfKey(k, key); namespace == "" || ns == namespace {
			spaces[ns] = true
		}
	}
	for ns := range spaces {
		nctx := request.WithNamespace(request.WithUser(ctx, admin), ns)
		if _, err := sv.rest.Store.DeleteCollection(nctx, rest.ValidateAllObjectFunc, &metav1.DeleteOptions{}, nil); err != nil {
			return err
		}
	}
	return nil
}

// namespaceOfKey is the namespace of a stored object's key.
func namespaceOfKey(k *resourceKind, key string) string {
	if !k.namespaced {
		return ""
	}
	rest := strings.TrimPrefix(key, "/"+k.gr.Group+"/"+k.gr.Resource+"/")
	ns, _, _ := strings.Cut(rest, "/")
	return ns
}

// waitEmpty waits until a kind has no object in a namespace ("": at all);
// it returns false when the server stops first.
func (s *Server) waitEmpty(ctx context.Context, k *resourceKind, namespace string) bool {
	for {
		ch := s.revs.changed()
		if len(objectsIn(k, namespace)) == 0 {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// objectsIn returns the objects of a kind in a namespace ("": all).
func objectsIn(k *resourceKind, namespace string) []*unstructured.Unstructured {
	k.store.mu.RLock()
	defer k.store.mu.RUnlock()
	var out []*unstructured.Unstructured
	for key, o := range k.store.objs {
		if namespace == "" || namespaceOfKey(k, key) == namespace {
			out = append(out, o)
		}
	}
	return out
}
