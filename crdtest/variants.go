package crdtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
	"sigs.k8s.io/yaml"
)

// The annotations of openshift/api's generated CRD manifests and feature
// gate manifests that select the CRD variants of a suite.
const (
	featureSetAnnotation    = "release.openshift.io/feature-set"
	clusterProfilePrefix    = "include.release.openshift.io/"
	majorVersionAnnotation  = "release.openshift.io/major-version"
	customNoUpgrade         = "CustomNoUpgrade"
	defaultFeatureSet       = "Default"
	openshiftCRDDir         = "zz_generated.crd-manifests"
	openshiftFeatureGateDir = "payload-manifests/featuregates"
)

// crdFile is a CRD manifest: its text and the CRD it holds.
type crdFile struct {
	path string
	raw  []byte
	def  *crdschema.CustomResourceDefinition
	json []byte // raw as JSON, once needed
	spec string // specKey, once needed
}

// specKey returns a key that is the same for two manifests of the same
// spec: openshift/api's variants of a CRD differ in their metadata
// annotations only, and are generated with the same layout. The key is the
// SHA-256 of the manifest from its spec on, computed once.
func (f *crdFile) specKey() string {
	if f.spec == "" {
		spec := f.raw
		if i := bytes.Index(f.raw, []byte("\nspec:\n")); i >= 0 {
			spec = f.raw[i:]
		}
		sum := sha256.Sum256(spec)
		f.spec = string(sum[:])
	}
	return f.spec
}

// doc returns a fresh copy of the manifest as a JSON value.
func (f *crdFile) doc() (any, error) {
	if f.json == nil {
		j, err := yaml.YAMLToJSON(f.raw)
		if err != nil {
			return nil, err
		}
		f.json = j
	}
	var doc any
	err := json.Unmarshal(f.json, &doc)
	return doc, err
}

// loader reads CRD manifests and feature gate manifests once.
type loader struct {
	opts  *options
	files map[string][]*crdFile       // by directory or file
	gates map[string][]map[string]any // feature gate manifests by directory
	fgErr map[string]error            // errors reading them
}

// crdSources returns the files and directories in which the CRD of the
// suite at path is looked for.
func (l *loader) crdSources(suitePath string) []string {
	if len(l.opts.crds) > 0 {
		return l.opts.crds
	}
	dir := filepath.Dir(suitePath)
	if gen := filepath.Join(dir, "..", "..", openshiftCRDDir); isDir(gen) {
		return []string{gen}
	}
	return []string{dir}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// manifests returns the CRDs of a file or of the YAML and JSON files of a
// directory (not recursively), in file name order. Files that hold no CRD
// are left out.
func (l *loader) manifests(src string) ([]*crdFile, error) {
	if fs, ok := l.files[src]; ok {
		return fs, nil
	}
	var paths []string
	if isDir(src) {
		entries, err := os.ReadDir(src)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			n := e.Name()
			if !e.IsDir() && (strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".json")) {
				paths = append(paths, filepath.Join(src, n))
			}
		}
	} else {
		paths = []string{src}
	}
	var out []*crdFile
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		def, _, err := manifest.UnmarshalCRD(raw)
		if err != nil || def.Kind != "CustomResourceDefinition" {
			continue // not a CRD: the file is not a candidate
		}
		out = append(out, &crdFile{path: p, raw: raw, def: def})
	}
	l.files[src] = out
	return out, nil
}

// variants returns the CRD manifests a suite runs against, as openshift/api's
// runner chooses them: every manifest of the CRD named by the suite when the
// suite names no feature gates; otherwise those of the CustomNoUpgrade
// feature set (unless a gate must be disabled) and those whose cluster
// profile and feature set enable every gate the suite names and disable
// every gate it names with a leading "-".
func (l *loader) variants(s *suite) ([]*crdFile, error) {
	var candidates []*crdFile
	srcs := l.crdSources(s.path)
	for _, src := range srcs {
		fs, err := l.manifests(src)
		if err != nil {
			return nil, fmt.Errorf("%s: reading CRDs: %v", s.path, err)
		}
		for _, f := range fs {
			if f.def.Name == s.CRDName {
				candidates = append(candidates, f)
			}
		}
	}
	if len(candidates) == 0 {
		return nil, fmt.Errorf("%s: no CRD named %q in %s", s.path, s.CRDName, strings.Join(srcs, ", "))
	}
	if len(s.FeatureGates) == 0 {
		return candidates, nil
	}
	var out []*crdFile
	for _, f := range candidates {
		keep, err := l.selects(s, f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.path, err)
		}
		if keep {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no variant of CRD %q has feature gates %s", s.path, s.CRDName, strings.Join(s.FeatureGates, ","))
	}
	return out, nil
}

// selects reports whether the suite s runs against the CRD manifest f.
func (l *loader) selects(s *suite, f *crdFile) (bool, error) {
	ann := f.def.Annotations
	sets := map[string]bool{}
	if a := ann[featureSetAnnotation]; a != "" {
		for _, fs := range strings.Split(a, ",") {
			sets[fs] = true
		}
	}
	if sets[customNoUpgrade] {
		// CustomNoUpgrade has every field.
		return !slices.ContainsFunc(s.FeatureGates, func(g string) bool { return strings.HasPrefix(g, "-") }), nil
	}
	profiles := clusterProfiles(ann)
	if len(profiles) == 0 {
		return true, nil
	}
	if len(sets) == 0 {
		sets[defaultFeatureSet] = true
	}
	gates, err := l.featureGates(s.path, profiles[0], sets, majorVersions(ann))
	if err != nil {
		return false, fmt.Errorf("%s: %v", filepath.Base(f.path), err)
	}
	keep := true
	for _, g := range s.FeatureGates {
		name, disabled := strings.CutPrefix(g, "-")
		enabled, found := gates[name]
		if !found {
			return false, fmt.Errorf("unknown feature gate %q (for %s)", name, filepath.Base(f.path))
		}
		if enabled == disabled {
			keep = false
		}
	}
	return keep, nil
}

// clusterProfiles returns the cluster profiles a manifest is included in,
// sorted.
func clusterProfiles(ann map[string]string) []string {
	var out []string
	for k, v := range ann {
		if strings.HasPrefix(k, clusterProfilePrefix) && v == "true" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// majorVersions returns the OpenShift major versions a manifest is for.
func majorVersions(ann map[string]string) map[uint64]bool {
	first := "" // the first annotation of major versions, in key order
	for k := range ann {
		if strings.HasPrefix(k, majorVersionAnnotation) && (first == "" || k < first) {
			first = k
		}
	}
	out := map[uint64]bool{}
	if first == "" {
		return out
	}
	for _, v := range strings.Split(ann[first], ",") {
		if n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64); err == nil {
			out[n] = true
		}
	}
	return out
}

// featureGateDir returns the directory of feature gate manifests for the
// suite at path: the option, or payload-manifests/featuregates in the
// nearest directory above the suite that has one.
func (l *loader) featureGateDir(suitePath string) (string, error) {
	if l.opts.featureGates != "" {
		return l.opts.featureGates, nil
	}
	dir, err := filepath.Abs(filepath.Dir(suitePath))
	if err != nil {
		return "", err
	}
	for {
		if p := filepath.Join(dir, openshiftFeatureGateDir); isDir(p) {
			return p, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no %s directory above the suite (see WithFeatureGates)", openshiftFeatureGateDir)
		}
		dir = up
	}
}

// featureGates returns the state of every feature gate in the first
// feature gate manifest (in file name order) of the cluster profile,
// one of the feature sets and, when versions is not empty, one of the
// major versions.
func (l *loader) featureGates(suitePath, profile string, sets map[string]bool, versions map[uint64]bool) (map[string]bool, error) {
	dir, err := l.featureGateDir(suitePath)
	if err != nil {
		return nil, err
	}
	docs, err := l.gateManifests(dir)
	if err != nil {
		return nil, err
	}
	for _, fg := range docs {
		md, _ := fg["metadata"].(map[string]any)
		ann, _ := md["annotations"].(map[string]any)
		strs := map[string]string{}
		for k, v := range ann {
			if s, ok := v.(string); ok {
				strs[k] = s
			}
		}
		if _, ok := strs[profile]; !ok || !sets[strs[featureSetAnnotation]] {
			continue
		}
		if len(versions) > 0 {
			match := false
			for v := range majorVersions(strs) {
				match = match || versions[v]
			}
			if !match {
				continue
			}
		}
		st, _ := fg["status"].(map[string]any)
		list, _ := st["featureGates"].([]any)
		if len(list) == 0 {
			return nil, fmt.Errorf("feature gate manifest without status.featureGates in %s", dir)
		}
		first, _ := list[0].(map[string]any)
		out := map[string]bool{}
		for _, state := range []string{"enabled", "disabled"} {
			gs, _ := first[state].([]any)
			for _, g := range gs {
				gm, _ := g.(map[string]any)
				if n, ok := gm["name"].(string); ok {
					out[n] = state == "enabled"
				}
			}
		}
		return out, nil
	}
	names := slices.Sorted(maps.Keys(sets))
	return nil, fmt.Errorf("no feature gate manifest in %s for cluster profile %q, feature set %s", dir, profile, strings.Join(names, ","))
}

// gateManifests reads the feature gate manifests below dir, in lexical
// order of their paths.
func (l *loader) gateManifests(dir string) ([]map[string]any, error) {
	if docs, ok := l.gates[dir]; ok {
		return docs, l.fgErr[dir]
	}
	var docs []map[string]any
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var m map[string]any
		if err := yaml.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		docs = append(docs, m)
		return nil
	})
	l.gates[dir], l.fgErr[dir] = docs, err
	return docs, err
}
