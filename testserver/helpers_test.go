package testserver

import (
	"io"
	"net/http"
	"strings"
)

func bufCopy(b *strings.Builder, resp *http.Response) (int64, error) {
	return io.Copy(b, resp.Body)
}

// forgetCRDFiles empties the process's memo of CRD files, as in a new
// process.
func forgetCRDFiles() {
	fileCRDs.mu.Lock()
	fileCRDs.byContent = map[string]*fileEntry{}
	fileCRDs.mu.Unlock()
}
