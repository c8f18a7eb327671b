package fakeclient

// What differs between the controller-runtime releases the package supports
// (v0.22 to v0.25) is kept in this file. One source compiles with all of
// them: the methods and types a release lacks are reached through
// reflection, never named.
//
//   - SubResourceClient.Apply and its option types (SubResourceApplyOption,
//     SubResourceApplyOptions) appear in v0.23. The client's subresource
//     clients get the method from controller-runtime's interceptor client,
//     whose SubResourceApply hook is set here by reflection when the
//     release has it.
//   - fake.ClientBuilder.WithGlobalResourceVersionCounter appears in v0.25.
//   - Before v0.25, the fake client's Update replaces the managedFields of
//     the object given by the stored ones; the store keeps those the client
//     computed (storeTracker).

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// newSubResourceApplier returns a client whose SubResource(name).Apply, in
// controller-runtime releases that have the method, calls c.applySubResource
// with the options as controller-runtime's SubResourceApplyOptions would
// hold them. In releases without it, the client is not needed and is nil.
func newSubResourceApplier(c *fakeClient) client.WithWatch {
	var funcs interceptor.Funcs
	hook := reflect.ValueOf(&funcs).Elem().FieldByName("SubResourceApply")
	if !hook.IsValid() {
		return nil
	}
	// func(ctx, client.Client, subResourceName string, runtime.ApplyConfiguration, ...client.SubResourceApplyOption) error
	hook.Set(reflect.MakeFunc(hook.Type(), func(args []reflect.Value) []reflect.Value {
		err := c.applySubResourceArgs(args)
		out := reflect.New(hook.Type().Out(0)).Elem()
		if err != nil {
			out.Set(reflect.ValueOf(err))
		}
		return []reflect.Value{out}
	}))
	return interceptor.NewClient(c, funcs)
}

// applySubResourceArgs decodes the arguments of the SubResourceApply hook
// and applies.
func (c *fakeClient) applySubResourceArgs(args []reflect.Value) error {
	if len(args) != 5 {
		return fmt.Errorf("fakeclient: unexpected SubResourceApply hook of %d arguments", len(args))
	}
	ctx, _ := args[0].Interface().(context.Context)
	name := args[2].String()
	ac, _ := args[3].Interface().(runtime.ApplyConfiguration)
	opts, err := subResourceApplyOptions(args[4])
	if err != nil {
		return err
	}
	return c.applySubResource(ctx, name, ac, opts, args)
}

// subResourceApplyOptions applies a []client.SubResourceApplyOption to a new
// client.SubResourceApplyOptions and returns its ApplyOptions.
func subResourceApplyOptions(opts reflect.Value) (client.ApplyOptions, error) {
	m, ok := opts.Type().Elem().MethodByName("ApplyToSubResourceApply")
	if !ok || m.Type.NumIn() != 1 || m.Type.In(0).Kind() != reflect.Pointer {
		return client.ApplyOptions{}, errors.New("fakeclient: unexpected SubResourceApplyOption type")
	}
	o := reflect.New(m.Type.In(0).Elem())
	for i := range opts.Len() {
		if opt := opts.Index(i); !opt.IsNil() {
			opt.MethodByName("ApplyToSubResourceApply").Call([]reflect.Value{o})
		}
	}
	ao, ok := o.Elem().FieldByName("ApplyOptions").Interface().(client.ApplyOptions)
	if !ok {
		return client.ApplyOptions{}, errors.New("fakeclient: unexpected SubResourceApplyOptions type")
	}
	return ao, nil
}

// callInnerSubResourceApply calls SubResource(name).Apply of the inner
// client with the hook's arguments (ctx, client, name, obj, opts).
func callInnerSubResourceApply(inner client.SubResourceClient, args []reflect.Value) error {
	m := reflect.ValueOf(inner).MethodByName("Apply")
	if !m.IsValid() {
		return errors.New("fakeclient: this controller-runtime release has no subresource Apply")
	}
	out := m.CallSlice([]reflect.Value{args[0], args[3], args[4]})
	err, _ := out[0].Interface().(error)
	return err
}

// withGlobalResourceVersionCounter calls the builder's
// WithGlobalResourceVersionCounter, which controller-runtime has since v0.25.
func withGlobalResourceVersionCounter(b *fake.ClientBuilder) error {
	m := reflect.ValueOf(b).MethodByName("WithGlobalResourceVersionCounter")
	if !m.IsValid() {
		return errors.New("WithGlobalResourceVersionCounter needs sigs.k8s.io/controller-runtime v0.25 or newer")
	}
	m.Call(nil)
	return nil
}

// managedFieldsKey carries, through controller-runtime's fake client, the
// managedFields an update of the store must keep: before v0.25 its Update
// replaces them by the stored ones. The store's tracker (storeTracker) puts
// them back; the key is never stored.
const managedFieldsKey = "\x00fakeclient.managedFields"

// storeTracker is the object tracker of the store.
type storeTracker struct{ testing.ObjectTracker }

// Update stores obj with the managedFields the client computed.
func (t storeTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		if mf, ok := u.Object[managedFieldsKey]; ok {
			delete(u.Object, managedFieldsKey)
			setManagedFields(u.Object, mf)
		}
	}
	return t.ObjectTracker.Update(gvr, obj, ns, opts...)
}

// storeUpdate updates u in the store, keeping its managedFields.
func (c *fakeClient) storeUpdate(ctx context.Context, u *unstructured.Unstructured, opts *client.UpdateOptions) error {
	var mf any
	if md, ok := u.Object["metadata"].(map[string]any); ok {
		mf = md["managedFields"]
	}
	u.Object[managedFieldsKey] = mf
	err := c.store.Update(ctx, u, opts)
	delete(u.Object, managedFieldsKey)
	if err == nil {
		setManagedFields(u.Object, mf)
	}
	return err
}

// setManagedFields sets metadata.managedFields of m, or removes it when mf
// is nil.
func setManagedFields(m map[string]any, mf any) {
	md, ok := m["metadata"].(map[string]any)
	if !ok {
		return
	}
	if mf == nil {
		delete(md, "managedFields")
		return
	}
	md["managedFields"] = mf
}
