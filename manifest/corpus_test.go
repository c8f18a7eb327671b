package manifest

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/internal/yamljson"
)

// corpusProject is the CRDs of one public project, as JSON request bodies.
type corpusProject struct {
	name   string
	bodies [][]byte
}

var (
	corpusOnce sync.Once
	corpusData []corpusProject
	corpusErr  error
)

// corpusProjects reads the CRDs of bench/testdata/crds (one gzipped YAML
// stream per project), sorted by project name.
func corpusProjects(tb testing.TB) []corpusProject {
	tb.Helper()
	corpusOnce.Do(func() { corpusData, corpusErr = readCorpus() })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	if len(corpusData) == 0 {
		tb.Fatal("no CRDs in bench/testdata/crds")
	}
	return corpusData
}

func readCorpus() ([]corpusProject, error) {
	files, err := filepath.Glob(filepath.Join("..", "bench", "testdata", "crds", "*.yaml.gz"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []corpusProject
	for _, file := range files {
		data, err := readGzip(file)
		if err != nil {
			return nil, err
		}
		p := corpusProject{name: strings.TrimSuffix(filepath.Base(file), ".yaml.gz")}
		for _, c := range yamljson.SplitAll(data) {
			body, err := yamljson.ToJSON(c.Data)
			if err != nil {
				return nil, err
			}
			p.bodies = append(p.bodies, body)
		}
		out = append(out, p)
	}
	return out, nil
}

func readGzip(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
