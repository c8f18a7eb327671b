package testserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func names(items []unstructured.Unstructured) string {
	var out []string
	for _, it := range items {
		out = append(out, it.GetName())
	}
	return strings.Join(out, ",")
}

// TestListLimitContinue checks paging as the API server pages a list from
// etcd (the API concepts' "Retrieving large results sets in chunks"): each
// page is at most limit items, the continue token reads the rest at the
// first page's resourceVersion (objects created since are not listed),
// remainingItemCount is set without selectors only, a token whose
// resourceVersion is compacted gets 410 Gone with a token that continues at
// the latest revision, and a malformed token or a resourceVersion with a
// token gets 400.
func TestListLimitContinue(t *testing.T) {
	srv, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	for i := 0; i < 5; i++ {
		o := cronTab(fmt.Sprintf("c%d", i), map[string]any{})
		o.SetLabels(map[string]string{"odd": fmt.Sprint(i%2 == 1)})
		if _, err := c.Create(ctx, o, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	p1, err := c.List(ctx, metav1.ListOptions{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p1.Items); got != "c0,c1" || p1.GetContinue() == "" {
		t.Fatalf("page 1: %s, continue %q", got, p1.GetContinue())
	}
	if r := p1.GetRemainingItemCount(); r == nil || *r != 3 {
		t.Errorf("page 1: remainingItemCount %v, want 3", r)
	}
	// Changes after the first page do not show in the next ones.
	if _, err := c.Create(ctx, cronTab("c2a", map[string]any{}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, "c3", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	p2, err := c.List(ctx, metav1.ListOptions{Limit: 2, Continue: p1.GetContinue()})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p2.Items); got != "c2,c3" || p2.GetResourceVersion() != p1.GetResourceVersion() {
		t.Errorf("page 2: %s at %s, want c2,c3 at %s", got, p2.GetResourceVersion(), p1.GetResourceVersion())
	}
	p3, err := c.List(ctx, metav1.ListOptions{Limit: 2, Continue: p2.GetContinue()})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p3.Items); got != "c4" || p3.GetContinue() != "" || p3.GetRemainingItemCount() != nil {
		t.Errorf("page 3: %s, continue %q, remaining %v; want c4 and the end", got, p3.GetContinue(), p3.GetRemainingItemCount())
	}

	// A selector: pages of matching items, no remainingItemCount.
	s1, err := c.List(ctx, metav1.ListOptions{Limit: 1, LabelSelector: "odd=true"})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(s1.Items); got != "c1" || s1.GetContinue() == "" || s1.GetRemainingItemCount() != nil {
		t.Errorf("selected page 1: %s, continue %q, remaining %v", got, s1.GetContinue(), s1.GetRemainingItemCount())
	}

	// An exact resourceVersion lists the past.
	past, err := c.List(ctx, metav1.ListOptions{ResourceVersion: p1.GetResourceVersion(), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(past.Items); got != "c0,c1,c2,c3,c4" {
		t.Errorf("list at %s: %s", p1.GetResourceVersion(), got)
	}

	// Compacted: 410, with a token that continues at the latest revision.
	srv.Compact()
	_, err = c.List(ctx, metav1.ListOptions{Limit: 2, Continue: p1.GetContinue()})
	if !apierrors.IsResourceExpired(err) {
		t.Fatalf("continue after compaction: %v, want 410 Expired", err)
	}
	st := err.(apierrors.APIStatus).Status()
	if st.Code != http.StatusGone || !strings.HasPrefix(st.Message, "The provided continue parameter is too old to display a consistent list result.") || st.ListMeta.Continue == "" {
		t.Fatalf("410: %+v", st)
	}
	rest, err := c.List(ctx, metav1.ListOptions{Continue: st.ListMeta.Continue})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(rest.Items); got != "c2,c2a,c4" {
		t.Errorf("continued at the latest revision: %s, want c2,c2a,c4", got)
	}
	if _, err := c.List(ctx, metav1.ListOptions{ResourceVersion: p1.GetResourceVersion(), ResourceVersionMatch: metav1.ResourceVersionMatchExact}); !apierrors.IsResourceExpired(err) || !strings.Contains(err.Error(), "The resourceVersion for the provided list is too old.") {
		t.Errorf("exact list at a compacted resourceVersion: %v", err)
	}

	// Bad requests.
	if _, err := c.List(ctx, metav1.ListOptions{Continue: "!!"}); !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "invalid continue token") {
		t.Errorf("malformed token: %v", err)
	}
	if _, err := c.List(ctx, metav1.ListOptions{Continue: s1.GetContinue(), ResourceVersion: "5"}); !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "specifying resource version is not allowed when using continue") {
		t.Errorf("token and resourceVersion: %v", err)
	}
	if _, err := c.List(ctx, metav1.ListOptions{ResourceVersion: "999999", ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}); !apierrors.IsTimeout(err) && !strings.Contains(fmt.Sprint(err), "Too large resource version") {
		t.Errorf("future resourceVersion: %v", err)
	}
}
