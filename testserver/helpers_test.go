package testserver

import (
	"io"
	"net/http"
	"strings"
)

func bufCopy(b *strings.Builder, resp *http.Response) (int64, error) {
	return io.Copy(b, resp.Body)
}
