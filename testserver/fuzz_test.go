package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
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

// FuzzList lists custom resources with arbitrary limits, continue tokens,
// resourceVersions and resourceVersionMatch values: every answer is a list
// or a Status of the API server's codes (400 for a bad token or
// resourceVersion, 410 for a compacted one, 422 for list options the
// handlers refuse, 504 for a future one), never a 500 or a dropped
// connection, and a page never holds more than the limit.
func FuzzList(f *testing.F) {
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
	for i := 0; i < 5; i++ {
		body := fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c%d"}}`, i)
		resp, err := hc.Post(srv.URL()+base, "application/json", strings.NewReader(body))
		if err != nil {
			f.Fatal(err)
		}
		resp.Body.Close()
	}
	// A token of a real first page, and the compaction that expires it.
	token := func() string {
		resp, err := hc.Get(srv.URL() + base + "?limit=2")
		if err != nil {
			f.Fatal(err)
		}
		defer resp.Body.Close()
		var l struct {
			Metadata struct{ Continue string } `json:"metadata"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
			f.Fatal(err)
		}
		return l.Metadata.Continue
	}()
	for _, seed := range []struct {
		limit        int64
		cont, rv, rm string
	}{
		{2, token, "", ""}, {1, "", "", ""}, {0, "", "1", "Exact"}, {3, "", "0", ""}, {1, "", "999999", "NotOlderThan"},
		{1, "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLi8uLiJ9", "", ""}, {-1, "!!", "x", "Bogus"}, {2, token, "5", ""},
	} {
		f.Add(seed.limit, seed.cont, seed.rv, seed.rm)
	}
	srv.Compact()
	f.Fuzz(func(t *testing.T, limit int64, cont, rv, match string) {
		q := url.Values{}
		if limit != 0 {
			q.Set("limit", fmt.Sprint(limit))
		}
		for k, v := range map[string]string{"continue": cont, "resourceVersion": rv, "resourceVersionMatch": match} {
			if v != "" {
				q.Set(k, v)
			}
		}
		resp, err := hc.Get(srv.URL() + base + "?" + q.Encode())
		if err != nil {
			t.Fatalf("request failed: %v", err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var m struct {
			Kind  string
			Items []any
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("the response is not a JSON object: %s", data)
		}
		switch resp.StatusCode {
		case 200:
			if limit > 0 && int64(len(m.Items)) > limit {
				t.Fatalf("%d items for limit %d", len(m.Items), limit)
			}
		case 400, 410, 422, 504:
		default:
			t.Fatalf("status %d for %s: %s", resp.StatusCode, q.Encode(), data)
		}
	})
}
