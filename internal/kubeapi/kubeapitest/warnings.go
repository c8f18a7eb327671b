package kubeapitest

import "sync"

// Warnings records the warnings a client reports: it is a client-go
// rest.WarningHandler (and controller-runtime's), safe for concurrent use.
type Warnings struct {
	mu   sync.Mutex
	msgs []string
}

// HandleWarningHeader records the warning's text.
func (w *Warnings) HandleWarningHeader(code int, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, text)
}

// Take returns the warnings recorded since the last Take.
func (w *Warnings) Take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.msgs
	w.msgs = nil
	return out
}
