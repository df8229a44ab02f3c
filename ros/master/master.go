package master

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/peerlimit"
)

// Defaults for Options.
const (
	// DefaultNotifyTimeout bounds each call the master makes to a node.
	DefaultNotifyTimeout = 5 * time.Second
	// DefaultROSDistro is /rosdistro as roslaunch sets it.
	DefaultROSDistro = "noetic\n"
	// DefaultROSVersion is /rosversion as roslaunch sets it (the version of
	// Debian's ROS 1 communication packages).
	DefaultROSVersion = "1.15.15\n"
)

// maxHandling bounds the requests decoded, run and answered at once.
const maxHandling = 8

// ErrClosed is returned by Serve and Start after Close.
var ErrClosed = errors.New("ros master: closed")

// Options configures a Master. The zero value is usable.
type Options struct {
	// Logf receives diagnostic messages; nil discards them.
	Logf func(format string, args ...any)
	// Host is the host name or address advertised in URI. Empty means the
	// listener's address, or the machine's host name if the listener is on
	// an unspecified address (0.0.0.0 or ::).
	Host string
	// NotifyTimeout bounds each publisherUpdate, paramUpdate and shutdown
	// call to a node; zero means DefaultNotifyTimeout.
	NotifyTimeout time.Duration
	// RunID is /run_id; empty means a random UUID.
	RunID string
	// StateFile, when set, keeps the parameters and registrations across
	// restarts (persist.go): New starts from it, every change is written
	// to it.
	StateFile string
	// SweepEvery is how often the registered nodes are asked whether they
	// still run, the dead dropped (liveness.go); zero means
	// DefaultSweepEvery, negative never.
	SweepEvery time.Duration
	// Protect are node names (global: /frcd, /robot1/frcd) the master does
	// not hand to a node at another API while the node holding one
	// answers (liveness.go): the embedded master's own daemon's.
	Protect []string
}

// Master is an embedded ROS 1 master and parameter server. Create it with
// New, serve it with Serve or Start, and stop it with Close. All methods
// are safe for concurrent use.
type Master struct {
	logf     func(format string, args ...any)
	host     string
	notifier *notifier
	client   *Client
	pid      int
	persist  *persister // nil without Options.StateFile

	mu          sync.Mutex
	reg         *registry
	topicTypes  map[string]string
	params      map[string]any
	paramBytes  int // paramBytes(params), kept under MaxParamBytes
	typeBytes   int // what topicTypes take in the state file (admit.go)
	refused     atomic.Uint64
	peerRefused atomic.Uint64   // peers.go
	conns       *peerlimit.Pool // the server's connections (peers.go)
	bodyMu      sync.Mutex
	bodies      map[string]int           // request bodies being read, per remote address (peers.go)
	onBody      func(host string, n int) // tests: called with an address's new count of bodies
	handling    chan struct{}            // a slot per request being decoded, run and answered (ServeHTTP)
	waiting     atomic.Int32             // requests read, waiting for a slot
	dropped     atomic.Uint64            // nodes the liveness checks dropped (liveness.go)
	protect     map[string]bool
	guardMu     sync.Mutex
	guardSeen   map[string]guardEntry // protected name -> its holder's last answer
	evictMu     sync.Mutex            // one evictDead at a time
	evictGen    atomic.Uint64         // evictDead runs done
	lastEvict   time.Time             // when the last evictDead ran (under evictMu)
	skew        atomic.Int64          // added to time.Now by now: tests move the master's time
	ctx         context.Context       // ends at Close: the liveness checks
	cancel      context.CancelFunc
	sweepEvery  time.Duration
	sweepDone   chan struct{} // closed when sweepLoop ends; nil until Serve starts it
	uri         string
	srv         *http.Server
	closed      bool
	inflight    sync.WaitGroup // requests being handled
	serving     sync.WaitGroup // goroutines started by Start
}

// New returns a Master with /run_id, /rosdistro and /rosversion set.
func New(opts Options) *Master {
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	timeout := opts.NotifyTimeout
	if timeout <= 0 {
		timeout = DefaultNotifyTimeout
	}
	runID := opts.RunID
	if runID == "" {
		runID = newUUID()
	}
	transport := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: timeout}).DialContext,
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     30 * time.Second,
	}
	client := &Client{HTTP: &http.Client{Transport: transport}}
	m := &Master{
		logf:       logf,
		host:       opts.Host,
		client:     client,
		notifier:   newNotifier(client, timeout, logf),
		pid:        os.Getpid(),
		reg:        newRegistry(),
		handling:   make(chan struct{}, maxHandling),
		conns:      peerlimit.NewPool(MaxConns, MaxConnsPerAddr),
		bodies:     map[string]int{},
		topicTypes: map[string]string{},
		params: map[string]any{
			"run_id":     runID,
			"rosdistro":  DefaultROSDistro,
			"rosversion": DefaultROSVersion,
		},
	}
	m.paramBytes = paramBytes(m.params)
	m.ctx, m.cancel = context.WithCancel(context.Background())
	m.protect, m.guardSeen = map[string]bool{}, map[string]guardEntry{}
	for _, name := range opts.Protect {
		m.protect[resolveName(name, sep)] = true
	}
	m.startPersist(opts.StateFile)
	m.sweepEvery = opts.SweepEvery
	if m.sweepEvery == 0 {
		m.sweepEvery = DefaultSweepEvery
	}
	return m
}

// newUUID returns a random (version 4) UUID string.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; fall back to time.
		n := time.Now().UnixNano()
		for i := range b {
			b[i] = byte(n >> (8 * (i % 8)))
		}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Start listens on addr (for example "127.0.0.1:11311" or ":0") and serves
// in the background until Close.
func (m *Master) Start(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("ros master: listen on %s: %w", addr, err)
	}
	return m.StartOn(l)
}

// StartOn serves on l, which it then owns, in the background until Close:
// Start for a caller that listens first (the ROS bridge tries the
// master's port before it makes a master, which reads its state file).
func (m *Master) StartOn(l net.Listener) error {
	if err := m.setURI(l); err != nil {
		l.Close()
		return err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		l.Close()
		return ErrClosed
	}
	m.serving.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.serving.Done()
		if err := m.Serve(l); err != nil && !errors.Is(err, ErrClosed) {
			m.logf("ros master: serve: %v", err)
		}
	}()
	return nil
}

// setURI records the URI clients should use for listener l, once.
func (m *Master) setURI(l net.Listener) error {
	host, port, err := net.SplitHostPort(l.Addr().String())
	if err != nil {
		return fmt.Errorf("ros master: listener address: %w", err)
	}
	if m.host != "" {
		host = m.host
	} else if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if h, err := os.Hostname(); err == nil && h != "" {
			host = h
		} else {
			host = "localhost"
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.uri == "" {
		m.uri = "http://" + net.JoinHostPort(host, port) + "/"
	}
	return nil
}

// Serve serves the master's XML-RPC API on l until Close, which makes it
// return nil. It closes l.
func (m *Master) Serve(l net.Listener) error {
	if err := m.setURI(l); err != nil {
		l.Close()
		return err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		l.Close()
		return ErrClosed
	}
	if m.srv == nil {
		m.srv = &http.Server{
			Handler:           m,
			ReadHeaderTimeout: 5 * time.Second,
			ConnContext:       peerlimit.ConnContext,
			ReadTimeout:       30 * time.Second,
			WriteTimeout:      30 * time.Second,
			IdleTimeout:       2 * time.Minute,
		}
	}
	srv := m.srv
	if m.sweepDone == nil && m.sweepEvery > 0 {
		m.sweepDone = make(chan struct{})
		go m.sweepLoop(m.sweepEvery)
	}
	m.mu.Unlock()
	err := srv.Serve(m.limitListener(l))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ros master: serve: %w", err)
	}
	return nil
}

// URI returns the master's URI, http://host:port/, once it serves; empty
// before.
func (m *Master) URI() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.uri
}

// Close stops serving, drops connections, aborts notifications in flight
// and waits for the master's goroutines to end. It is idempotent.
func (m *Master) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	srv := m.srv
	m.mu.Unlock()
	var err error
	if srv != nil {
		if cerr := srv.Close(); cerr != nil {
			err = fmt.Errorf("ros master: close: %w", cerr)
		}
	}
	m.cancel()
	m.inflight.Wait()
	m.serving.Wait()
	m.mu.Lock()
	sweeping := m.sweepDone
	m.mu.Unlock()
	if sweeping != nil {
		<-sweeping
	}
	m.closePersist()
	m.notifier.close()
	if t, ok := m.client.HTTP.Transport.(*http.Transport); ok {
		t.CloseIdleConnections()
	}
	return err
}

// SetParam sets a parameter from inside the process, as setParam from
// caller "/" would, notifying subscribers. A relative key is taken as
// global. value may be any bool, integer, float, string, []byte, slice or
// string-keyed map of those; it is copied.
func (m *Master) SetParam(key string, value any) error {
	v, err := normalizeParam(value, 0)
	if err != nil {
		return fmt.Errorf("ros master: set %s: %w", key, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.setParamLocked(resolveName(key, sep), v, "", false); err != nil {
		return fmt.Errorf("ros master: set %s: %w", key, err)
	}
	return nil
}

// GetParam returns a copy of the parameter at key (a relative key is taken
// as global) and whether it is set.
func (m *Master) GetParam(key string) (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, err := paramGet(m.params, resolveName(key, sep))
	if err != nil {
		return nil, false
	}
	return copyTree(v), true
}

// setParamLocked stores value at the resolved key and queues paramUpdate
// notifications. m.mu must be held.
func (m *Master) setParamLocked(key string, value any, callerID string, ignoreCaller bool) error {
	delta, err := m.checkSet(key, value)
	if err != nil {
		return err
	}
	root, err := paramSet(m.params, key, value)
	if err != nil {
		return err
	}
	m.params, m.paramBytes = root, m.paramBytes+delta
	m.notifyParams(computeParamUpdates(m.reg.paramSubs, key, value, callerID, ignoreCaller))
	return nil
}

// notifyParams queues paramUpdate calls. m.mu must be held, so that
// notifications are queued in the order the changes happened.
func (m *Master) notifyParams(updates []paramUpdate) {
	for _, u := range updates {
		value := copyTree(u.value)
		for _, p := range u.subs {
			p, key := p, u.key
			m.notifier.enqueue(p.api, notification{
				key:    "paramUpdate\x00" + key,
				method: "paramUpdate",
				args:   []any{"/master", key, value},
				done: func(res any, err error) {
					if r, ok := res.([]any); ok && len(r) > 0 && r[0] == -1 {
						m.mu.Lock()
						m.reg.unregister(kindParamSubscriptions, key, p.id, p.api, "")
						m.mu.Unlock()
					}
				},
			})
		}
	}
}

// notifyTopic queues publisherUpdate calls to the subscribers of topic.
// m.mu must be held.
func (m *Master) notifyTopic(topic string) {
	pubs := m.reg.pubs.apis(topic)
	for _, api := range m.reg.subs.apis(topic) {
		m.notifier.enqueue(api.(string), notification{
			key:    "publisherUpdate\x00" + topic,
			method: "publisherUpdate",
			args:   []any{"/master", topic, pubs},
		})
	}
}

// handleBumped tells a node displaced by a namesake to shut down and the
// subscribers of its topics that it is gone. m.mu must be held.
func (m *Master) handleBumped(b *bumped, callerID string) {
	if b == nil {
		return
	}
	m.logf("ros master: new node registered as %s; shutting down the old one at %s", callerID, b.api)
	m.notifier.enqueue(b.api, notification{
		method: "shutdown",
		args:   []any{"/master", "[" + callerID + "] Reason: new node registered with same name"},
	})
	for _, t := range b.topics {
		m.notifyTopic(t)
	}
}

// ServeHTTP handles one XML-RPC request (any path, POST only).
func (m *Master) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		http.Error(w, "ros master closed", http.StatusServiceUnavailable)
		return
	}
	m.inflight.Add(1)
	m.mu.Unlock()
	defer m.inflight.Done()
	defer peerlimit.Serving(r.Context())() // busy: not closed to make room

	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "XML-RPC requires POST", http.StatusMethodNotAllowed)
		return
	}
	// The body first (at most MaxBodySize, within the server's read
	// timeout), then one of maxHandling slots for the work: decoding,
	// the call and its reply, each bounded, are done by at most
	// maxHandling requests at once, so concurrent large requests or
	// replies cost at most maxHandling times their bound. A slow sender
	// holds no slot.
	releaseBody, ok := m.takeBody(w, r)
	if !ok {
		return
	}
	defer releaseBody() // its buffer is held until the reply
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodySize))
	if err != nil {
		m.logf("ros master: bad request from %s: %v", r.RemoteAddr, err)
		http.Error(w, "request too large or unreadable", http.StatusRequestEntityTooLarge)
		return
	}
	m.waiting.Add(1)
	select {
	case m.handling <- struct{}{}:
		m.waiting.Add(-1)
		defer func() { <-m.handling }()
	case <-r.Context().Done():
		m.waiting.Add(-1)
		return
	}
	method, params, err := DecodeCall(bytes.NewReader(raw))
	var out bytes.Buffer
	if err != nil {
		m.logf("ros master: bad request from %s: %v", r.RemoteAddr, err)
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) || errors.Is(err, ErrTooLarge) {
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return
		}
		_ = EncodeFault(&out, -32700, "parse error: "+err.Error())
	} else if res, ok := m.dispatch(method, params, requestFrom(r)); ok {
		m.changed(method)
		if encodedLen(res, MaxReplyBytes-replyFrame) > MaxReplyBytes-replyFrame {
			res = m.tooLarge(method, r.RemoteAddr)
		}
		if err := EncodeResponse(&out, res); err != nil {
			out.Reset()
			_ = EncodeFault(&out, -32603, "internal error: "+err.Error())
		}
	} else {
		_ = EncodeFault(&out, 1, fmt.Sprintf("method %q is not supported", method))
	}
	// Content-Length always: roscpp's XmlRpc++ cannot read chunked bodies.
	w.Header().Set("Content-Type", "text/xml")
	w.Header().Set("Content-Length", strconv.Itoa(out.Len()))
	_, _ = w.Write(out.Bytes())
}

// tooLarge is the answer to a call whose reply would pass MaxReplyBytes:
// a fault for a multicall, else rosmaster's [-1, message, error value].
func (m *Master) tooLarge(method, from string) any {
	msg := fmt.Sprintf("the reply to %s would be over %d MiB, the master's limit on a reply (MaxReplyBytes)", method, MaxReplyBytes>>20)
	m.refuse(fmt.Errorf("%s from %s: %s", method, from, msg))
	h, ok := apiMethods[method]
	if !ok {
		return multicallFault(msg)
	}
	return []any{-1, msg, h.errVal}
}

// dispatch runs a method of the API, or system.multicall; false when
// the method is unknown.
func (m *Master) dispatch(method string, params []any, from string) (any, bool) {
	if method == "system.multicall" {
		return m.multicall(params, from), true
	}
	h, ok := apiMethods[method]
	if !ok {
		return nil, false
	}
	return m.call(h, params, from), true
}

// call checks the common arguments as rosmaster's apivalidate does and runs
// the handler.
func (m *Master) call(h apiMethod, params []any, from string) []any {
	if len(params) == 0 {
		return []any{-1, "missing required caller_id parameter", h.errVal}
	}
	if len(params) != h.nargs+1 {
		return []any{-1, "Error: bad call arity", h.errVal}
	}
	callerID, ok := params[0].(string)
	if !ok {
		return []any{-1, "caller_id must be a string", h.errVal}
	}
	code, msg, val, err := h.fn(m, from, callerID, params[1:])
	if err != nil {
		var inv invalidParam
		if errors.As(err, &inv) {
			return []any{-1, string(inv), h.errVal}
		}
		return []any{0, "Internal failure: " + err.Error(), h.errVal}
	}
	return []any{code, msg, val}
}
