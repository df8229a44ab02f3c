package wpilibws

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/admit"
	"github.com/frcd/frcd/internal/relisten"
	"github.com/frcd/frcd/sim"
)

// DefaultAddr is where the server listens unless told otherwise: the
// spec's port, on localhost only.
const DefaultAddr = "127.0.0.1:3300"

// Resource is the spec's WebSocket resource name.
const Resource = "/wpilibws"

// Options configure a Server.
type Options struct {
	// Addr is the host:port to listen on; default DefaultAddr. Port 0
	// picks a free port (Server.Addr tells which).
	Addr string
	// Sim is the simulated robot whose I/O the server shows and whose
	// inputs clients set.
	Sim *sim.Sim
	// Config is the robot's YAML: what drives each PWM, relay and PCM
	// channel.
	Config *config.File
	// SetEnabled enables or disables the robot (the daemon's, so that the
	// loop neutralizes its outputs); default: the Sim's Driver Station.
	SetEnabled func(bool)
	// Period is how often changed values are sent; default 20 ms.
	Period time.Duration
	// Queue is how many messages may wait for one client; a client that
	// falls further behind is closed. Default 4096.
	Queue int
	// WriteTimeout bounds one message's write; a client that takes
	// longer is closed. Default 2 s.
	WriteTimeout time.Duration
	// Logf reports clients coming and going; nil discards.
	Logf func(format string, args ...any)
	// Retry, when > 0, lets New succeed when Addr cannot be listened on
	// (another program has the port): Run tries again every Retry, and
	// ListenErr says why it does not listen yet.
	Retry time.Duration
	// OnPanic, when set, is told of a panic on one of the server's
	// goroutines (a client's handler or writer), on that goroutine, from
	// the deferred function that recovered it; the client is closed and
	// the server goes on. Nil lets the panic go on (and end the process).
	OnPanic func(v any)
	// OpModes are the robot's op modes (the YAML's op_modes:), which a
	// client sees in DriverStation <opmodes and selects with >opmode.
	OpModes hal.OpModes
}

// Stats count the server's work; read them with Server.Stats.
type Stats struct {
	Clients   int    // connected now
	Connects  uint64 // clients accepted
	Rejected  uint64 // connections refused: the resource already had a client
	Received  uint64 // messages read
	Ignored   uint64 // messages refused whole: not JSON objects, missing or mistyped type/device/data, unknown type
	BadValues uint64 // values refused: wrong JSON type, out of range, or an input the sim does not have
	Dropped   uint64 // clients closed for falling behind
	Sent      uint64 // messages queued to clients
	// TurnedAway counts connections refused for the client limits,
	// Evicted idle clients closed to make room for a newcomer
	// (admission.go).
	TurnedAway, Evicted uint64
}

// Server is frcd's end of WPILib's HAL simulation WebSocket protocol: it
// plays the robot program, as WPILib's halsim_ws_server does.
type Server struct {
	o        Options
	w        *wiring
	ln       *relisten.Listener
	handlers sync.WaitGroup // the WebSocket handlers, which outlive http.Server.Shutdown

	mu        sync.Mutex
	clients   map[string]*client // by resource path
	last      []device           // the state the clients have
	io        sim.IO
	ds        dsExtra
	matchSeq  atomic.Uint64            // MatchSeq
	owner     map[sim.Override]*client // who set each override
	enabledBy *client                  // the client that last enabled the robot
	stats     Stats
	joined    chan struct{} // a client came: Run ticks again (buffered)
	gate      *admit.Gate   // the clients' places (admission.go)
}

type client struct {
	path string
	conn *websocket.Conn
	out  chan []byte
	gone chan struct{} // closed when the client is dropped or leaves
	once sync.Once
	// final is closed when the server stops: the writer sends what is
	// queued (the last state, every output neutral), then closes the
	// connection with a close frame.
	final chan struct{}
	slow  bool          // dropped for falling behind; guarded by Server.mu
	tk    *admit.Ticket // its place among the clients
}

func (c *client) close() { c.once.Do(func() { close(c.gone) }) }

// New checks the options and binds the address; Run serves it.
func New(o Options) (*Server, error) {
	if o.Sim == nil || o.Config == nil {
		return nil, errors.New("wpilibws: Options need Sim and Config")
	}
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.SetEnabled == nil {
		s := o.Sim
		o.SetEnabled = func(on bool) { s.UpdateDS(func(ds *hal.DSState) { ds.Enabled = on }) }
	}
	if o.Period <= 0 {
		o.Period = 20 * time.Millisecond
	}
	if o.Queue <= 0 {
		o.Queue = 4096
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 2 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	ln, err := relisten.Listen(o.Addr, o.Retry, nil)
	if err != nil {
		return nil, fmt.Errorf("wpilibws: %w", err)
	}
	return &Server{o: o, w: newWiring(o.Config).withOpModes(o.OpModes), ln: ln, clients: map[string]*client{},
		owner: map[sim.Override]*client{}, ds: dsExtra{station: "red1", matchTime: -1}, joined: make(chan struct{}, 1), gate: newGate()}, nil
}

// Addr is the address the server listens on (until it can: the address
// asked for, Options.Retry).
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// ListenErr is why the server does not listen yet (Options.Retry), nil
// once it does.
func (s *Server) ListenErr() error { return s.ln.Err() }

// Listening is closed once the server listens.
func (s *Server) Listening() <-chan struct{} { return s.ln.Bound() }

// Stats returns the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Clients = len(s.clients)
	st.Evicted = s.gate.Stats().Evicted
	return st
}

// Run serves clients until ctx ends, then closes them and the listener.
// Every Period it sends the clients what changed.
func (s *Server) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The handlers outlive ctx by the final update and the close
	// handshake (at most finalWait), so they have a context of their own.
	hctx, hcancel := context.WithCancel(context.Background())
	defer hcancel()
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second, BaseContext: func(net.Listener) context.Context { return hctx }}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(s.ln) }()
	t := time.NewTicker(s.o.Period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			// The daemon stops the server after the loop has made every
			// output neutral: each client gets the whole state once more,
			// then a close frame (1001, going away).
			s.mu.Lock()
			s.refresh()
			for _, c := range s.clients {
				if c.conn != nil {
					s.queue(c, diff(nil, nil, s.last))
					close(c.final)
				} else {
					c.close()
				}
			}
			s.mu.Unlock()
			finished := make(chan struct{})
			go func() { s.handlers.Wait(); close(finished) }()
			wait := time.NewTimer(finalWait)
			select {
			case <-finished:
			case <-wait.C:
			}
			wait.Stop()
			hcancel()
			sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer scancel()
			err := srv.Shutdown(sctx)
			if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
				err = errors.Join(err, serr)
			}
			s.handlers.Wait() // they end with ctx
			return err
		case err := <-served:
			return fmt.Errorf("wpilibws: %w", err)
		case <-t.C:
			s.mu.Lock()
			s.refresh()
			idle := len(s.clients) == 0
			s.mu.Unlock()
			if idle {
				t.Stop() // nobody to send to: no wake-ups until a client comes
			}
		case <-s.joined:
			t.Reset(s.o.Period)
		}
	}
}

// ServeHTTP accepts a client on /wpilibws, or on /wpilibws/NAME so that
// several tools can connect at once: each resource takes one client at a
// time (the spec: a second connection to a resource in use is refused).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if path != Resource && (!strings.HasPrefix(path, Resource+"/") || len(path) == len(Resource)+1) {
		http.NotFound(w, r)
		return
	}
	c := &client{path: path, out: make(chan []byte, s.o.Queue), gone: make(chan struct{}), final: make(chan struct{})}
	s.mu.Lock()
	if s.clients[path] != nil {
		s.stats.Rejected++
		s.mu.Unlock()
		http.Error(w, "wpilibws: "+path+" already has a client", http.StatusConflict)
		return
	}
	s.mu.Unlock()
	if c.tk = s.admitClient(w, r); c.tk == nil {
		return
	}
	defer c.tk.Leave()
	c.tk.OnEvict(c.close) // a newcomer took its place
	s.mu.Lock()
	if s.clients[path] != nil { // one came meanwhile
		s.stats.Rejected++
		s.mu.Unlock()
		http.Error(w, "wpilibws: "+path+" already has a client", http.StatusConflict)
		return
	}
	s.clients[path] = c // reserved; nothing is queued before conn is set
	s.mu.Unlock()
	select {
	case s.joined <- struct{}{}:
	default: // Run has yet to take the last one
	}
	s.handlers.Add(1)
	defer s.handlers.Done()
	defer s.guard()
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.mu.Lock()
		delete(s.clients, path)
		s.mu.Unlock()
		return // Accept has answered the request
	}
	conn.SetReadLimit(1 << 16)
	ctx := r.Context()
	s.mu.Lock()
	s.stats.Connects++
	s.refresh() // the others catch up first (c has no conn yet: skipped)
	c.conn = conn
	s.queue(c, diff(nil, nil, s.last)) // then the newcomer gets everything
	s.mu.Unlock()
	s.o.Logf("wpilibws: client on %s from %s", path, r.RemoteAddr)

	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		defer s.guard()
		defer c.close()
		s.write(ctx, c)
	}()
	defer func() { // also after a panic: the client leaves
		c.close()
		<-writerDone
		conn.CloseNow()
		s.leave(c)
		s.o.Logf("wpilibws: client on %s left", path)
	}()
	s.read(ctx, c)
}

// read handles the client's messages until it leaves or is dropped.
func (s *Server) read(ctx context.Context, c *client) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-c.gone:
			cancel()
		case <-ctx.Done():
		}
	}()
	for {
		typ, b, err := c.conn.Read(ctx)
		if err != nil {
			return
		}
		s.locked(func() {
			s.stats.Received++
			ignored := s.stats.Ignored
			if typ != websocket.MessageText {
				s.stats.Ignored++ // the spec uses no binary frames
			} else {
				s.handle(c, b)
			}
			c.tk.Touch(s.stats.Ignored == ignored) // a message taken: a real client's
		})
	}
}

// locked runs f with s.mu held, released even if f panics.
func (s *Server) locked(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

// guard, deferred at the top of a goroutine, hands a panic to OnPanic.
func (s *Server) guard() {
	if v := recover(); v != nil {
		if s.o.OnPanic == nil {
			panic(v)
		}
		s.o.OnPanic(v)
	}
}

// write sends the client's queue until it leaves; a write that fails or
// takes longer than WriteTimeout drops it.
func (s *Server) write(ctx context.Context, c *client) {
	for {
		select {
		case <-c.gone:
			return
		case <-ctx.Done():
			return
		case <-c.final:
			s.finish(ctx, c)
			return
		case b := <-c.out:
			wctx, cancel := context.WithTimeout(ctx, s.o.WriteTimeout)
			err := c.conn.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				if wctx.Err() != nil && ctx.Err() == nil {
					s.mu.Lock()
					s.drop(c)
					s.mu.Unlock()
				}
				c.close()
				return
			}
		}
	}
}

// finalWait bounds how long a stopping server waits for its clients to
// take the final update and answer the close frame.
const finalWait = 2 * time.Second

// finish sends what is queued for a client, then closes its connection
// properly (a close frame, 1001 going away, and the handshake).
func (s *Server) finish(ctx context.Context, c *client) {
	ctx, cancel := context.WithTimeout(ctx, finalWait)
	defer cancel()
	for {
		select {
		case b := <-c.out:
			if c.conn.Write(ctx, websocket.MessageText, b) != nil {
				c.close()
				return
			}
			continue
		default:
		}
		break
	}
	_ = c.conn.Close(websocket.StatusGoingAway, "frcd stopped: every output neutral")
	c.close()
}

// leave forgets a client: the overrides it set end, and if it was the
// last to enable the robot, the robot is disabled, as a real one is when
// its Driver Station goes away.
func (s *Server) leave(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clients[c.path] == c {
		delete(s.clients, c.path)
	}
	for o, by := range s.owner {
		if by == c {
			s.o.Sim.Clear(o)
			delete(s.owner, o)
		}
	}
	if s.enabledBy == c {
		s.enabledBy = nil
		s.o.SetEnabled(false)
	}
}

// refresh reads the sim and queues what changed to every client. With
// no client, it forgets the state instead. Call with s.mu held.
func (s *Server) refresh() {
	if len(s.clients) == 0 {
		s.last = nil
		return
	}
	s.o.Sim.ReadIO(&s.io)
	var joys [numJoysticks]sim.Joystick
	for n := range joys {
		joys[n] = s.o.Sim.Joystick(n)
	}
	cur := s.w.build(&s.io, &joys, s.ds)
	msgs := diff(nil, s.last, cur)
	s.last = cur
	for _, c := range s.clients {
		if c.conn != nil {
			s.queue(c, msgs)
		}
	}
}

// queue hands messages to a client's writer; a client whose queue is
// full is dropped rather than waited for. Call with s.mu held.
func (s *Server) queue(c *client, msgs [][]byte) {
	for _, m := range msgs {
		select {
		case <-c.gone:
			return
		default:
		}
		select {
		case c.out <- m:
			s.stats.Sent++
		default:
			s.drop(c)
			return
		}
	}
}

// drop closes a client that cannot keep up, counting it once. Call with
// s.mu held.
func (s *Server) drop(c *client) {
	if c.slow {
		return
	}
	c.slow = true
	s.stats.Dropped++
	s.o.Logf("wpilibws: client on %s cannot keep up: closed", c.path)
	c.close()
}
