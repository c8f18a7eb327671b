package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// manifestExt reports whether a file found in a directory is read: YAML
// and JSON files.
func manifestExt(name string) bool {
	return slices.Contains([]string{".yaml", ".yml", ".json"}, strings.ToLower(filepath.Ext(name)))
}

// stdinName is the file name that stands for the standard input.
const stdinName = "-"

// expandPath returns the files named by p: a file as is (whatever its
// extension), a directory as the manifest files below it, recursively and
// in lexical order, "-" as is. A path that does not exist is an error.
func expandPath(p string) ([]string, error) {
	if p == stdinName {
		return []string{p}, nil
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	var found []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && manifestExt(d.Name()) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading directory %s: %w", p, err)
	}
	sort.Strings(found)
	return found, nil
}
