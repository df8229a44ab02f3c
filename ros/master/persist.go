package master

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Restart survival. ROS 1 nodes register once: a master that restarts
// empty strands every node already running (a subscriber never hears of
// a new publisher) and loses the parameters others set. rosmaster has
// that flaw; frcd's embedded master restarts with frcd, so it keeps its
// state in a file (Options.StateFile): every change is written there
// (coalesced, at most every persistEvery), and a new master on the same
// file starts from it. The nodes of the old state that no longer answer
// are then dropped, as if they had unregistered.

// persistEvery is the most often the state file is written; a large
// state is written less often (persistPause).
const persistEvery = 100 * time.Millisecond

// persistRate bounds the bytes of state written per second, so that a
// flood of registrations or parameters near the limits costs the master
// a bounded share of a core, not a 16 MiB encoding every persistEvery.
const persistRate = 2 << 20

// persistPause is how long the writer waits after writing n bytes.
func persistPause(n int) time.Duration {
	return max(persistEvery, time.Duration(n)*time.Second/persistRate)
}

// mutating are the methods that change the state.
var mutating = map[string]bool{
	"registerService": true, "unregisterService": true, "registerSubscriber": true, "unregisterSubscriber": true,
	"registerPublisher": true, "unregisterPublisher": true, "deleteParam": true, "setParam": true,
	"subscribeParam": true, "unsubscribeParam": true, "system.multicall": true,
}

// persister writes the state file in the background.
type persister struct {
	path  string
	dirty chan struct{} // holds one: a write is due
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
}

// changed notes that method may have changed the state.
func (m *Master) changed(method string) {
	if m.persist == nil || !mutating[method] {
		return
	}
	select {
	case m.persist.dirty <- struct{}{}:
	default:
	}
}

// startPersist loads the state file when there is one, and starts the
// writer. Called by New.
func (m *Master) startPersist(path string) {
	if path == "" {
		return
	}
	p := &persister{path: path, dirty: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	m.persist = p
	nodes, err := m.loadState(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		m.logf("ros master: %s: %v: starting empty", path, err)
	default:
		m.logf("ros master: restored %d nodes' registrations and the parameters from %s", len(nodes), path)
	}
	go m.writeLoop(nodes)
}

func (m *Master) writeLoop(restored map[string]string) {
	p := m.persist
	defer close(p.done)
	if len(restored) > 0 {
		m.pruneDead(restored, p.stop)
	}
	for {
		select {
		case <-p.stop:
			m.saveState()
			return
		case <-p.dirty:
		}
		n := m.saveState()
		select { // coalesce what comes in the next moment
		case <-p.stop:
			m.saveState()
			return
		case <-time.After(persistPause(n)):
		}
	}
}

// closePersist writes the state a last time and stops the writer.
func (m *Master) closePersist() {
	if m.persist == nil {
		return
	}
	m.persist.once.Do(func() { close(m.persist.stop) })
	<-m.persist.done
}

// state is the master's state as one XML-RPC value: the parameter tree,
// the topics' types and every registration as [kind, key, node, api,
// service api], in the order they were made.
func (m *Master) state() any {
	m.mu.Lock()
	defer m.mu.Unlock()
	types := map[string]any{}
	for t, ty := range m.topicTypes {
		types[t] = ty
	}
	var regs []any
	for _, kind := range []regKind{kindPublications, kindSubscriptions, kindServices, kindParamSubscriptions} {
		r := m.reg.of(kind)
		for _, key := range r.keys() {
			for _, p := range r.m[key] {
				svc := ""
				if kind == kindServices {
					svc = r.serviceAPI[key].api
				}
				regs = append(regs, []any{int(kind), key, p.id, p.api, svc})
			}
		}
	}
	if regs == nil {
		regs = []any{}
	}
	return map[string]any{"version": 1, "params": copyTree(m.params), "types": types, "regs": regs}
}

// saveState writes the state file: a temporary file renamed over it, so
// that a crash leaves the old state or the new one. It returns the bytes
// encoded.
func (m *Master) saveState() (n int) {
	var b bytes.Buffer
	defer func() { n = b.Len() }()
	if err := EncodeResponse(&b, m.state()); err != nil {
		m.logf("ros master: saving the state: %v", err)
		return
	}
	if b.Len() > MaxStateBytes { // the limits refuse what would pass it: never seen
		m.logf("ros master: saving the state: %d bytes, over the %d the master reads back: keeping the last state saved", b.Len(), MaxStateBytes)
		return
	}
	path := m.persist.path
	tmp := path + ".tmp"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		m.logf("ros master: saving the state: %v", err)
		return
	}
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		m.logf("ros master: saving the state: %v", err)
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		m.logf("ros master: saving the state: %v", err)
	}
	return
}

// loadState restores the state file's parameters and registrations; it
// returns the restored nodes (name -> slave API).
func (m *Master) loadState(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	v, err := DecodeResponseLimit(f, MaxStateBytes)
	if err != nil {
		return nil, err
	}
	st, ok := v.(map[string]any)
	if !ok || st["version"] != 1 {
		return nil, errors.New("not a state file of this version")
	}
	params, ok := st["params"].(map[string]any)
	if !ok {
		return nil, errors.New("no parameter tree")
	}
	types, _ := st["types"].(map[string]any)
	regs, _ := st["regs"].([]any)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range []string{"run_id", "rosdistro", "rosversion"} {
		if _, ok := params[k]; !ok {
			params[k] = m.params[k]
		}
	}
	m.params, m.paramBytes = params, paramBytes(params)
	for t, ty := range types {
		if s, ok := ty.(string); ok {
			m.setTypeLocked(t, s)
		}
	}
	nodes := map[string]string{}
	for _, r := range regs {
		e, ok := r.([]any)
		if !ok || len(e) != 5 {
			return nodes, fmt.Errorf("registration %v: want [kind, key, node, api, service api]", r)
		}
		kind, _ := e[0].(int)
		key, _ := e[1].(string)
		id, _ := e[2].(string)
		api, _ := e[3].(string)
		svc, _ := e[4].(string)
		if kind < int(kindSubscriptions) || kind > int(kindParamSubscriptions) || key == "" || id == "" || api == "" {
			return nodes, fmt.Errorf("registration %v: bad kind or empty field", r)
		}
		m.reg.register(regKind(kind), key, id, api, svc, restoredFrom(api))
		nodes[id] = api
	}
	return nodes, nil
}

// pruneDead asks each restored node for its pid, all at once; a node
// whose slave API refuses the connection (its process is gone) is
// dropped with everything it registered, and its topics' subscribers
// told. A node that registered again meanwhile (a new API) is kept.
func (m *Master) pruneDead(nodes map[string]string, stop <-chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var dead []string
	for id, api := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := m.client.Call(ctx, api, "getPid", "/master"); err != nil && errors.Is(err, syscall.ECONNREFUSED) {
				mu.Lock()
				dead = append(dead, id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range dead {
		n := m.reg.nodes[id]
		if n == nil || n.api != nodes[id] {
			continue
		}
		for _, t := range m.reg.dropNode(id) {
			m.notifyTopic(t)
		}
		m.logf("ros master: %s (restored) does not answer: dropped", id)
	}
	if len(dead) > 0 {
		select {
		case m.persist.dirty <- struct{}{}:
		default:
		}
	}
}
