package nt4

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/internal/admit"
	"github.com/frcd/frcd/internal/relisten"
	"github.com/frcd/frcd/nt4/wire"
)

// DefaultAddr is where the server listens unless told otherwise: NT4's
// port, on loopback only.
const DefaultAddr = "127.0.0.1:5810"

// The subprotocols, in the order the server prefers them.
const (
	ProtoV41 = wire.ProtoV41
	ProtoV40 = wire.ProtoV40
	ProtoRTT = wire.ProtoRTT
)

// Limits on clients.
const (
	maxClients       = 32
	maxTopics        = 4096            // the server's and the clients' together
	maxClientTopics  = 512             // topics clients created, all clients together
	maxClientValue   = 64 << 10        // the largest value a client may publish, bytes
	maxSubscriptions = 256             // per client
	maxSubTopics     = 256             // topics or prefixes of one subscription
	maxSubBytes      = 128 << 10       // the topic names and prefixes of a client's subscriptions, bytes
	maxPublishers    = 256             // per client
	maxNameBytes     = 1024            // a topic name a client publishes
	maxAllBytes      = 512 << 10       // values waiting for a client that wants every value
	closeWait        = time.Second     // for a client's answer to the close frame at shutdown
	textQueue        = maxTopics + 256 // control messages waiting for a client: beyond it the client is too slow and is dropped
	writeTimeout     = 2 * time.Second
	pingEvery        = 2 * time.Second
	minPeriod        = 10 * time.Millisecond
	defaultPeriod    = 100 * time.Millisecond
	maxPeriod        = time.Second
)

// Options configure a Server.
type Options struct {
	// Addr is host:port to listen on; default DefaultAddr; port 0 picks one.
	Addr string
	// Clock is the server's time base (the loop's clock): timestamps are
	// its microseconds.
	Clock func() time.Duration
	// Logf reports clients; nil discards.
	Logf func(format string, args ...any)
	// Commands, when set, takes the values clients publish on topics
	// under CommandPrefix (PREFIX/commands/): an error is a refusal,
	// counted and logged with it. Called from a client's goroutine; it
	// must not block.
	Commands      func(topic string, v Value) error
	CommandPrefix string
	// CommandType, when set, says the type a topic under CommandPrefix
	// takes (ok false: any): a publish of another type is refused.
	CommandType func(topic string) (typ string, ok bool)
	// Tunable, when set, says which of frcd's own topics clients may
	// publish values to (WPILib 2027's /Tunables/..., which the robot
	// publishes and a dashboard sets on the same topic): a client's value
	// goes to Commands and never replaces frcd's: taken, the telemetry
	// source publishes the new value; refused, every reader gets frcd's
	// value again, as WPILib's tunable backend republishes after a set.
	Tunable func(topic string) bool
	// Observe, when set, sees every value a client publishes outside
	// CommandPrefix (a dashboard's chooser selection): an error is a
	// refusal, counted and logged with it. Called from a client's
	// goroutine; it must not block.
	Observe func(topic string, v Value) error
	// Retry, when > 0, lets New succeed when Addr cannot be listened on
	// (another program has the port): Run tries again every Retry, and
	// ListenErr says why it does not listen yet.
	Retry time.Duration
}

// Stats count the server's work.
type Stats struct {
	Clients    int    // connected now (main connections)
	Connects   uint64 // main connections accepted
	Duplicates uint64 // connections whose name was in use, served as NAME@N
	TimeSyncs  uint64 // time synchronisation messages answered
	Refused    uint64 // client values and properties refused (wrong type, too large, a refused command)
	Dropped    uint64 // clients dropped for being too slow or breaking a limit
	// PublishRefused and SubscribeRefused count the publish and subscribe
	// messages refused (frcd's own topic, a limit, a wrong type), each
	// logged with its reason.
	PublishRefused   uint64
	SubscribeRefused uint64
	// ValuesLost counts values not sent to a client that wants every
	// value (all) because it fell maxAllBytes behind (logged).
	ValuesLost  uint64
	ValuesSent  uint64 // value messages sent
	FramesSent  uint64 // binary frames sent
	Published   uint64 // times Publish found changed values
	ClientTopic uint64 // topics clients published
	TurnedAway  uint64 // connections refused for the client limits (admission.go)
	Evicted     uint64 // idle clients closed to make room for a newcomer
}

// topic is one topic of the server.
type topic struct {
	id     int
	name   string
	typ    string
	typeID uint8
	props  map[string]json.RawMessage
	value  []byte // the latest value as a whole MessagePack message, or empty
	seq    uint64
	own    bool // frcd's: clients may not publish to it, but to a tunable (Options.Tunable)
	pubs   int  // client publishers
	// allSubs counts the clients that want every value of the topic,
	// wants those that want its values (all or the latest).
	allSubs, wants int
	// src is the topic's index in the telemetry source, -1 for the
	// clients' and the meta topics.
	src int
}

// Server is an NT4 server: frcd's topics (Publish) plus any clients'.
type Server struct {
	o  Options
	ln *relisten.Listener

	mu      sync.Mutex
	topics  []*topic // by id; nil where deleted
	byName  map[string]*topic
	clients map[string]*client
	stop    chan struct{} // closed when Run's context ends: connections close with a close frame
	wake    chan struct{} // a client connected (Wake)
	created int           // topics clients created, still published
	seen    []uint64      // per telemetry topic, the Seq last encoded
	srcIDs  []int         // per telemetry topic, its server topic id
	// interest counts the changes of the topics' wants; synced is its
	// count the telemetry source last heard (Interest).
	interest, synced uint64
	// the meta topics $clients and $serverpub (meta.go)
	metaClients, metaServerPub *topic
	gates                      admission
	stats                      Stats

	// The WebSocket handlers running (http.Server's Shutdown does not
	// wait for hijacked connections): Run waits for them, so that none
	// logs after it returns.
	hmu      sync.Mutex
	hcond    *sync.Cond
	handlers int
	stopping bool
}

// New binds the listener; Run serves it.
func New(o Options) (*Server, error) {
	if o.Clock == nil {
		return nil, errors.New("nt4: Options need Clock")
	}
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	ln, err := relisten.Listen(o.Addr, o.Retry, nil)
	if err != nil {
		return nil, fmt.Errorf("nt4: %w", err)
	}
	s := &Server{o: o, ln: ln, byName: map[string]*topic{}, clients: map[string]*client{}, gates: newAdmission(), stop: make(chan struct{}), wake: make(chan struct{}, 1)}
	s.hcond = sync.NewCond(&s.hmu)
	s.initMeta()
	return s, nil
}

// Addr is the address the server listens on (until it can: the address
// asked for, Options.Retry).
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// ListenErr is why the server does not listen yet (Options.Retry), nil
// once it does.
func (s *Server) ListenErr() error { return s.ln.Err() }

// Listening is closed once the server listens.
func (s *Server) Listening() <-chan struct{} { return s.ln.Bound() }

// Stats returns a copy of the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Clients = len(s.clients)
	s.admissionStats(&st)
	return st
}

// Idle says whether no client is connected: nobody reads what Publish
// would give.
func (s *Server) Idle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clients) == 0
}

// Wake receives when a client connects or subscribes to the values of a
// topic nobody read (the newest winning): a publisher idle while nobody
// read starts again, and one that skips the topics nobody reads
// (Interest) brings those now wanted up to date without waiting for the
// next cycle.
func (s *Server) Wake() <-chan struct{} { return s.wake }

// poke sends on wake without blocking.
func (s *Server) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run serves until ctx ends, then closes every connection.
func (s *Server) Run(ctx context.Context) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second, MaxHeaderBytes: 16 << 10,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(s.ln) }()
	select {
	case <-ctx.Done():
		close(s.stop) // each connection sends its close frame (1001, going away)
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		srv.Close()
		// The handlers close on s.stop, each within closeWait.
		s.hmu.Lock()
		s.stopping = true
		for s.handlers > 0 {
			s.hcond.Wait()
		}
		s.hmu.Unlock()
		return nil
	case err := <-served:
		return fmt.Errorf("nt4: %w", err)
	}
}

// now is the server time in µs.
func (s *Server) now() int64 { return int64(s.o.Clock() / time.Microsecond) }

// addTopic creates a topic and announces it to the clients that
// subscribe to it; nil past maxTopics. Under s.mu.
func (s *Server) addTopic(name, typ string, props map[string]json.RawMessage, own bool) *topic {
	if t := s.byName[name]; t != nil {
		return t
	}
	if len(s.byName) >= maxTopics {
		return nil
	}
	if props == nil {
		props = map[string]json.RawMessage{}
	}
	t := &topic{id: len(s.topics), name: name, typ: typ, typeID: TypeID(typ), props: props, own: own, src: -1}
	s.topics = append(s.topics, t)
	s.byName[name] = t
	for _, c := range s.clients {
		c.maybeAnnounce(t, nil)
	}
	return t
}

// ServeHTTP answers the dashboards' probe of / and upgrades /nt/NAME.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/nt/")
	if !ok {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "frcd: NetworkTables 4 server; connect a WebSocket to /nt/<client name>")
		return
	}
	s.hmu.Lock()
	if s.stopping {
		s.hmu.Unlock()
		http.Error(w, "nt4: the server is stopping", http.StatusServiceUnavailable)
		return
	}
	s.handlers++
	s.hmu.Unlock()
	defer func() {
		s.hmu.Lock()
		s.handlers--
		s.hcond.Broadcast()
		s.hmu.Unlock()
	}()
	proto := pickProtocol(r.Header.Values("Sec-WebSocket-Protocol"))
	if proto == "" {
		http.Error(w, "nt4: no supported subprotocol ("+ProtoV41+" or "+ProtoV40+")", http.StatusBadRequest)
		return
	}
	if name == "" || len(name) > 256 {
		http.Error(w, "nt4: the client name must be 1 to 256 bytes", http.StatusBadRequest)
		return
	}
	var c *client
	var tk *admit.Ticket
	if proto == ProtoRTT {
		if tk = s.admitClient(w, r, s.gates.rtt, "RTT"); tk == nil {
			return
		}
		defer tk.Leave()
	} else {
		if tk = s.admitClient(w, r, s.gates.main, "client"); tk == nil {
			return
		}
		defer tk.Leave()
		// A name in use is made unique, as the spec says
		// (networktables4.adoc, "WebSockets Protocol Configuration"):
		// Elastic always connects as Elastic, AdvantageScope as
		// AdvantageScope, from every laptop and window.
		s.mu.Lock()
		unique := name
		for n := 1; s.clients[unique] != nil; n++ {
			unique = fmt.Sprintf("%s@%d", name, n)
		}
		if unique != name {
			s.stats.Duplicates++
		}
		c = newClient(s, unique, proto)
		c.tk, c.addr = tk, r.RemoteAddr
		s.clients[unique] = c
		c.addClientMeta()
		s.poke() // the telemetry wakes for its first reader
		s.mu.Unlock()
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{proto},
		InsecureSkipVerify: true, CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		if c != nil {
			s.drop(c)
		}
		return
	}
	tk.OnEvict(func() { conn.CloseNow() }) // a newcomer took its place
	conn.SetReadLimit(maxMessageBytes)
	// The connection's reads and writes end with the handler or the
	// client, not with the server's context (which would close the
	// socket without a close frame): at shutdown closeOnStop says
	// goodbye.
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	defer s.closeOnStop(ctx, conn)()
	if c == nil {
		s.serveRTT(ctx, conn, tk)
		return
	}
	s.mu.Lock()
	s.stats.Connects++
	s.mu.Unlock()
	s.o.Logf("nt4: %s connected from %s (%s)", c.name, r.RemoteAddr, proto)
	err = c.serve(ctx, conn)
	s.drop(c)
	s.o.Logf("nt4: %s disconnected: %v", c.name, err)
}

// pickProtocol is the subprotocol the server takes of those offered.
func pickProtocol(offered []string) string {
	has := map[string]bool{}
	for _, h := range offered {
		for _, p := range strings.Split(h, ",") {
			has[strings.TrimSpace(p)] = true
		}
	}
	for _, p := range []string{ProtoV41, ProtoV40, ProtoRTT} {
		if has[p] {
			return p
		}
	}
	return ""
}

// drop forgets a client: its publishers go, and topics no one publishes
// any more (not frcd's) are unannounced.
func (s *Server) drop(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clients[c.name] == c {
		delete(s.clients, c.name)
		c.dropClientMeta()
	}
	for _, t := range c.pubs {
		s.unpublishLocked(t)
	}
	c.pubs = nil
	for id, all := range c.all {
		if all && s.topics[id] != nil {
			s.topics[id].allSubs--
		}
		c.all[id] = false
	}
	for id, want := range c.want {
		if want && s.topics[id] != nil {
			s.unwant(s.topics[id])
			s.interest++
		}
		c.want[id] = false
	}
}

// closeOnStop closes conn with a close frame (1001, going away) when the
// server stops, waiting closeWait at most for the client's answer; the
// returned func ends the watch (the handler returning).
func (s *Server) closeOnStop(ctx context.Context, conn *websocket.Conn) (release func()) {
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-s.stop:
		}
		closed := make(chan struct{})
		go func() {
			conn.Close(websocket.StatusGoingAway, "frcd is stopping")
			close(closed)
		}()
		t := time.NewTimer(closeWait)
		defer t.Stop()
		select {
		case <-closed:
		case <-t.C:
			conn.CloseNow()
		}
	}()
	return func() {
		close(done)
		<-watched
	}
}

func (s *Server) unpublishLocked(t *topic) {
	t.pubs--
	if t.pubs > 0 || t.own || s.topics[t.id] != t {
		return
	}
	s.topics[t.id] = nil
	delete(s.byName, t.name)
	s.created--
	for _, c := range s.clients {
		c.unannounce(t)
	}
}

// serveRTT answers time synchronisation on a 4.1 RTT connection, which
// carries nothing else.
func (s *Server) serveRTT(ctx context.Context, conn *websocket.Conn, tk *admit.Ticket) {
	defer conn.CloseNow()
	var out []byte
	for {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second) // the client pings every 250 ms
		typ, b, err := conn.Read(rctx)
		cancel()
		if err != nil {
			return
		}
		if typ != websocket.MessageBinary {
			continue
		}
		tk.Touch(false)
		out = out[:0]
		DecodeBinary(b, func(v Value) {
			if v.ID == -1 {
				out = s.timeReply(out, v)
			}
		})
		if len(out) > 0 {
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := conn.Write(wctx, websocket.MessageBinary, out)
			cancel()
			if err != nil {
				return
			}
		}
	}
}

// timeReply appends the answer to a client's time message: the server's
// time and the client's value.
func (s *Server) timeReply(b []byte, v Value) []byte {
	s.mu.Lock()
	s.stats.TimeSyncs++
	s.mu.Unlock()
	b = appendHeader(b, -1, s.now(), v.Type)
	return append(b, v.Raw...)
}

// tunable says whether clients may set t, one of frcd's own topics
// (Options.Tunable).
func (s *Server) tunable(t *topic) bool { return s.o.Tunable != nil && s.o.Tunable(t.name) }
