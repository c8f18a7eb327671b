package testserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/sets"
	genericapifilters "k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/endpoints/request"
	genericfilters "k8s.io/apiserver/pkg/server/filters"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// An Option configures Start.
type Option func(*config)

type config struct {
	crdFiles          []string
	crds              []*crdschema.CustomResourceDefinition
	kubernetesVersion crdschema.KubernetesVersion
	address           string
	history           int
	bookmark          time.Duration
	now               func() time.Time
	objects           []map[string]any
}

// WithObjects stores objects when the server starts, as given, as if they
// were in etcd: they are not validated (a test of ratcheting can start from
// an object the schema refuses); reads return custom resources pruned and
// defaulted, as the API server decodes them from etcd. Their kinds must be served: built-in
// kinds or the kinds of the CRDs given to Start. A resourceVersion they
// carry is replaced; a namespaced object without a namespace goes to
// "default". The objects are not modified.
func WithObjects(objs ...map[string]any) Option {
	return func(c *config) { c.objects = append(c.objects, objs...) }
}

// WithCRDFiles serves the CRDs of files and folders: YAML (several documents
// each) or JSON; documents of other kinds are skipped. A folder contributes
// its files ending in .yaml, .yml or .json, not its subfolders.
func WithCRDFiles(paths ...string) Option {
	return func(c *config) { c.crdFiles = append(c.crdFiles, paths...) }
}

// WithCRDs serves CRDs given as crdschema values. They are not modified.
func WithCRDs(crds ...*crdschema.CustomResourceDefinition) Option {
	return func(c *config) { c.crds = append(c.crds, crds...) }
}

// WithKubernetesVersion makes the server answer as the API server of the
// Kubernetes release v (crdschema.ParseKubernetesVersion; the zero value
// is 1.37):
// CRDs are validated, and objects created and updated, with that release's
// CEL environment, cost estimates, checks and error texts; /version reports
// it.
func WithKubernetesVersion(v crdschema.KubernetesVersion) Option {
	return func(c *config) { c.kubernetesVersion = v }
}

// WithAddress sets the address the server listens on; the default is
// 127.0.0.1:0, a free port of the loopback interface.
func WithAddress(addr string) Option {
	return func(c *config) { c.address = addr }
}

// WithWatchHistory sets how many events of each resource the server keeps
// for watches that start at a past resourceVersion (the default is 10000);
// a watch from an older resourceVersion gets 410 Gone, as from a compacted
// etcd.
func WithWatchHistory(events int) Option {
	return func(c *config) { c.history = events }
}

// WithBookmarkInterval sets how often a watch that allows bookmarks gets one
// (the default is a minute, as the API server's watch cache sends them).
func WithBookmarkInterval(d time.Duration) Option {
	return func(c *config) { c.bookmark = d }
}

// WithClock sets the clock of the printer columns' ages; the default is
// time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.now = now }
}

// Server is an in-process Kubernetes API server for tests: HTTPS on the
// loopback interface, objects in memory, custom resources served through
// crdschema's pipeline. Its methods are safe for concurrent use.
type Server struct {
	kubernetesVersion crdschema.KubernetesVersion
	cache             *celrules.Cache
	revs              *revisions
	history           int
	bookmark          time.Duration
	now               func() time.Time
	resolver          *request.RequestInfoFactory

	mu    sync.RWMutex
	kinds map[schema.GroupResource]*resourceKind
	// crdKinds are the kinds of the CRDs, by CRD name.
	crdKinds map[string]*resourceKind
	crds     *resourceKind
	ns       *resourceKind

	listener net.Listener
	http     *http.Server
	url      string
	caPEM    []byte
	done     chan struct{}
	// ctx ends when the server closes; the work of the controllers it
	// stands in for (finalizing CRDs and namespaces) stops with it.
	ctx    context.Context
	cancel context.CancelFunc
}

// Start starts a server with the given CRDs and returns it, ready. A CRD the
// API server would refuse fails Start with the API server's error; so do two
// CRDs of the same name or serving the same resource. Stop the server with
// Close.
//
// The CRDs of WithCRDFiles are parsed and validated once per process for
// each distinct file content and release, so that starting a server per
// test costs milliseconds; CRDs given by WithCRDs are validated at every
// start, since their caller may change them.
func Start(opts ...Option) (*Server, error) {
	cfg := config{address: "127.0.0.1:0", history: 10000, bookmark: time.Minute, now: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.history < 1 {
		return nil, fmt.Errorf("testserver: WithWatchHistory(%d): at least one event must be kept", cfg.history)
	}
	s := &Server{
		kubernetesVersion: cfg.kubernetesVersion,
		cache:             new(celrules.Cache),
		revs:              new(revisions),
		history:           cfg.history,
		bookmark:          cfg.bookmark,
		now:               cfg.now,
		resolver: &request.RequestInfoFactory{
			APIPrefixes:          sets.NewString("api", "apis"),
			GrouplessAPIPrefixes: sets.NewString("api"),
		},
		kinds:    map[schema.GroupResource]*resourceKind{},
		crdKinds: map[string]*resourceKind{},
		done:     make(chan struct{}),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.installBuiltins()
	ctx := context.Background()
	defs, err := s.prepareCRDs(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("testserver: %w", err)
	}
	for _, d := range defs {
		if err := s.createCRD(ctx, d); err != nil {
			if d.source != "" {
				return nil, fmt.Errorf("testserver: %s: %w", d.source, err)
			}
			return nil, fmt.Errorf("testserver: %w", err)
		}
	}
	for i, o := range cfg.objects {
		if err := s.storeAsGiven(ctx, o); err != nil {
			return nil, fmt.Errorf("testserver: WithObjects: object %d: %w", i, err)
		}
	}
	if err := s.listen(cfg.address); err != nil {
		return nil, fmt.Errorf("testserver: %w", err)
	}
	return s, nil
}

type sourcedCRD struct {
	def    *crdschema.CustomResourceDefinition
	source string
	// cached is what is computed once from def: for a CRD read from a file,
	// the process's memo; for one given as a value, which its caller may
	// change between starts, an entry of this start only.
	cached *cachedCRD
	// checked tells that prepareCRDs validated def, with errs.
	checked bool
	errs    crdschema.ErrorList
}

// prepareCRDs reads the CRDs of the options and does, in parallel, all
// that Start needs of each before it serves them: parsing, validation at
// the server's release and the stored form. Start's wall time is that of
// its longest chain, so a file's CRDs are validated by the goroutine that
// parsed them, as soon as it has, and the largest files start first: the
// ten Gateway API files range from 15 KB to 430 KB, and the HTTPRoute file
// alone is a third of the work. Errors are reported in the order of the
// options, as if the files were read one by one.
func (s *Server) prepareCRDs(ctx context.Context, cfg config) ([]sourcedCRD, error) {
	var files []string
	for _, p := range cfg.crdFiles {
		fs, err := crdFiles(p)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	for i, d := range cfg.crds {
		if d == nil {
			return nil, fmt.Errorf("WithCRDs: CRD %d is nil", i)
		}
	}
	type unit struct {
		file string // "" for cfg.crds[given]
		size int64
		crds []sourcedCRD
		err  error
	}
	units := make([]unit, len(files)+len(cfg.crds))
	for i, f := range files {
		units[i].file = f
		if st, err := os.Stat(f); err == nil {
			units[i].size = st.Size()
		}
	}
	for i, d := range cfg.crds {
		u := &units[len(files)+i]
		u.crds = []sourcedCRD{{def: d, cached: &cachedCRD{def: d}}}
		u.size = -1 // work of unknown size: after the files
	}
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return units[order[a]].size > units[order[b]].size })
	inParallel(len(order), func(k int) {
		u := &units[order[k]]
		if u.file != "" {
			data, err := os.ReadFile(u.file)
			if err != nil {
				u.err = fmt.Errorf("reading CRDs: %w", err)
				return
			}
			cached, err := readCRDsOnce(data)
			if err != nil {
				u.err = fmt.Errorf("reading CRDs from %s: %w", u.file, err)
				return
			}
			for _, c := range cached {
				u.crds = append(u.crds, sourcedCRD{def: c.def, source: u.file, cached: c})
			}
		}
		for i := range u.crds {
			s.prepareCRD(ctx, &u.crds[i])
		}
	})
	var out []sourcedCRD
	for i := range units {
		if units[i].err != nil {
			return nil, units[i].err
		}
		out = append(out, units[i].crds...)
	}
	return out, nil
}

// prepareCRD validates d at the server's release unless the process has
// before, and makes its stored form if it is valid.
func (s *Server) prepareCRD(ctx context.Context, d *sourcedCRD) {
	if !d.cached.validated(s.kubernetesVersion) {
		d.errs = validateCRD(ctx, d.def, s.kubernetesVersion, s.cache)
		d.checked = true
		if len(d.errs) > 0 {
			return
		}
		d.cached.markValid(s.kubernetesVersion)
	}
	d.cached.makeStored()
}

// inParallel runs f(0) to f(n-1) on up to GOMAXPROCS goroutines, in order
// of i as goroutines become free.
func inParallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

func crdFiles(p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("reading CRDs: %w", err)
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, fmt.Errorf("reading CRDs: %w", err)
	}
	var files []string
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
	}
	sort.Strings(files)
	return files, nil
}

// requestTimeout is kube-apiserver's default --request-timeout.
const requestTimeout = 60 * time.Second

// longRunning tells the requests that the request timeout does not bound,
// as kube-apiserver's configuration tells them.
var longRunning = genericfilters.BasicLongRunningRequestCheck(sets.NewString("watch", "proxy"), sets.NewString("attach", "exec", "proxy", "log", "portforward"))

// processCert is the certificate of every server of the process, made by
// the first: a key and a signature cost a start about a millisecond, and the
// servers of a test process need not tell themselves apart.
var processCert struct {
	once  sync.Once
	cert  tls.Certificate
	caPEM []byte
	err   error
}

func (s *Server) listen(addr string) error {
	processCert.once.Do(func() { processCert.cert, processCert.caPEM, processCert.err = selfSignedCert() })
	cert, caPEM, err := processCert.cert, processCert.caPEM, processCert.err
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s.listener = l
	s.caPEM = caPEM
	s.url = "https://" + l.Addr().String()
	var h http.Handler = http.HandlerFunc(s.serve)
	// kube-apiserver's request timeout (--request-timeout, 60s by default,
	// or the request's shorter ?timeout=): a request that has not been
	// answered by then, such as one whose client stops sending its body,
	// gets the 504 of the timeout filter. Watches are long-running.
	h = genericfilters.WithTimeoutForNonLongRunningRequests(h, longRunning)
	h = genericapifilters.WithRequestDeadline(h, nil, nil, longRunning, metaCodecs, requestTimeout)
	h = genericapifilters.WithWarningRecorder(h)
	h = genericapifilters.WithRequestInfo(h, s.resolver)
	h = genericapifilters.WithAuditInit(h)
	h = genericfilters.WithPanicRecovery(h, s.resolver)
	s.http = &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 30 * time.Second,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}, MinVersion: tls.VersionTLS12},
		ErrorLog:          nil,
	}
	go func() {
		defer close(s.done)
		_ = s.http.ServeTLS(l, "", "")
	}()
	return nil
}

// selfSignedCert makes a certificate for 127.0.0.1, ::1 and localhost.
func selfSignedCert() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "testserver"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	return cert, certPEM, err
}

// URL returns the server's address, https://127.0.0.1:<port>.
func (s *Server) URL() string { return s.url }

// RESTConfig returns a client configuration for the server: its URL and
// certificate authority. No credentials are needed; every request acts as
// a cluster administrator.
func (s *Server) RESTConfig() *rest.Config {
	return &rest.Config{
		Host:            s.url,
		TLSClientConfig: rest.TLSClientConfig{CAData: append([]byte(nil), s.caPEM...)},
		QPS:             -1,
	}
}

// Kubeconfig returns a kubeconfig file whose current context is the server.
func (s *Server) Kubeconfig() ([]byte, error) {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["testserver"] = &clientcmdapi.Cluster{Server: s.url, CertificateAuthorityData: append([]byte(nil), s.caPEM...)}
	cfg.AuthInfos["testserver"] = &clientcmdapi.AuthInfo{Token: "testserver"} // any token: the server does not authenticate
	cfg.Contexts["testserver"] = &clientcmdapi.Context{Cluster: "testserver", AuthInfo: "testserver", Namespace: "default"}
	cfg.CurrentContext = "testserver"
	return clientcmd.Write(*cfg)
}

// WriteKubeconfig writes Kubeconfig to path, readable by its owner only.
func (s *Server) WriteKubeconfig(path string) error {
	data, err := s.Kubeconfig()
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}

// Compact forgets the event history of every resource, as a compaction of
// etcd does: a watch from a resourceVersion before now gets 410 Gone.
func (s *Server) Compact() {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, k := range s.kinds {
		k.store.compact()
	}
}

// Close stops the server: it closes its listener and every connection,
// which ends the watches.
func (s *Server) Close() error {
	s.cancel()
	if s.http == nil {
		return nil
	}
	err := s.http.Close()
	<-s.done
	return err
}

// generateName appends the API server's random suffix to base.
func (s *Server) generateName(base string) string {
	const maxNameLength, randomLength = 63, 5
	if len(base) > maxNameLength-randomLength {
		base = base[:maxNameLength-randomLength]
	}
	return base + utilrand.String(randomLength)
}

// checkNamespace refuses a create in a namespace that does not exist or is
// being deleted, as the NamespaceLifecycle admission plugin does, and a
// create of a custom resource whose CRD is being deleted, as the custom
// resource handler does.
func (s *Server) checkNamespace(ctx context.Context, k *resourceKind, name string) error {
	if k.def != nil {
		if _, deleting := s.crds.store.deleting("/" + crdGR.Group + "/" + crdGR.Resource + "/" + k.def.Name); deleting {
			return apierrors.NewForbidden(k.gr, name, fmt.Errorf("create not allowed while custom resource definition is terminating"))
		}
	}
	if !k.namespaced {
		return nil
	}
	ns := requestNamespace(ctx)
	if ns == "" {
		return nil
	}
	exists, deleting := s.ns.store.deleting("//namespaces/" + ns)
	if !exists {
		return apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, ns)
	}
	if deleting {
		err := apierrors.NewForbidden(k.gr, name, fmt.Errorf("unable to create new content in namespace %s because it is being terminated", ns))
		err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
			Type:    "NamespaceTerminating",
			Message: fmt.Sprintf("namespace %s is being terminated", ns),
			Field:   "metadata.namespace",
		})
		return err
	}
	return nil
}

// storeAsGiven stores an initial object of a served kind.
func (s *Server) storeAsGiven(ctx context.Context, obj map[string]any) error {
	u := &unstructured.Unstructured{Object: deepCopyMap(obj)}
	gvk := u.GroupVersionKind()
	if gvk.Kind == "" || gvk.Version == "" {
		return fmt.Errorf("no apiVersion or kind")
	}
	var k *resourceKind
	for _, c := range s.kinds {
		if c.gr.Group == gvk.Group && c.kind == gvk.Kind {
			k = c
		}
	}
	if k == nil || k.versions[gvk.Version] == nil {
		return fmt.Errorf("%s is not served", gvk)
	}
	if u.GetName() == "" {
		return fmt.Errorf("%s without a name", gvk)
	}
	key := "/" + k.gr.Group + "/" + k.gr.Resource
	if k.namespaced {
		if u.GetNamespace() == "" {
			u.SetNamespace("default")
		}
		key += "/" + u.GetNamespace()
	} else {
		u.SetNamespace("")
	}
	key += "/" + u.GetName()
	u.SetResourceVersion("")
	u.SetAPIVersion(schema.GroupVersion{Group: k.gr.Group, Version: k.storageVersion}.String())
	if err := k.store.Create(ctx, key, u, &unstructured.Unstructured{}, 0); err != nil {
		return err
	}
	return nil
}
