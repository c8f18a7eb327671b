package bench

// The inputs: the real-world CRDs of testdata/crds (one gzipped YAML
// stream per project, each document preceded by a "# file: NAME" line) and
// the example objects of testdata/objects. Everything is turned into JSON
// request bodies once; both sides start from the same bytes.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	stdjson "encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
	"github.com/crdschema/crdschema/manifest"
)

// corpusCRD is one CRD of the corpus as a JSON request body.
type corpusCRD struct {
	file string // its file name in the project's repository
	name string // metadata.name
	body []byte
}

// family is the CRDs of one project.
type family struct {
	name string
	crds []corpusCRD
}

var (
	familiesOnce sync.Once
	familiesData []family
	familiesErr  error
)

// families returns every project of testdata/crds, sorted by name.
func families(tb testing.TB) []family {
	tb.Helper()
	familiesOnce.Do(func() { familiesData, familiesErr = readFamilies() })
	if familiesErr != nil {
		tb.Fatal(familiesErr)
	}
	return familiesData
}

func readFamilies() ([]family, error) {
	files, err := filepath.Glob(filepath.Join("testdata", "crds", "*.yaml.gz"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []family
	for _, f := range files {
		crds, err := readFamily(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		out = append(out, family{name: strings.TrimSuffix(filepath.Base(f), ".yaml.gz"), crds: crds})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no CRDs in testdata/crds")
	}
	return out, nil
}

func readFamily(path string) ([]corpusCRD, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var out []corpusCRD
	for _, doc := range splitYAML(data) {
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		file := ""
		if line, _, _ := bytes.Cut(doc, []byte("\n")); bytes.HasPrefix(line, []byte("# file: ")) {
			file = strings.TrimSpace(string(line[len("# file: "):]))
		}
		body, err := yamljson.ToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		def, _, err := manifest.UnmarshalCRD(body)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		out = append(out, corpusCRD{file: file, name: def.Name, body: body})
	}
	return out, nil
}

// splitYAML splits a YAML stream at its "---" lines.
func splitYAML(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.Equal(bytes.TrimRight(line, " \t"), []byte("---")) {
			docs = append(docs, bytes.Clone(cur.Bytes()))
			cur.Reset()
			continue
		}
		cur.Write(line)
		cur.WriteByte('\n')
	}
	return append(docs, cur.Bytes())
}

// findCRD returns the CRD of a project by its file name.
func findCRD(tb testing.TB, project, file string) corpusCRD {
	tb.Helper()
	for _, f := range families(tb) {
		if f.name != project {
			continue
		}
		for _, c := range f.crds {
			if c.file == file {
				return c
			}
		}
	}
	tb.Fatalf("no CRD %s/%s in testdata/crds", project, file)
	return corpusCRD{}
}

// example is one of the corpus' example objects with the CRD that serves
// it.
type example struct {
	name    string // the benchmark name: the kind
	object  string // file in testdata/objects
	project string // project in testdata/crds
	crdFile string // the CRD's file in the project
}

// examples are the objects the create pipeline is measured on.
var examples = []example{
	{"HTTPRoute", "httproute.yaml", "gateway-api", "standard-gateway.networking.k8s.io_httproutes.yaml"},
	{"Prometheus", "prometheus.yaml", "prometheus-operator", "monitoring.coreos.com_prometheuses.yaml"},
	{"Application", "application.yaml", "argo-cd", "application-crd.yaml"},
	{"KubeadmControlPlane", "kubeadmcontrolplane.yaml", "cluster-api", "controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml"},
	{"NodePool", "nodepool.yaml", "karpenter", "karpenter.sh_nodepools.yaml"},
}

// objectBody reads a YAML object of testdata/objects as a JSON body.
func objectBody(tb testing.TB, file string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "objects", file))
	if err != nil {
		tb.Fatal(err)
	}
	body, err := yamljson.ToJSON(data)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return body
}

// versionOf returns the version of an object's apiVersion.
func versionOf(tb testing.TB, body []byte) string {
	tb.Helper()
	v, err := jsonscan.Decode(body)
	if err != nil {
		tb.Fatal(err)
	}
	m, _ := v.(map[string]any)
	av, _ := m["apiVersion"].(string)
	_, version, ok := strings.Cut(av, "/")
	if !ok {
		tb.Fatalf("object without group/version apiVersion: %q", av)
	}
	return version
}

// uniqueBodies returns n copies of a JSON object body, the i-th named
// <metadata.name>-<i>.
func uniqueBodies(tb testing.TB, body []byte, n int) [][]byte {
	tb.Helper()
	v, err := jsonscan.Decode(body)
	if err != nil {
		tb.Fatal(err)
	}
	m := v.(map[string]any)
	meta := m["metadata"].(map[string]any)
	base := meta["name"].(string)
	out := make([][]byte, n)
	for i := range out {
		meta["name"] = fmt.Sprintf("%s-%d", base, i)
		if out[i], err = marshalJSON(m); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

func marshalJSON(v any) ([]byte, error) { return stdjson.Marshal(v) }
