package testserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/kubeapi"
	"github.com/crdschema/crdschema/printer"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/uuid"
)

var (
	crdGR = schema.GroupResource{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}
	crdGK = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}
)

// installCRDResource serves customresourcedefinitions: a CRD is validated by
// crdschema as the API server validates it, stored with its defaults and
// status, and its kind served once its names are accepted.
func (s *Server) installCRDResource() {
	k := &resourceKind{
		gr:             crdGR,
		singular:       "customresourcedefinition",
		kind:           "CustomResourceDefinition",
		listKind:       "CustomResourceDefinitionList",
		shortNames:     []string{"crd", "crds"},
		categories:     []string{"api-extensions"},
		storageVersion: "v1",
		server:         s,
		versions:       map[string]*servedVersion{},
		order:          []string{"v1"},
	}
	k.store = newMemStore(s.revs, newObject(k, "v1"), s.history, s.bookmark)
	k.versions["v1"] = &servedVersion{
		kind: k, gvk: crdGK.WithVersion("v1"), fields: printer.NewFields(nil, false), status: true,
		columns: []crdschema.CustomResourceColumnDefinition{{Name: "Created At", Type: "date", JSONPath: ".metadata.creationTimestamp"}},
	}
	k.admitCreate = s.admitCRD
	k.admitUpdate = s.admitCRDUpdate
	k.afterWrite = s.crdWritten
	k.afterDelete = s.crdDeleted
	s.crds = k
	s.kinds[k.gr] = k
}

func newObject(k *resourceKind, version string) func() runtime.Object {
	return func() runtime.Object {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(schema.GroupVersionKind{Group: k.gr.Group, Version: version, Kind: k.kind})
		return u
	}
}

// toCRD decodes an unstructured CRD.
func toCRD(u map[string]any) (*crdschema.CustomResourceDefinition, error) {
	data, err := json.Marshal(u)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	def, err := unmarshalCRD(data)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return def, nil
}

// fromCRD encodes a CRD as an unstructured object.
func fromCRD(def *crdschema.CustomResourceDefinition) (map[string]any, error) {
	data, err := json.Marshal(def)
	if err != nil {
		return nil, err
	}
	return decodeObject(data)
}

// admitCRD validates a CRD to create and returns it as it is stored: with
// the API server's defaults and a status whose names are accepted (or
// refused, as the naming controller refuses names another CRD of the group
// uses) and which is established when they are.
func (s *Server) admitCRD(ctx context.Context, u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	def, err := toCRD(u.Object)
	if err != nil {
		return nil, err
	}
	return s.admitCRDDefinition(ctx, def, nil, false)
}

// admitCRDDefinition is admitCRD of a decoded CRD. A CRD given to Start is
// validated as given: a round trip through an unstructured object would
// turn a default of 13.0 into 13, which validation tells apart. A CRD read
// from a file (cached non-nil) is validated once per process and release;
// validated tells that the caller has validated def.
func (s *Server) admitCRDDefinition(ctx context.Context, def *crdschema.CustomResourceDefinition, cached *cachedCRD, validated bool) (*unstructured.Unstructured, error) {
	if !validated && !cached.validated(s.kubernetesVersion) {
		if errs := validateCRD(ctx, def, s.kubernetesVersion, s.cache); len(errs) > 0 {
			return nil, kubeapi.InvalidError(crdGK, def.Name, errs)
		}
		cached.markValid(s.kubernetesVersion)
	}
	stored := crd.Defaulted(def)
	var m map[string]any
	var err error
	if cached != nil {
		m, err = cached.storedObject()
	} else {
		m, err = fromCRD(stored)
	}
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	m["apiVersion"] = "apiextensions.k8s.io/v1"
	m["kind"] = "CustomResourceDefinition"
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	md["generation"] = int64(1)
	if md["uid"] == nil {
		md["uid"] = string(uuid.NewUUID())
	}
	if md["creationTimestamp"] == nil {
		md["creationTimestamp"] = time.Now().UTC().Format(time.RFC3339)
	}
	m["status"] = s.crdStatus(stored, nil)
	return &unstructured.Unstructured{Object: m}, nil
}

func (s *Server) admitCRDUpdate(ctx context.Context, u, old *unstructured.Unstructured, status bool) (*unstructured.Unstructured, error) {
	oldDef, err := toCRD(old.Object)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if status {
		// A status write keeps the spec. The metadata is the request's: the
		// CRD status strategy resets it from itself, which changes nothing
		// (ResetObjectMetaForStatus(&new, &new) in apiextensions-apiserver),
		// so that a status update can remove finalizers, as the CRD
		// finalizer does; the fields the registry keeps are kept.
		m := deepCopyMap(u.Object)
		m["spec"] = deepCopyValue(old.Object["spec"])
		md, _ := m["metadata"].(map[string]any)
		omd, _ := old.Object["metadata"].(map[string]any)
		if md != nil && omd != nil {
			for _, f := range []string{"uid", "creationTimestamp", "deletionTimestamp", "generation"} {
				if v, ok := omd[f]; ok {
					md[f] = v
				} else {
					delete(md, f)
				}
			}
		}
		return &unstructured.Unstructured{Object: m}, nil
	}
	def, err := toCRD(u.Object)
	if err != nil {
		return nil, err
	}
	if errs := validateCRDUpdate(ctx, def, oldDef, s.kubernetesVersion, s.cache); len(errs) > 0 {
		return nil, kubeapi.InvalidError(crdGK, def.Name, errs)
	}
	stored := crd.Defaulted(def)
	m, err := fromCRD(stored)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	m["status"] = s.crdStatus(stored, old.Object["status"])
	md, _ := m["metadata"].(map[string]any)
	omd, _ := old.Object["metadata"].(map[string]any)
	if md != nil && omd != nil {
		gen, _ := omd["generation"].(int64)
		if !equalJSON(m["spec"], old.Object["spec"]) {
			gen++
		}
		md["generation"] = gen
		for _, f := range []string{"uid", "creationTimestamp", "deletionTimestamp"} {
			if v, ok := omd[f]; ok {
				md[f] = v
			}
		}
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// crdStatus returns the status of a CRD as the naming controller and the
// establishing controller leave it.
func (s *Server) crdStatus(def *crdschema.CustomResourceDefinition, old any) map[string]any {
	now := time.Now().UTC().Format(time.RFC3339)
	names := def.Spec.Names
	// The naming controller's checks, in its order; the last failing one
	// gives the condition's reason and message.
	resources, kinds := map[string]bool{}, map[string]bool{}
	s.mu.RLock()
	for name, other := range s.crdKinds {
		if name == def.Name || other.gr.Group != def.Spec.Group {
			continue
		}
		resources[other.gr.Resource] = true
		resources[other.singular] = true
		for _, sn := range other.shortNames {
			resources[sn] = true
		}
		kinds[other.kind] = true
		kinds[other.listKind] = true
	}
	s.mu.RUnlock()
	var conflict, reason, message string
	accepted := names
	if resources[names.Plural] {
		conflict, reason, accepted.Plural = names.Plural, "PluralConflict", ""
	}
	if resources[names.Singular] {
		conflict, reason, accepted.Singular = names.Singular, "SingularConflict", ""
	}
	var inUse []string
	for _, sn := range names.ShortNames {
		if resources[sn] {
			inUse = append(inUse, fmt.Sprintf("%q is already in use", sn))
		}
	}
	if len(inUse) > 0 {
		conflict, reason, accepted.ShortNames = "", "ShortNamesConflict", nil
		message = inUse[0]
		if len(inUse) > 1 {
			message = "[" + strings.Join(inUse, ", ") + "]"
		}
	}
	if kinds[names.Kind] {
		conflict, reason, accepted.Kind = names.Kind, "KindConflict", ""
	}
	if kinds[names.ListKind] {
		conflict, reason, accepted.ListKind = names.ListKind, "ListKindConflict", ""
	}
	stored := []any{}
	if st, ok := old.(map[string]any); ok {
		if sv, ok := st["storedVersions"].([]any); ok {
			stored = sv
		}
	}
	if sv := def.StorageVersion(); sv != nil {
		have := false
		for _, v := range stored {
			have = have || v == sv.Name
		}
		if !have {
			stored = append(stored, sv.Name)
		}
	}
	acceptedNames, _ := fromNames(accepted)
	var conds []any
	if conflict != "" {
		message = fmt.Sprintf("%q is already in use", conflict)
	}
	if reason == "" {
		conds = []any{
			map[string]any{"type": "NamesAccepted", "status": "True", "lastTransitionTime": now, "reason": "NoConflicts", "message": "no conflicts found"},
			map[string]any{"type": "Established", "status": "True", "lastTransitionTime": now, "reason": "InitialNamesAccepted", "message": "the initial names have been accepted"},
		}
	} else {
		conds = []any{
			map[string]any{"type": "NamesAccepted", "status": "False", "lastTransitionTime": now, "reason": reason, "message": message},
			map[string]any{"type": "Established", "status": "False", "lastTransitionTime": now, "reason": "NotAccepted", "message": "not all names are accepted"},
		}
	}
	return map[string]any{"conditions": conds, "acceptedNames": acceptedNames, "storedVersions": stored}
}

func fromNames(n crdschema.CustomResourceDefinitionNames) (map[string]any, error) {
	data, err := json.Marshal(n)
	if err != nil {
		return nil, err
	}
	return decodeObject(data)
}

// established tells whether a stored CRD's names are accepted.
func established(u map[string]any) bool {
	st, _ := u["status"].(map[string]any)
	conds, _ := st["conditions"].([]any)
	for _, c := range conds {
		if cm, ok := c.(map[string]any); ok && cm["type"] == "Established" {
			return cm["status"] == "True"
		}
	}
	return false
}

// crdWritten serves (again) the kind of a CRD just stored.
func (s *Server) crdWritten(u *unstructured.Unstructured) {
	if !established(u.Object) {
		return
	}
	def, err := toCRD(u.Object)
	if err != nil {
		return
	}
	_ = s.serveCRD(def)
}

// crdDeleted stops serving the kind of a deleted CRD and drops its objects.
func (s *Server) crdDeleted(u *unstructured.Unstructured) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := s.crdKinds[u.GetName()]; k != nil {
		delete(s.crdKinds, u.GetName())
		if s.kinds[k.gr] == k {
			delete(s.kinds, k.gr)
		}
	}
}

// serveCRD builds the kind of a CRD and serves it, keeping the objects of
// the kind it replaces.
func (s *Server) serveCRD(def *crdschema.CustomResourceDefinition) error {
	def = crd.Defaulted(def)
	k := &resourceKind{
		gr:         schema.GroupResource{Group: def.Spec.Group, Resource: def.Spec.Names.Plural},
		singular:   def.Spec.Names.Singular,
		kind:       def.Spec.Names.Kind,
		listKind:   def.Spec.Names.ListKind,
		namespaced: def.Spec.Scope == "Namespaced",
		shortNames: def.Spec.Names.ShortNames,
		categories: def.Spec.Names.Categories,
		def:        def,
		server:     s,
		versions:   map[string]*servedVersion{},
	}
	if sv := def.StorageVersion(); sv != nil {
		k.storageVersion = sv.Name
	} else {
		return fmt.Errorf("CRD %q has no storage version", def.Name)
	}
	for i := range def.Spec.Versions {
		dv := &def.Spec.Versions[i]
		if !dv.Served {
			continue
		}
		v := &servedVersion{
			kind:   k,
			gvk:    schema.GroupVersionKind{Group: def.Spec.Group, Version: dv.Name, Kind: k.kind},
			fields: printer.NewFields(dv.SelectableFields, k.namespaced),
		}
		if dv.Subresources != nil {
			v.status = dv.Subresources.Status != nil
			v.scale = dv.Subresources.Scale
		}
		v.columns = dv.AdditionalPrinterColumns
		if dv.Deprecated {
			if dv.DeprecationWarning != nil {
				v.warning = *dv.DeprecationWarning
			} else {
				v.warning = fmt.Sprintf("%s/%s %s is deprecated", def.Spec.Group, dv.Name, k.kind)
			}
		}
		k.versions[dv.Name] = v
		k.order = append(k.order, dv.Name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev := s.crdKinds[def.Name]; prev != nil && prev.gr == k.gr {
		k.store = prev.store
	} else if other := s.kinds[k.gr]; other != nil {
		return fmt.Errorf("CRD %q: resource %s is already served", def.Name, k.gr)
	} else {
		k.store = newMemStore(s.revs, newObject(k, k.storageVersion), s.history, s.bookmark)
	}
	s.crdKinds[def.Name] = k
	s.kinds[k.gr] = k
	return nil
}

// createCRD creates a CRD given at start, as a POST would.
func (s *Server) createCRD(ctx context.Context, d sourcedCRD) error {
	def := d.def
	if len(d.errs) > 0 {
		return kubeapi.InvalidError(crdGK, def.Name, d.errs)
	}
	u, err := s.admitCRDDefinition(ctx, def, d.cached, d.checked)
	if err != nil {
		return err
	}
	if !established(u.Object) {
		return fmt.Errorf("CRD %q: its names are in use by another CRD", def.Name)
	}
	if s.crdKinds[def.Name] != nil {
		return fmt.Errorf("CRD %q is given twice", def.Name)
	}
	if err := s.serveCRD(def); err != nil {
		return err
	}
	u.SetUID(types.UID(uuid.NewUUID()))
	return s.crds.store.Create(ctx, "/"+crdGR.Group+"/"+crdGR.Resource+"/"+def.Name, u, nil, 0)
}
