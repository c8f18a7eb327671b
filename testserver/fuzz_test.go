package testserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"k8s.io/client-go/rest"
)

// FuzzCreate posts arbitrary bodies as custom resources, JSON and merge
// patches: the server must answer each with an object or a Status of the
// API server's codes, never a 500 or a dropped connection.
func FuzzCreate(f *testing.F) {
	for _, seed := range []string{
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"replicas":3}}`,
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"generateName":"x-"},"spec":{"cronSpec":"* * * * *","x":[1,{"y":null}]}}`,
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","labels":{"a":"b"},"finalizers":["x/y"]}}`,
		`{"metadata":5}`, `[]`, `null`, ``, `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":"x"}`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	srv, err := Start(WithCRDFiles("testdata/crontab.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	hc, err := rest.HTTPClientFor(srv.RESTConfig())
	if err != nil {
		f.Fatal(err)
	}
	const base = "/apis/stable.example.com/v1/namespaces/default/crontabs"
	f.Fuzz(func(t *testing.T, body []byte, patch bool) {
		method, path, ct := http.MethodPost, base, "application/json"
		if patch {
			method, path, ct = http.MethodPatch, base+"/a", "application/merge-patch+json"
		}
		req, err := http.NewRequest(method, srv.URL()+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", ct)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("request failed: %v", err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		switch resp.StatusCode {
		case 200, 201, 400, 404, 409, 413, 415, 422:
		default:
			t.Fatalf("status %d for %q: %s", resp.StatusCode, body, data)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("the response is not a JSON object: %s", data)
		}
	})
}
