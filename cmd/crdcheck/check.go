package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unique"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/yamljson"
)

// Statuses of a checked object.
const (
	statusAccepted  = "accepted"   // the API server would accept it
	statusRejected  = "rejected"   // the API server would refuse it
	statusUnchecked = "notChecked" // no CRD of the input serves its kind
	statusError     = "error"      // it cannot be read: not sent to any API server
)

// outcome is what became of one document.
type outcome struct {
	doc                               document
	apiVersion, kind, namespace, name string
	operation                         string // "create", "update", or "" when not checked
	status                            string
	errs                              crdschema.ErrorList
	unknownFields                     []string
	warnings                          []string       // the API server's warnings (kubectl prints them)
	problem                           string         // why refused (when operation is set), unreadable or not checked
	checkedBy                         []string       // for built-in kinds: the layers of checks that ran (builtinLayers)
	message                           string         // what kubectl prints for a refusal, when known
	result                            map[string]any // the resulting object, with -show-result

	// speculative is the CRD the object was checked with before the API
	// server's verdict on it was known; ifRejected is the outcome when
	// the verdict is a refusal (see settle).
	speculative *crdEntry
	ifRejected  *outcome
}

// settle replaces the outcome of an object checked before the verdict on
// its CRD was known by the object's outcome under a refused CRD when the
// CRD is refused; it waits for the verdict.
func (o *outcome) settle() {
	if e := o.speculative; e != nil {
		if !e.accepted() {
			*o = *o.ifRejected
		}
		o.speculative, o.ifRejected = nil, nil
	}
}

// checker runs one check: it reads the inputs, decodes their documents on
// opts.jobs goroutines, checks each object as soon as the CRD serving it is
// known, and collects the outcomes.
type checker struct {
	ctx   context.Context
	opts  *options
	stdin io.Reader
	prog  *progress

	crds     *catalog // from -crds, once crdReady is closed
	crdReady chan struct{}
	olds     oldObjects

	// cache shares the CEL compilations of every CRD's validation and
	// versions: CRDs of one project have many rules and types in common.
	cache celrules.Cache

	stdinOnce sync.Once
	stdinData []byte
	stdinErr  error

	// countOnly: accepted objects without warnings are counted in
	// accepted rather than kept in outcomes (the text output does not
	// list them).
	countOnly bool

	mu         sync.Mutex
	outcomes   []outcome
	accepted   int
	streamCRDs []*crdEntry // CRDs found among the manifests
	pending    []document  // objects no -crds CRD serves, for the CRDs of the manifests
}

// decodeAhead is how many objects a goroutine decodes ahead while the
// CRDs of -crds load: a small lead (a quarter of a megabyte), as a larger
// one shows in the peak memory (256 objects: 1 MB more on 2,000
// HTTPRoutes) for less than a millisecond more of work done early.
const decodeAhead = 64

// testHooks let tests order the concurrent steps of a run; they are nil
// in the command.
var testHooks struct {
	validation func(validate func())  // runs each CRD's validation
	checked    func()                 // called once the objects of -crds CRDs are checked
	held       func(n int)            // called when a decoding goroutine holds n documents
	reuse      func([]map[string]any) // takes the maps of objects checked, instead of reusing them
}

// task is one document to decode.
type task struct {
	file       string
	chunk      yamljson.Chunk
	index, seq int
}

// record adds outcomes.
func (c *checker) record(o ...outcome) {
	if c.countOnly && len(o) == 1 && o[0].status == statusAccepted && len(o[0].warnings) == 0 && o[0].speculative == nil {
		c.mu.Lock()
		c.accepted++
		c.mu.Unlock()
		return
	}
	for i := range o {
		o[i].detach()
		if o[i].ifRejected != nil {
			o[i].ifRejected.detach()
		}
	}
	c.mu.Lock()
	c.outcomes = append(c.outcomes, o...)
	c.mu.Unlock()
}

// detach drops what o need not keep: the object itself, and the
// document's text (which the decoded strings share).
func (o *outcome) detach() {
	o.doc.obj, o.doc.json = nil, nil
	// few kinds, many objects
	o.apiVersion, o.kind = unique.Make(o.apiVersion).Value(), unique.Make(o.kind).Value()
	o.namespace, o.name = strings.Clone(o.namespace), strings.Clone(o.name)
}

// inputError records a path or file that cannot be read.
func (c *checker) inputError(file string, seq int, err error) {
	c.record(outcome{doc: document{file: file, seq: seq}, status: statusError, problem: err.Error()})
}

// readManifests reads the manifests of paths and feeds their documents to
// tasks as they are read, numbering them from *seq: files are streamed,
// or read at once when whole is set. Paths and files that cannot be read
// are recorded as input errors.
func (c *checker) readManifests(paths []string, whole bool, tasks chan<- task, seq *int) {
	for _, p := range paths {
		files, err := expandPath(p)
		if err != nil {
			*seq++
			c.inputError(p, *seq, err)
			continue
		}
		for _, f := range files {
			*seq++
			label, index := f, 0
			if f == stdinName {
				label = stdinLabel
			}
			err := c.splitInput(f, whole, func(ch yamljson.Chunk) {
				*seq++
				index++
				tasks <- task{file: label, chunk: ch, index: index, seq: *seq}
			})
			if err != nil {
				*seq++
				c.inputError(label, *seq, err)
			}
		}
	}
}

// splitInput passes the documents of one input to emit as they are read:
// a file, streamed or read at once, or the standard input for "-".
func (c *checker) splitInput(name string, whole bool, emit func(yamljson.Chunk)) error {
	if name == stdinName || whole {
		data, err := c.readInput(name)
		if err != nil {
			return err
		}
		for _, ch := range yamljson.SplitAll(data) {
			emit(ch)
		}
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	s := yamljson.NewSplitter(f)
	for {
		ch, err := s.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		emit(ch)
	}
}

// decoding says how decode reads and hands over documents.
type decoding struct {
	jobs int // goroutines
	// whole: files are read at once rather than streamed (for CRDs,
	// which are large documents that must be held whole anyway)
	whole bool
	// ready, when set, is closed once handle can use the documents: until
	// then all goroutines but one (which leave a core to what readies
	// them) decode up to ahead documents each and hold them, so that
	// decoding goes on while the CRDs load, within a small bound of
	// memory (a decoded object is a few kilobytes); the others wait.
	ready <-chan struct{}
	ahead int
}

// decode decodes every document of paths as opts says and passes each
// decoded document to handle, from its goroutines.
func (c *checker) decode(paths []string, opts decoding, seq *int, handle func(document)) {
	tasks := make(chan task, 64) // chunks share the blocks they were read in
	var wg sync.WaitGroup
	for w := 0; w < opts.jobs; w++ {
		ahead := opts.ahead
		if w > 0 && w == opts.jobs-1 {
			ahead = 0
		}
		wg.Go(func() {
			ready := opts.ready
			var held []document
			flush := func() {
				if ready == nil {
					return
				}
				<-ready
				ready = nil
				for _, d := range held {
					handle(d)
				}
				held = nil
			}
			take := func(d document) {
				if ready != nil {
					select {
					case <-ready:
					default:
						if len(held) < ahead {
							held = append(held, d)
							if h := testHooks.held; h != nil {
								h(len(held))
							}
							return
						}
					}
					flush()
				}
				handle(d)
			}
			for t := range tasks {
				decodeChunk(t.file, t.chunk, t.index, t.seq, take)
			}
			flush()
		})
	}
	c.readManifests(paths, opts.whole, tasks, seq)
	close(tasks)
	wg.Wait()
}

// run checks everything and returns the outcomes in input order and every
// CRD, -crds ones first.
func (c *checker) run() ([]outcome, []*crdEntry) {
	c.crdReady = make(chan struct{})
	seq := 0
	go func() {
		defer close(c.crdReady)
		c.crds = c.loadCRDs()
	}()
	oldSeq := 1 << 40
	if len(c.opts.oldPaths) > 0 {
		c.olds = c.loadOld(&oldSeq)
	}

	c.decode(c.opts.files, decoding{jobs: c.opts.jobs, ready: c.crdReady, ahead: decodeAhead}, &seq, c.handle)
	<-c.crdReady
	if h := testHooks.checked; h != nil {
		h() // every object of a -crds CRD is checked
	}

	// The CRDs of the manifests serve the objects no -crds CRD serves.
	sortEntries(c.streamCRDs)
	all := newCatalog()
	all.add(c.crds.crds...)
	all.add(c.streamCRDs...)
	sort.Slice(c.pending, func(i, j int) bool { return less(&c.pending[i], &c.pending[j]) })
	parallel(len(c.pending), c.opts.jobs, func(i int) {
		c.record(c.check(all, c.pending[i]))
	})
	c.pending = nil

	// Every CRD is reported, used or not.
	parallel(len(all.crds), c.opts.jobs, func(i int) { all.crds[i].errs() })
	kept := c.outcomes[:0]
	for i := range c.outcomes {
		o := &c.outcomes[i]
		o.settle()
		if c.countOnly && o.status == statusAccepted && len(o.warnings) == 0 {
			c.accepted++
			continue
		}
		kept = append(kept, *o)
	}
	c.outcomes = kept
	sort.Slice(c.outcomes, func(i, j int) bool { return less(&c.outcomes[i].doc, &c.outcomes[j].doc) })
	return c.outcomes, all.crds
}

func less(a, b *document) bool {
	if a.seq != b.seq {
		return a.seq < b.seq
	}
	return a.item < b.item
}

// loadCRDs reads the CRDs under -crds: documents of other kinds are
// ignored.
func (c *checker) loadCRDs() *catalog {
	seq := -(1 << 40) // before the manifests
	cat := newCatalog()
	for _, e := range c.readCRDs(c.opts.crdPaths, &seq) {
		if e.doc.err != nil {
			// not YAML or JSON: an input error, as among the manifests
			c.record(outcome{doc: e.doc, status: statusError, problem: e.problem})
			continue
		}
		cat.add(e)
	}
	return cat
}

// readCRDs reads the CRDs of paths in input order: a document that is
// not YAML or JSON is an entry with the error as its problem, other
// documents are ignored.
func (c *checker) readCRDs(paths []string, seq *int) []*crdEntry {
	var (
		mu      sync.Mutex
		entries []*crdEntry
	)
	c.decode(paths, decoding{jobs: c.opts.jobs, whole: true}, seq, func(d document) {
		var e *crdEntry
		switch {
		case d.err != nil:
			e = &crdEntry{doc: d, problem: d.err.Error()}
		case d.json != nil:
			e = newCRDEntry(d, true, &c.cache)
		default:
			return
		}
		mu.Lock()
		entries = append(entries, e)
		mu.Unlock()
	})
	sortEntries(entries)
	return entries
}

// readObjects reads the objects of paths, in input order. Documents that
// cannot be decoded are recorded as input errors, their problem prefixed
// by errPrefix.
func (c *checker) readObjects(paths []string, seq *int, errPrefix string) []document {
	var docs []document
	var mu sync.Mutex
	c.decode(paths, decoding{jobs: c.opts.jobs}, seq, func(d document) {
		if d.err != nil {
			c.record(outcome{doc: d, status: statusError, problem: errPrefix + d.err.Error()})
			return
		}
		mu.Lock()
		docs = append(docs, d)
		mu.Unlock()
	})
	sort.Slice(docs, func(i, j int) bool { return less(&docs[i], &docs[j]) })
	return docs
}

// handle takes one decoded document of the manifests.
func (c *checker) handle(d document) {
	switch {
	case d.err != nil:
		c.record(outcome{doc: d, status: statusError, problem: d.err.Error()})
		return
	case d.json != nil:
		e := newCRDEntry(d, false, &c.cache)
		if e.def != nil {
			e.errs() // validated here, on a decoding goroutine
		}
		c.mu.Lock()
		c.streamCRDs = append(c.streamCRDs, e)
		c.mu.Unlock()
		return
	}
	av, _ := d.obj["apiVersion"].(string)
	kind, _ := d.obj["kind"].(string)
	<-c.crdReady
	if c.crds.find(av, kind) == nil && av != "" && kind != "" {
		c.mu.Lock()
		c.pending = append(c.pending, d)
		c.mu.Unlock()
		return
	}
	o := c.check(c.crds, d)
	c.record(o)
	if d.maps != nil && o.operation == "create" && o.status == statusAccepted && len(o.errs) == 0 && o.result == nil {
		// Nothing refers to the object any more: CreateOwned took it
		// and the outcome keeps none of its maps (its errors could).
		d.maps.reuse()
	}
}

// check runs the request the document stands for, with the CRD of cat
// that serves it: a create, or an update when -old has an old object for
// it.
func (c *checker) check(cat *catalog, d document) outcome {
	defer c.prog.add(1)
	o := outcome{doc: d, status: statusError}
	o.apiVersion, o.kind, o.namespace, o.name = identity(d.obj)
	var missing []string
	if o.apiVersion == "" {
		missing = append(missing, "apiVersion not set")
	}
	if o.kind == "" {
		missing = append(missing, "kind not set")
	}
	if len(missing) > 0 {
		// kubectl refuses to send it.
		o.problem = "error validating data: [" + strings.Join(missing, ", ") + "]"
		return o
	}
	e := cat.find(o.apiVersion, o.kind)
	if e == nil {
		if b, ok := c.checkBuiltin(o, d); ok {
			return b
		}
		o.status = statusUnchecked
		if isBuiltin(o.apiVersion) {
			o.problem = fmt.Sprintf("%s (%s) is not served by Kubernetes %s", o.kind, o.apiVersion, builtinRelease())
		} else {
			o.problem = fmt.Sprintf("no CRD in the input serves kind %q in version %q", o.kind, o.apiVersion)
		}
		return o
	}
	res, reason, pending := e.resolve(o.apiVersion, o.kind)
	if res == nil {
		o.status, o.problem = statusUnchecked, reason
		return o
	}
	if pending {
		f := o
		f.status, f.problem = statusUnchecked, e.rejectedReason(o.apiVersion, o.kind)
		o.speculative, o.ifRejected = e, &f
	}
	o.status = statusRejected

	var (
		result *crd.Result
		err    error
	)
	if old := c.olds.find(d.obj); old != nil {
		o.operation = "update"
		result, err = res.Update(c.ctx, withResourceVersion(d.obj, old), old)
	} else {
		o.operation = "create"
		// d.obj was decoded for this check alone: Create may use it.
		result, err = res.CreateOwned(c.ctx, d.obj)
	}
	if err != nil && len(result.Errors) == 0 || result.Object == nil {
		// refused before validation, or by storage
		var re *crd.RequestError
		if !errors.As(err, &re) {
			re = &crd.RequestError{Reason: crd.StatusReasonBadRequest, Message: err.Error()}
		}
		o.problem = re.Message
		o.message = requestError(string(re.Reason), o.operation, d.file, re.Message)
		return o
	}
	// a generated name or the default namespace
	_, _, ns, name := identity(result.Object)
	o.namespace, o.name = cmp.Or(ns, o.namespace), cmp.Or(name, o.name)
	o.errs, o.unknownFields, o.warnings = result.Errors, result.UnknownFields, result.Warnings
	if c.opts.showResult && len(o.errs) == 0 {
		o.result = result.Object // what the API server would store
	}
	return c.verdict(o, d.file)
}

// verdict ends the check of an object that decoded: with -strict, unknown
// fields refuse it (the strict decoder fails before validation);
// otherwise it is accepted when validation found nothing.
func (c *checker) verdict(o outcome, file string) outcome {
	if c.opts.strict && len(o.unknownFields) > 0 {
		o.problem, o.errs, o.result, o.warnings = strictDecodingError(o.apiVersion, o.kind, o.unknownFields), nil, nil, nil
		o.message = requestError("BadRequest", o.operation, file, o.problem)
		return o
	}
	if len(o.errs) == 0 {
		o.status = statusAccepted
	}
	return o
}

// withResourceVersion returns obj with the resourceVersion of old when it
// has none, as kubectl apply's read-modify-write sends it (the API server
// requires one on updates). obj is not modified.
func withResourceVersion(obj, old map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	if rv, _ := meta["resourceVersion"].(string); rv != "" {
		return obj
	}
	oldMeta, _ := old["metadata"].(map[string]any)
	rv, _ := oldMeta["resourceVersion"].(string)
	m := make(map[string]any, len(meta)+1)
	maps.Copy(m, meta)
	m["resourceVersion"] = cmp.Or(rv, "1") // "1": what the store reports for an object stored without one
	o := maps.Clone(obj)
	o["metadata"] = m
	return o
}

// objectKey identifies a stored object: group, kind, namespace, name.
type objectKey struct{ group, kind, namespace, name string }

// oldObjects are the stored objects given with -old, by key.
type oldObjects map[objectKey]map[string]any

// loadOld reads the objects of -old; of two with the same key the first
// is kept. Documents that cannot be decoded are reported as input errors.
func (c *checker) loadOld(seq *int) oldObjects {
	o := oldObjects{}
	for _, d := range c.readObjects(c.opts.oldPaths, seq, "in -old: ") {
		k := keyOf(d.obj)
		if _, dup := o[k]; !dup {
			o[k] = d.obj
		}
	}
	return o
}

// find returns the old object of obj, or nil.
func (o oldObjects) find(obj map[string]any) map[string]any {
	if o == nil {
		return nil
	}
	return o[keyOf(obj)]
}

// keyOf is obj's key; an object without namespace is in "default", as
// kubectl sends a namespaced one (a cluster-scoped object has none on
// either side).
func keyOf(obj map[string]any) objectKey {
	av, kind, ns, name := identity(obj)
	group, _ := splitAPIVersion(av)
	return objectKey{group, kind, cmp.Or(ns, "default"), name}
}

// parallel calls f(0), ..., f(n-1) from up to jobs goroutines and waits
// for them.
func parallel(n, jobs int, f func(i int)) {
	if jobs = min(jobs, n); jobs <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

// strictDecodingError is the API server's refusal of a body with unknown
// fields under strict field validation.
func strictDecodingError(apiVersion, kind string, unknown []string) string {
	_, version := splitAPIVersion(apiVersion)
	fields := make([]string, len(unknown))
	for i, f := range unknown {
		fields[i] = fmt.Sprintf("unknown field %q", f)
	}
	return fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s", kind, version, kind, strings.Join(fields, ", "))
}

// readInput reads one input: a file, or the standard input for "-", read
// once and shared by all who name it (-crds - and a manifest -, say).
func (c *checker) readInput(name string) ([]byte, error) {
	if name != stdinName {
		return os.ReadFile(name)
	}
	c.stdinOnce.Do(func() {
		if c.stdin != nil {
			c.stdinData, c.stdinErr = io.ReadAll(c.stdin)
		}
	})
	return c.stdinData, c.stdinErr
}
