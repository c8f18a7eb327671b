package fakeclient_test

import (
	"context"
	"fmt"

	"github.com/crdschema/crdschema/fakeclient"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CronTab is the Go type of the CronTab custom resource (testdata/crontab.yaml),
// as an operator would write it.
type CronTab struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CronTabSpec   `json:"spec,omitempty"`
	Status            CronTabStatus `json:"status,omitempty"`
}

type CronTabSpec struct {
	CronSpec    string `json:"cronSpec,omitempty"`
	Image       string `json:"image,omitempty"`
	Replicas    int64  `json:"replicas,omitempty"`
	MinReplicas *int64 `json:"minReplicas,omitempty"`
	MaxReplicas *int64 `json:"maxReplicas,omitempty"`
}

type CronTabStatus struct {
	Replicas int64 `json:"replicas,omitempty"`
}

// CronTabList is a list of CronTabs.
type CronTabList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CronTab `json:"items"`
}

func (c *CronTab) DeepCopyObject() runtime.Object {
	out := *c
	c.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if c.Spec.MinReplicas != nil {
		v := *c.Spec.MinReplicas
		out.Spec.MinReplicas = &v
	}
	if c.Spec.MaxReplicas != nil {
		v := *c.Spec.MaxReplicas
		out.Spec.MaxReplicas = &v
	}
	return &out
}

func (l *CronTabList) DeepCopyObject() runtime.Object {
	out := *l
	out.Items = nil
	for i := range l.Items {
		out.Items = append(out.Items, *l.Items[i].DeepCopyObject().(*CronTab))
	}
	return &out
}

func cronTabScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	gv := schema.GroupVersion{Group: "stable.example.com", Version: "v1"}
	s.AddKnownTypes(gv, &CronTab{}, &CronTabList{})
	metav1.AddToGroupVersion(s, gv)
	return s
}

// A controller test against the CronTab CRD: the created object comes back
// defaulted, a CEL rule refuses an update with the API server's error, and
// the status is written through the status subresource only.
func Example() {
	ctx := context.Background()
	c, err := fakeclient.NewClientBuilder().
		WithScheme(cronTabScheme()).
		WithCRDFiles("testdata/crontab.yaml").
		Build()
	if err != nil {
		panic(err)
	}

	// Create: defaults applied, unknown fields pruned, as the API server does.
	ct := &CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "my-cron", Namespace: "default"},
		Spec:       CronTabSpec{Image: "my-image"},
	}
	if err := c.Create(ctx, ct); err != nil {
		panic(err)
	}
	fmt.Println("created:", ct.Spec.CronSpec, ct.Spec.Replicas, "generation", ct.Generation)

	// Read it back.
	var got CronTab
	if err := c.Get(ctx, client.ObjectKeyFromObject(ct), &got); err != nil {
		panic(err)
	}
	fmt.Println("read:", got.Spec.CronSpec, got.Spec.Replicas)

	// A CEL rule of the CRD refuses this update.
	got.Spec.MaxReplicas = ptr(int64(0))
	err = c.Update(ctx, &got)
	fmt.Println("invalid:", apierrors.IsInvalid(err))
	fmt.Println(err)

	// The status subresource: the main resource ignores the status, the
	// status subresource writes it and leaves the generation alone.
	got.Spec.MaxReplicas = nil
	got.Status.Replicas = 3
	if err := c.Update(ctx, &got); err != nil {
		panic(err)
	}
	fmt.Println("status after a main-resource update:", got.Status.Replicas)
	got.Status.Replicas = 3
	if err := c.Status().Update(ctx, &got); err != nil {
		panic(err)
	}
	fmt.Println("status after a status update:", got.Status.Replicas, "generation", got.Generation)
	// Output:
	// created: 5 0 * * * 1 generation 1
	// read: 5 0 * * * 1
	// invalid: true
	// CronTab.stable.example.com "my-cron" is invalid: spec: Invalid value: replicas should be smaller than or equal to maxReplicas.
	// status after a main-resource update: 0
	// status after a status update: 3 generation 1
}

func ptr[T any](v T) *T { return &v }
