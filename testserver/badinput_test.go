package testserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// TestBadInput sends what clients should not: the server answers with the
// API server's status codes and texts, as a Status object.
func TestBadInput(t *testing.T) {
	srv, _ := startCronTab(t)
	hc, err := rest.HTTPClientFor(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	const base = "/apis/stable.example.com/v1/namespaces/default/crontabs"
	for _, tc := range []struct {
		name, method, path, contentType, body string
		code                                  int
		message                               string
	}{
		{"malformed JSON", "POST", base, "application/json", `{"apiVersion":`, 400, "the object provided is unrecognized (must be of type CronTab): couldn't get version/kind; json parse error: unexpected end of JSON input"},
		{"not an object", "POST", base, "application/json", `[1,2]`, 400, ""},
		{"no kind", "POST", base, "application/json", `{"apiVersion":"stable.example.com/v1","metadata":{"name":"a"}}`, 400, "Object 'Kind' is missing"},
		{"wrong apiVersion", "POST", base, "application/json", `{"apiVersion":"stable.example.com/v2","kind":"CronTab","metadata":{"name":"a"}}`, 400, ""},
		{"metadata of the wrong type", "POST", base, "application/json", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":5}}`, 400, "cannot be handled as a CronTab"},
		{"unknown media type", "POST", base, "text/plain", `x`, 415, ""},
		{"strategic merge patch", "PATCH", base + "/a", "application/strategic-merge-patch+json", `{}`, 415, ""},
		{"unknown resource", "GET", "/apis/stable.example.com/v1/namespaces/default/nothings", "", "", 404, "the server could not find the requested resource"},
		{"unknown group", "GET", "/apis/nothing.example.com/v1/things", "", "", 404, "the server could not find the requested resource"},
		{"unknown path", "GET", "/nothing/at/all", "", "", 404, "the server could not find the requested resource"},
		{"unknown subresource", "GET", base + "/a/nothing", "", "", 404, ""},
		{"namespaced path of a cluster-scoped resource", "GET", "/apis/apiextensions.k8s.io/v1/namespaces/default/customresourcedefinitions", "", "", 404, ""},
		// As the API server's handler of custom resources answers.
		{"update of a collection", "PUT", base, "application/json", `{}`, 400, "name must be provided"},
		{"unsupported verb", "POST", base + "/a/status", "application/json", `{}`, 405, ""},
		{"huge body", "POST", base, "application/json", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"image":"` + strings.Repeat("x", 4<<20) + `"}}`, 413, "Request entity too large"},
		{"bad field selector", "GET", base + "?fieldSelector=%3D%3D%3D", "", "", 400, ""},
		{"bad label selector", "GET", base + "?labelSelector=a%20in%20(", "", "", 400, ""},
		{"bad resourceVersion", "GET", base + "?watch=1&resourceVersion=abc", "", "", 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL()+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			data, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.code {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.code, data)
			}
			var st metav1.Status
			if err := json.Unmarshal(data, &st); err != nil || st.Kind != "Status" || int(st.Code) != tc.code {
				t.Fatalf("not a Status of code %d: %s", tc.code, data)
			}
			if !strings.Contains(st.Message, tc.message) {
				t.Errorf("message %q does not contain %q", st.Message, tc.message)
			}
		})
	}
}

// TestSlowClient sends half a body and stops: as kube-apiserver, the
// server answers with the timeout filter's 504 once the request's timeout
// (here ?timeout=1s; 60s by default) has passed, and keeps serving others
// meanwhile.
func TestSlowClient(t *testing.T) {
	srv, dc := startCronTab(t)
	hc, err := rest.HTTPClientFor(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	body, stall := io.Pipe()
	defer stall.Close()
	req, err := http.NewRequest("POST", srv.URL()+"/apis/stable.example.com/v1/namespaces/default/crontabs?timeout=1s", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	go func() { _, _ = stall.Write([]byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab",`)) }()
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := hc.Do(req)
		done <- result{resp, err}
	}()
	// Another client is served while the slow one holds its request.
	if _, err := dc.Resource(crontabs).Namespace("default").List(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatalf("a list while a client stalls: %v", err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	defer r.resp.Body.Close()
	data, _ := io.ReadAll(r.resp.Body)
	var st metav1.Status
	if r.resp.StatusCode != http.StatusGatewayTimeout || json.Unmarshal(data, &st) != nil || st.Reason != metav1.StatusReasonTimeout ||
		st.Message != "Timeout: request did not complete within the allotted timeout" {
		t.Errorf("status %d: %s", r.resp.StatusCode, data)
	}
}
