package master

import (
	"context"
	"sync"
	"time"
)

// maxQueued bounds the notifications waiting for one node; past it the
// oldest is dropped (a node that far behind is dead or wedged).
const maxQueued = 256

// notification is one outgoing call to a node's slave API.
type notification struct {
	// key coalesces notifications: a new one replaces a queued one with the
	// same key (only the latest publisher list or parameter value matters).
	// Empty means never coalesce.
	key    string
	method string
	args   []any
	// done, if set, is called with the result, with no lock held.
	done func(result any, err error)
}

// nodeQueue is the notifications pending for one slave API, sent in order
// by at most one goroutine.
type nodeQueue struct {
	pending []notification
}

// notifier sends notifications to nodes asynchronously: one goroutine per
// node with pending work, calls bounded by a timeout, per-node order kept.
type notifier struct {
	client  *Client
	timeout time.Duration
	logf    func(format string, args ...any)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	queues map[string]*nodeQueue
	closed bool
}

func newNotifier(client *Client, timeout time.Duration, logf func(string, ...any)) *notifier {
	ctx, cancel := context.WithCancel(context.Background())
	return &notifier{client: client, timeout: timeout, logf: logf, ctx: ctx, cancel: cancel, queues: map[string]*nodeQueue{}}
}

// enqueue queues n for the slave API at api. It never blocks on the network.
func (nt *notifier) enqueue(api string, n notification) {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	if nt.closed {
		return
	}
	q := nt.queues[api]
	start := q == nil
	if start {
		q = &nodeQueue{}
		nt.queues[api] = q
	}
	if n.key != "" {
		for i, old := range q.pending {
			if old.key == n.key {
				q.pending = append(q.pending[:i:i], q.pending[i+1:]...)
				break
			}
		}
	}
	if len(q.pending) >= maxQueued {
		nt.logf("ros master: %s is not answering; dropping %s", api, q.pending[0].method)
		q.pending = q.pending[1:]
	}
	q.pending = append(q.pending, n)
	if start {
		nt.wg.Add(1)
		go nt.run(api, q)
	}
}

// run sends q's notifications in order until it is empty, then forgets q.
func (nt *notifier) run(api string, q *nodeQueue) {
	defer nt.wg.Done()
	for {
		nt.mu.Lock()
		if len(q.pending) == 0 || nt.closed {
			delete(nt.queues, api)
			nt.mu.Unlock()
			return
		}
		n := q.pending[0]
		q.pending = q.pending[1:]
		nt.mu.Unlock()

		ctx, cancel := context.WithTimeout(nt.ctx, nt.timeout)
		res, err := nt.client.Call(ctx, api, n.method, n.args...)
		cancel()
		if err != nil {
			nt.logf("ros master: %s to %s: %v", n.method, api, err)
		}
		if n.done != nil {
			n.done(res, err)
		}
	}
}

// close stops all sending, aborts calls in flight and waits for the
// goroutines to end.
func (nt *notifier) close() {
	nt.mu.Lock()
	nt.closed = true
	nt.mu.Unlock()
	nt.cancel()
	nt.wg.Wait()
}

// idle reports whether no notification is pending or in flight.
func (nt *notifier) idle() bool {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	return len(nt.queues) == 0
}
