package testserver

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/storage"
)

// revisions is the server's one resourceVersion counter, as etcd's revision
// is shared by all resources.
type revisions struct {
	rv atomic.Uint64

	mu     sync.Mutex
	change chan struct{} // closed at the next write; nil when nobody waits
}

func (r *revisions) next() uint64 { return r.rv.Add(1) }

// changed returns a channel closed at the next write of any resource.
func (r *revisions) changed() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.change == nil {
		r.change = make(chan struct{})
	}
	return r.change
}

// wrote wakes those waiting for a write.
func (r *revisions) wrote() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.change != nil {
		close(r.change)
		r.change = nil
	}
}

// memStore is a storage.Interface in memory: the objects of one resource,
// keyed as etcd keys them, with a log of recent events for watches that
// start at a resourceVersion. Objects are *unstructured.Unstructured.
type memStore struct {
	revs     *revisions
	versions storage.APIObjectVersioner
	newFunc  func() runtime.Object
	// history is the number of events kept for watches from a past
	// resourceVersion; an older one gets 410 Gone.
	history  int
	bookmark time.Duration

	mu        sync.RWMutex
	objs      map[string]*unstructured.Unstructured
	events    []memEvent
	compacted uint64 // events at or below it are gone
	watchers  map[*memWatcher]struct{}
}

type memEvent struct {
	typ  watch.EventType
	key  string
	rv   uint64
	obj  *unstructured.Unstructured
	prev *unstructured.Unstructured // for MODIFIED and DELETED
}

func newMemStore(revs *revisions, newFunc func() runtime.Object, history int, bookmark time.Duration) *memStore {
	return &memStore{
		revs:     revs,
		newFunc:  newFunc,
		history:  history,
		bookmark: bookmark,
		objs:     map[string]*unstructured.Unstructured{},
		watchers: map[*memWatcher]struct{}{},
	}
}

var _ storage.Interface = (*memStore)(nil)

func (s *memStore) Versioner() storage.Versioner { return s.versions }

func asUnstructured(obj runtime.Object) (*unstructured.Unstructured, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("testserver storage holds *unstructured.Unstructured, not %T", obj)
	}
	return u, nil
}

// copyInto sets out to a deep copy of u; a nil out is left alone.
func copyInto(u *unstructured.Unstructured, out runtime.Object) error {
	if out == nil {
		return nil
	}
	o, err := asUnstructured(out)
	if err != nil {
		return err
	}
	o.Object = deepCopyMap(u.Object)
	return nil
}

func (s *memStore) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	u, err := asUnstructured(obj)
	if err != nil {
		return err
	}
	if rv, _ := s.versions.ObjectResourceVersion(obj); rv != 0 {
		return storage.ErrResourceVersionSetOnCreate
	}
	c := &unstructured.Unstructured{Object: deepCopyMap(u.Object)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.objs[key]; ok {
		return storage.NewKeyExistsError(key, 0)
	}
	rv := s.revs.next()
	c.SetResourceVersion(fmt.Sprint(rv))
	s.objs[key] = c
	s.record(memEvent{typ: watch.Added, key: key, rv: rv, obj: c})
	return copyInto(c, out)
}

func (s *memStore) Delete(ctx context.Context, key string, out runtime.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc, cachedExistingObject runtime.Object, opts storage.DeleteOptions) error {
	for {
		s.mu.RLock()
		cur, ok := s.objs[key]
		s.mu.RUnlock()
		if !ok {
			return storage.NewKeyNotFoundError(key, 0)
		}
		if preconditions != nil {
			if err := preconditions.Check(key, cur); err != nil {
				return err
			}
		}
		if err := validateDeletion(ctx, cur.DeepCopy()); err != nil {
			return err
		}
		s.mu.Lock()
		if s.objs[key] != cur {
			s.mu.Unlock()
			continue
		}
		delete(s.objs, key)
		rv := s.revs.next()
		gone := &unstructured.Unstructured{Object: deepCopyMap(cur.Object)}
		gone.SetResourceVersion(fmt.Sprint(rv))
		s.record(memEvent{typ: watch.Deleted, key: key, rv: rv, obj: gone, prev: cur})
		s.mu.Unlock()
		return copyInto(gone, out)
	}
}

func (s *memStore) Get(ctx context.Context, key string, opts storage.GetOptions, out runtime.Object) error {
	s.mu.RLock()
	cur, ok := s.objs[key]
	s.mu.RUnlock()
	if !ok {
		if opts.IgnoreNotFound {
			o, err := asUnstructured(out)
			if err != nil {
				return err
			}
			o.Object = nil
			return nil
		}
		return storage.NewKeyNotFoundError(key, 0)
	}
	return copyInto(cur, out)
}

// inScope tells whether key is the key asked for or, recursive, under it.
func inScope(key, prefix string, recursive bool) bool {
	if !recursive {
		return key == prefix
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return strings.HasPrefix(key, prefix)
}

// Texts of etcd3's store for lists at a compacted resourceVersion.
const (
	listExpired          = "The resourceVersion for the provided list is too old."
	inconsistentContinue = "The provided continue parameter is too old to display a consistent list result. " +
		"You can start a new list without the continue parameter, or use the continue token in this response to " +
		"retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - " +
		"objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."
)

// GetList lists as etcd3's store does: at the latest revision, or at the
// revision a continue token or an exact resourceVersion names (rebuilt from
// the event log; 410 Gone once it is compacted, with a token to continue
// at the latest revision for a continued list); limit cuts the list, with a
// continue token and, without selectors, the count of the items left.
func (s *memStore) GetList(ctx context.Context, key string, opts storage.ListOptions, listObj runtime.Object) error {
	list, ok := listObj.(*unstructured.UnstructuredList)
	if !ok {
		return fmt.Errorf("testserver storage lists into *unstructured.UnstructuredList, not %T", listObj)
	}
	keyPrefix := key
	if opts.Recursive && !strings.HasSuffix(keyPrefix, "/") {
		keyPrefix += "/"
	}
	withRev, continueKey, err := storage.ValidateListOptions(keyPrefix, s.versions, opts)
	if err != nil {
		return err
	}
	s.mu.RLock()
	cur := s.revs.rv.Load()
	var snapshot map[string]*unstructured.Unstructured
	switch {
	case withRev == 0:
		if opts.ResourceVersion != "" {
			// At least the resourceVersion asked for.
			min, err := s.versions.ParseResourceVersion(opts.ResourceVersion)
			if err != nil {
				s.mu.RUnlock()
				return apierrors.NewBadRequest(fmt.Sprintf("invalid resource version: %v", err))
			}
			if min > cur {
				s.mu.RUnlock()
				return storage.NewTooLargeResourceVersionError(min, cur, 0)
			}
		}
		withRev = int64(cur)
		snapshot = s.inScope(key, opts.Recursive)
	case uint64(withRev) > cur:
		s.mu.RUnlock()
		return storage.NewTooLargeResourceVersionError(uint64(withRev), cur, 0)
	case uint64(withRev) < s.compacted:
		s.mu.RUnlock()
		if opts.Predicate.Continue == "" {
			return apierrors.NewResourceExpired(listExpired)
		}
		st := apierrors.NewResourceExpired(inconsistentContinue)
		if st.ErrStatus.ListMeta.Continue, err = storage.EncodeContinue(continueKey, keyPrefix, -1); err != nil {
			return err
		}
		return st
	default:
		snapshot = s.stateAt(uint64(withRev), key, opts.Recursive)
	}
	s.mu.RUnlock()
	keys := make([]string, 0, len(snapshot))
	for k := range snapshot {
		if k >= continueKey {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	pred := opts.Predicate
	paging := pred.Limit > 0
	list.Items = list.Items[:0]
	var lastKey string
	hasMore := false
	for _, k := range keys {
		if paging && int64(len(list.Items)) >= pred.Limit {
			hasMore = true
			break
		}
		lastKey = k
		o := snapshot[k]
		match, err := pred.Matches(o)
		if err != nil {
			return err
		}
		if match {
			list.Items = append(list.Items, unstructured.Unstructured{Object: deepCopyMap(o.Object)})
		}
	}
	cont, remaining, err := storage.PrepareContinueToken(lastKey, keyPrefix, withRev, int64(len(keys)), hasMore, opts)
	if err != nil {
		return err
	}
	return s.versions.UpdateList(list, uint64(withRev), cont, remaining)
}

// inScope returns the objects under key. s.mu is held.
func (s *memStore) inScope(key string, recursive bool) map[string]*unstructured.Unstructured {
	out := map[string]*unstructured.Unstructured{}
	for k, o := range s.objs {
		if inScope(k, key, recursive) {
			out[k] = o
		}
	}
	return out
}

// stateAt returns the objects under key as they were at revision rv, not
// below the compacted one: the current ones with the events after rv
// undone. s.mu is held.
func (s *memStore) stateAt(rv uint64, key string, recursive bool) map[string]*unstructured.Unstructured {
	out := s.inScope(key, recursive)
	for i := len(s.events) - 1; i >= 0 && s.events[i].rv > rv; i-- {
		e := s.events[i]
		if !inScope(e.key, key, recursive) {
			continue
		}
		if e.prev == nil {
			delete(out, e.key)
		} else {
			out[e.key] = e.prev
		}
	}
	return out
}

func (s *memStore) GuaranteedUpdate(ctx context.Context, key string, destination runtime.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, cachedExistingObject runtime.Object) error {
	for {
		s.mu.RLock()
		cur, ok := s.objs[key]
		s.mu.RUnlock()
		var in *unstructured.Unstructured
		var curRV uint64
		if ok {
			in = &unstructured.Unstructured{Object: deepCopyMap(cur.Object)}
			curRV, _ = s.versions.ObjectResourceVersion(cur)
		} else {
			if !ignoreNotFound {
				return storage.NewKeyNotFoundError(key, 0)
			}
			in = &unstructured.Unstructured{}
		}
		if preconditions != nil {
			if err := preconditions.Check(key, in); err != nil {
				return err
			}
		}
		outObj, _, err := tryUpdate(in, storage.ResponseMeta{ResourceVersion: curRV})
		if err != nil {
			return err
		}
		out, err := asUnstructured(outObj)
		if err != nil {
			return err
		}
		s.mu.Lock()
		if now, still := s.objs[key]; now != cur || still != ok {
			s.mu.Unlock()
			continue
		}
		if ok && equalIgnoringRV(cur, out) {
			s.mu.Unlock()
			return copyInto(cur, destination)
		}
		c := &unstructured.Unstructured{Object: deepCopyMap(out.Object)}
		rv := s.revs.next()
		c.SetResourceVersion(fmt.Sprint(rv))
		s.objs[key] = c
		if ok {
			s.record(memEvent{typ: watch.Modified, key: key, rv: rv, obj: c, prev: cur})
		} else {
			s.record(memEvent{typ: watch.Added, key: key, rv: rv, obj: c})
		}
		s.mu.Unlock()
		return copyInto(c, destination)
	}
}

// equalIgnoringRV tells whether an update changes nothing, as etcd's store
// skips writing an unchanged object.
func equalIgnoringRV(a, b *unstructured.Unstructured) bool {
	ac := deepCopyMap(a.Object)
	bc := deepCopyMap(b.Object)
	unstructured.RemoveNestedField(ac, "metadata", "resourceVersion")
	unstructured.RemoveNestedField(bc, "metadata", "resourceVersion")
	return equalJSON(ac, bc)
}

func (s *memStore) Stats(ctx context.Context) (storage.Stats, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return storage.Stats{ObjectCount: int64(len(s.objs))}, nil
}

func (s *memStore) ReadinessCheck() error { return nil }

func (s *memStore) RequestWatchProgress(ctx context.Context) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rv := s.revs.rv.Load()
	for w := range s.watchers {
		if w.bookmarks {
			w.push(watch.Event{Type: watch.Bookmark, Object: s.bookmarkObject(rv, false)})
		}
	}
	return nil
}

func (s *memStore) GetCurrentResourceVersion(ctx context.Context) (uint64, error) {
	return s.revs.rv.Load(), nil
}

func (s *memStore) EnableResourceSizeEstimation(storage.KeysFunc) error { return nil }

func (s *memStore) CompactRevision() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(s.compacted)
}

// compact forgets every event so far: a watch from an earlier
// resourceVersion gets 410 Gone.
func (s *memStore) compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compacted = s.revs.rv.Load()
	s.events = nil
}

// record appends an event to the log and sends it to the watchers. s.mu is
// held.
func (s *memStore) record(e memEvent) {
	defer s.revs.wrote()
	s.events = append(s.events, e)
	if over := len(s.events) - s.history; over > 0 {
		s.compacted = s.events[over-1].rv
		s.events = append(s.events[:0:0], s.events[over:]...)
	}
	for w := range s.watchers {
		w.send(e)
	}
}

func (s *memStore) bookmarkObject(rv uint64, initialEventsEnd bool) runtime.Object {
	o := s.newFunc()
	u, ok := o.(*unstructured.Unstructured)
	if !ok {
		return o
	}
	u.SetResourceVersion(fmt.Sprint(rv))
	if initialEventsEnd {
		u.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	}
	return u
}

func (s *memStore) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	from, err := s.versions.ParseResourceVersion(opts.ResourceVersion)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	w := &memWatcher{
		store:     s,
		key:       key,
		recursive: opts.Recursive,
		pred:      opts.Predicate,
		bookmarks: opts.Predicate.AllowWatchBookmarks,
		result:    make(chan watch.Event),
		stop:      make(chan struct{}),
		wake:      make(chan struct{}, 1),
	}
	initial := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	s.mu.Lock()
	cur := s.revs.rv.Load()
	switch {
	case from == 0 || initial:
		// The current state as ADDED events, then what follows.
		keys := make([]string, 0, len(s.objs))
		for k := range s.objs {
			if inScope(k, key, opts.Recursive) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			w.send(memEvent{typ: watch.Added, key: k, obj: s.objs[k]})
		}
		if initial && w.bookmarks {
			w.push(watch.Event{Type: watch.Bookmark, Object: s.bookmarkObject(cur, true)})
		}
	case from < s.compacted:
		s.mu.Unlock()
		return nil, apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", from, s.compacted+1))
	default:
		for _, e := range s.events {
			if e.rv > from {
				w.send(e)
			}
		}
	}
	s.watchers[w] = struct{}{}
	s.mu.Unlock()
	go w.run(ctx)
	return w, nil
}

// memWatcher is one watch: events queue without bound (a writer never
// waits for a reader) and are delivered in order.
type memWatcher struct {
	store     *memStore
	key       string
	recursive bool
	pred      storage.SelectionPredicate
	bookmarks bool
	result    chan watch.Event
	stop      chan struct{}
	stopOnce  sync.Once
	wake      chan struct{}

	mu    sync.Mutex
	queue []watch.Event
}

// send queues the watch event of e, as the predicate sees it: an update
// that makes an object match is ADDED, one that makes it stop matching
// DELETED.
func (w *memWatcher) send(e memEvent) {
	if !inScope(e.key, w.key, w.recursive) {
		return
	}
	match := func(u *unstructured.Unstructured) bool {
		if u == nil {
			return false
		}
		ok, err := w.pred.Matches(u)
		return err == nil && ok
	}
	typ := e.typ
	obj := e.obj
	switch e.typ {
	case watch.Added:
		if !match(e.obj) {
			return
		}
	case watch.Modified:
		now, before := match(e.obj), match(e.prev)
		switch {
		case now && !before:
			typ = watch.Added
		case !now && before:
			typ = watch.Deleted
		case !now && !before:
			return
		}
	case watch.Deleted:
		if !match(e.prev) {
			return
		}
	}
	w.push(watch.Event{Type: typ, Object: &unstructured.Unstructured{Object: deepCopyMap(obj.Object)}})
}

func (w *memWatcher) push(e watch.Event) {
	w.mu.Lock()
	w.queue = append(w.queue, e)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *memWatcher) run(ctx context.Context) {
	defer close(w.result)
	defer w.Stop()
	var tick <-chan time.Time
	if w.bookmarks && w.store.bookmark > 0 {
		t := time.NewTicker(w.store.bookmark)
		defer t.Stop()
		tick = t.C
	}
	for {
		w.mu.Lock()
		q := w.queue
		w.queue = nil
		w.mu.Unlock()
		for _, e := range q {
			select {
			case w.result <- e:
			case <-w.stop:
				return
			case <-ctx.Done():
				return
			}
		}
		select {
		case <-w.wake:
		case <-tick:
			// Under the store's lock, no event of a lower resourceVersion
			// can still be on its way.
			w.store.mu.RLock()
			w.push(watch.Event{Type: watch.Bookmark, Object: w.store.bookmarkObject(w.store.revs.rv.Load(), false)})
			w.store.mu.RUnlock()
		case <-w.stop:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (w *memWatcher) Stop() {
	w.stopOnce.Do(func() {
		close(w.stop)
		w.store.mu.Lock()
		delete(w.store.watchers, w)
		w.store.mu.Unlock()
	})
}

func (w *memWatcher) ResultChan() <-chan watch.Event { return w.result }

// keys returns the keys of the stored objects.
func (s *memStore) keys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.objs))
	for k := range s.objs {
		out = append(out, k)
	}
	return out
}

// deleting tells whether the object under key exists and has a
// deletionTimestamp, without copying it.
func (s *memStore) deleting(key string) (exists, deleting bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	o, ok := s.objs[key]
	if !ok {
		return false, false
	}
	return true, o.GetDeletionTimestamp() != nil
}
