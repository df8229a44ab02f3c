package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/tinylib/msgp/msgp"
)

// Conn is an NT4 client connection (a robot program's side of ntcore): it
// subscribes to a server's topics, keeps each announced topic and its
// latest value, and publishes values of its own. Dial opens one; frcd's
// tests and the Systemcore VM's agent use it. Safe from any goroutine.
//
// Limits: a message of 1 MiB (larger closes the connection), 4096
// announced topics (announces past it are dropped and counted), a value
// of 64 KiB kept per topic (larger ones counted, not kept), every write
// within 2 s.
type Conn struct {
	ws     *websocket.Conn
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	topics  map[int64]*ClientTopic // by server topic id
	byName  map[string]*ClientTopic
	nextUID int64
	dropped uint64 // announces past the limit, values too large
	err     error  // why the reader stopped
	heard   time.Time
}

// ClientTopic is a topic a server announced, with its latest value.
type ClientTopic struct {
	Name, Type string
	ID         int64
	Properties json.RawMessage
	// Value is the latest value (Raw a copy); Value.Raw is nil until one
	// came.
	Value Value
	// Updates counts the values received (a reader polling it sees
	// whether a new one came, even an equal one).
	Updates uint64
}

// The client's limits (Conn's comment).
const (
	maxTopics      = 4096     // announced topics kept
	maxClientValue = 64 << 10 // the largest value kept, bytes
	writeTimeout   = 2 * time.Second
)

// announceIn and unannounceIn are the server's announce and unannounce
// params as a client reads them.
type (
	announceIn struct {
		Name       string          `json:"name"`
		ID         *int64          `json:"id"`
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
	}
	unannounceIn struct {
		Name string `json:"name"`
		ID   *int64 `json:"id"`
	}
)

// Dial connects to the NT4 server at addr (host:port) as name, offering
// 4.1's subprotocol then 4.0's, and starts reading.
func Dial(ctx context.Context, addr, name string) (*Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	ws, _, err := websocket.Dial(dctx, "ws://"+addr+"/nt/"+name, &websocket.DialOptions{Subprotocols: []string{ProtoV41, ProtoV40}})
	if err != nil {
		return nil, fmt.Errorf("nt4: %s: %w", addr, err)
	}
	ws.SetReadLimit(MaxMessageBytes)
	rctx, rcancel := context.WithCancel(context.Background())
	c := newConn()
	c.ws, c.cancel = ws, rcancel
	go c.read(rctx)
	return c, nil
}

func newConn() *Conn {
	return &Conn{done: make(chan struct{}), topics: map[int64]*ClientTopic{}, byName: map[string]*ClientTopic{}}
}

// read takes the server's frames until the connection ends.
func (c *Conn) read(ctx context.Context) {
	defer close(c.done)
	for {
		typ, b, err := c.ws.Read(ctx)
		c.mu.Lock()
		c.heard = time.Now()
		c.mu.Unlock()
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			return
		}
		if err := c.handle(typ == websocket.MessageText, b); err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			c.ws.Close(websocket.StatusProtocolError, "bad frame")
			return
		}
	}
}

// handle takes one frame from the server: a text frame's announce and
// unannounce messages (others are ignored), a binary frame's values.
func (c *Conn) handle(text bool, b []byte) error {
	if text {
		msgs, err := DecodeText(b)
		if err != nil {
			return err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, m := range msgs {
			switch m.Method {
			case "announce":
				var a announceIn
				if json.Unmarshal(m.Params, &a) != nil || a.ID == nil || a.Name == "" {
					continue
				}
				if old := c.byName[a.Name]; old != nil {
					delete(c.topics, old.ID)
				} else if len(c.byName) >= maxTopics {
					c.dropped++
					continue
				}
				t := &ClientTopic{Name: a.Name, Type: a.Type, ID: *a.ID, Properties: a.Properties}
				if old := c.topics[t.ID]; old != nil {
					delete(c.byName, old.Name)
				}
				c.topics[t.ID], c.byName[t.Name] = t, t
			case "unannounce":
				var u unannounceIn
				if json.Unmarshal(m.Params, &u) != nil || u.ID == nil {
					continue
				}
				if t := c.topics[*u.ID]; t != nil {
					delete(c.topics, t.ID)
					delete(c.byName, t.Name)
				}
			}
		}
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return DecodeBinary(b, func(v Value) {
		t := c.topics[v.ID]
		if t == nil {
			return // the RTT reply (-1), or a topic not announced
		}
		if len(v.Raw) > maxClientValue {
			c.dropped++
			return
		}
		v.Raw = append(t.Value.Raw[:0], v.Raw...)
		t.Value = v
		t.Updates++
	})
}

// send writes one text frame of control messages.
func (c *Conn) send(method string, params any) error {
	b, err := json.Marshal([]map[string]any{{"method": method, "params": params}})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("nt4: %s: %w", method, err)
	}
	return nil
}

func (c *Conn) uid() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextUID++
	return c.nextUID
}

// Subscribe asks for the topics (names, or prefixes with prefix) and
// their values every period (0: the server's default); topicsOnly asks
// for the announcements alone.
func (c *Conn) Subscribe(topics []string, prefix, topicsOnly bool, period time.Duration) error {
	opts := map[string]any{"prefix": prefix, "topicsonly": topicsOnly}
	if period > 0 {
		opts["periodic"] = period.Seconds()
	}
	return c.send("subscribe", map[string]any{"topics": topics, "subuid": c.uid(), "options": opts})
}

// SubscribeAll is Subscribe with NT4's "all" option: the server sends
// every value published, not only the latest of each period (a Driver
// Station stream whose every message counts).
func (c *Conn) SubscribeAll(topics []string, prefix bool, period time.Duration) error {
	opts := map[string]any{"prefix": prefix, "all": true}
	if period > 0 {
		opts["periodic"] = period.Seconds()
	}
	return c.send("subscribe", map[string]any{"topics": topics, "subuid": c.uid(), "options": opts})
}

// Publish announces a topic of this client's and returns its pubuid for
// Set.
func (c *Conn) Publish(name, typ string) (int64, error) {
	id := c.uid()
	return id, c.send("publish", map[string]any{"name": name, "pubuid": id, "type": typ, "properties": map[string]any{}})
}

// Set sends a value of a published topic: typ its binary type id, value
// its MessagePack encoding (msgp.AppendFloat64 and the like), stamped t µs.
func (c *Conn) Set(pubuid int64, t int64, typ uint8, value []byte) error {
	b := append(AppendHeader(nil, pubuid, t, typ), value...)
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageBinary, b); err != nil {
		return fmt.Errorf("nt4: value: %w", err)
	}
	return nil
}

// SetBool sends a boolean value of a published topic.
func (c *Conn) SetBool(pubuid int64, t int64, v bool) error {
	return c.Set(pubuid, t, TypeBoolean, msgp.AppendBool(nil, v))
}

// SetDouble sends a double value of a published topic.
func (c *Conn) SetDouble(pubuid int64, t int64, v float64) error {
	return c.Set(pubuid, t, TypeDouble, msgp.AppendFloat64(nil, v))
}

// SetInt sends an integer value of a published topic.
func (c *Conn) SetInt(pubuid int64, t int64, v int64) error {
	return c.Set(pubuid, t, TypeInt, msgp.AppendInt64(nil, v))
}

// Ping sends a time request (id -1, NT4's RTT message) stamped t µs: the
// server answers it, so LastHeard moves even when no value changes.
func (c *Conn) Ping(t int64) error {
	return c.Set(-1, 0, TypeInt, msgp.AppendInt64(nil, t))
}

// LastHeard is when the connection last received a frame (the zero time
// before the first).
func (c *Conn) LastHeard() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.heard
}

// Read calls f with an announced topic and its latest value, under the
// connection's lock and without copying (f must not keep t or its Raw,
// nor call the Conn); false when the topic is not announced. A reader
// polling every cycle allocates nothing.
func (c *Conn) Read(name string, f func(t *ClientTopic)) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.byName[name]
	if t == nil {
		return false
	}
	f(t)
	return true
}

// Topic returns a copy of an announced topic and its latest value.
func (c *Conn) Topic(name string) (ClientTopic, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.byName[name]
	if t == nil {
		return ClientTopic{}, false
	}
	cp := *t
	cp.Value.Raw = append([]byte(nil), t.Value.Raw...)
	return cp, true
}

// Names returns the names of the announced topics, in no order.
func (c *Conn) Names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.byName))
	for n := range c.byName {
		out = append(out, n)
	}
	return out
}

// Dropped counts announcements past the topic limit and values too large
// to keep.
func (c *Conn) Dropped() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropped
}

// Err is why the connection stopped reading, or nil while it reads.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Done is closed when the connection has stopped reading.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Close ends the connection and waits for the reader. (A connection
// the server already closed closes without error.)
func (c *Conn) Close() {
	c.ws.Close(websocket.StatusNormalClosure, "")
	c.cancel()
	<-c.done
}

// CloseNow ends the connection without the WebSocket close handshake (a
// silent server would hold that up to seconds) and waits for the reader.
// Writes blocked on the connection return. Safe after Close, and to call
// twice.
func (c *Conn) CloseNow() {
	c.ws.CloseNow()
	c.cancel()
	<-c.done
}
