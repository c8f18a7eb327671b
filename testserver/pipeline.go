package testserver

import (
	"context"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
)

// pipelineREST is the registry store of one version of a kind, with
// crdschema's pipeline in front of its writes: the object the handlers
// decoded (and patched, and gave managedFields) is pruned, defaulted,
// prepared and validated as the API server of the chosen release does, and
// the store keeps the result. A built-in kind's objects pass unchanged.
type pipelineREST struct {
	*genericregistry.Store
	version *servedVersion
	status  bool
}

func (p *pipelineREST) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, options *metav1.CreateOptions) (runtime.Object, error) {
	if err := p.version.kind.server.checkNamespace(ctx, p.version.kind, nameOfObject(obj)); err != nil {
		return nil, err
	}
	if p.version.res != nil {
		u, err := asUnstructured(obj)
		if err != nil {
			return nil, err
		}
		k := p.version.kind
		out, err := runRequest(k.gr, k.gk(), u.GetName(), options.FieldValidation, createObject(ctx, p.version.res, u.Object, true, slices.Contains(options.DryRun, metav1.DryRunAll)))
		if err != nil {
			return nil, err
		}
		obj = &unstructured.Unstructured{Object: out.object}
		defer addWarnings(ctx, out.warnings)
	} else if k := p.version.kind; k.admitCreate != nil {
		u, err := asUnstructured(obj)
		if err != nil {
			return nil, err
		}
		if obj, err = k.admitCreate(ctx, u); err != nil {
			return nil, err
		}
	}
	return p.Store.Create(ctx, obj, createValidation, options)
}

func addWarnings(ctx context.Context, ws []string) {
	for _, w := range ws {
		warning.AddWarning(ctx, "", w)
	}
}

func (p *pipelineREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc,
	updateValidation rest.ValidateObjectUpdateFunc, forceAllowCreate bool, options *metav1.UpdateOptions) (runtime.Object, bool, error) {
	if p.version.res == nil && p.version.kind.admitUpdate == nil {
		return p.Store.Update(ctx, name, objInfo, createValidation, updateValidation, forceAllowCreate, options)
	}
	info := &pipelineInfo{UpdatedObjectInfo: objInfo, p: p, create: forceAllowCreate, dryRun: slices.Contains(options.DryRun, metav1.DryRunAll), fieldValidation: options.FieldValidation}
	out, created, err := p.Store.Update(ctx, name, info, createValidation, updateValidation, forceAllowCreate, options)
	if err == nil {
		addWarnings(ctx, info.warnings)
	}
	return out, created, err
}

// pipelineInfo runs the pipeline on the object an update or patch gives,
// over the stored object (or as a create, for an apply that creates).
type pipelineInfo struct {
	rest.UpdatedObjectInfo
	p               *pipelineREST
	create          bool
	dryRun          bool
	fieldValidation string
	warnings        []string
}

func (i *pipelineInfo) UpdatedObject(ctx context.Context, oldObj runtime.Object) (runtime.Object, error) {
	newObj, err := i.UpdatedObjectInfo.UpdatedObject(ctx, oldObj)
	if err != nil {
		return nil, err
	}
	u, err := asUnstructured(newObj)
	if err != nil {
		return nil, err
	}
	old, err := asUnstructured(oldObj)
	if err != nil {
		return nil, err
	}
	v := i.p.version
	k := v.kind
	var out *outcome
	if old.Object == nil || old.GetResourceVersion() == "" {
		if !i.create || i.p.status {
			return newObj, nil // the registry store answers 404
		}
		if err := k.server.checkNamespace(ctx, k, u.GetName()); err != nil {
			return nil, err
		}
		if v.res == nil {
			return k.admitCreate(ctx, u)
		}
		out, err = runRequest(k.gr, k.gk(), u.GetName(), i.fieldValidation, createObject(ctx, v.res, u.Object, false, i.dryRun))
	} else {
		if v.res == nil {
			return k.admitUpdate(ctx, u, old, i.p.status)
		}
		out, err = runRequest(k.gr, k.gk(), old.GetName(), i.fieldValidation, updateObject(ctx, v.res, u.Object, old.Object, i.p.status))
	}
	if err != nil {
		return nil, err
	}
	i.warnings = out.warnings
	return &unstructured.Unstructured{Object: out.object}, nil
}

// requestNamespace is the namespace of the request.
func requestNamespace(ctx context.Context) string {
	ns, _ := request.NamespaceFrom(ctx)
	return ns
}

// nameOfObject is the name of a request's object.
func nameOfObject(obj runtime.Object) string {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u.GetName()
	}
	return ""
}
