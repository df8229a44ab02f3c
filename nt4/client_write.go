// A client's writer: its control messages and, each period, the latest
// value of every topic it wants, sent over its connection.

package nt4

import (
	"context"
	"time"

	"github.com/coder/websocket"
)

// write sends the client its control messages and, each period, the
// latest value of every topic it wants that changed since.
func (c *client) write(ctx context.Context, conn *websocket.Conn) error {
	s := c.s
	s.mu.Lock()
	period := c.period
	s.mu.Unlock()
	tick := time.NewTicker(period)
	defer tick.Stop()
	var text, bin []byte
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.slow:
			return errSlow
		case b := <-c.rtt:
			if err := c.send(ctx, conn, websocket.MessageBinary, b); err != nil {
				return err
			}
			continue
		case <-tick.C:
		}
		text, bin = text[:0], bin[:0]
		values := 0
		s.mu.Lock()
		for more := true; more; {
			select {
			case m := <-c.text:
				if len(text) == 0 {
					text = append(text, '[')
				} else {
					text = append(text, ',')
				}
				text = append(text, m...)
			default:
				more = false
			}
		}
		if len(c.allBuf) > 0 {
			bin = append(bin, c.allBuf...)
			c.allBuf, values, c.allN = c.allBuf[:0], values+c.allN, 0
		}
		var lost uint64
		if now := s.o.Clock(); c.allLost > c.allLogged && (c.lostLoggedAt == 0 || now-c.lostLoggedAt >= time.Second) {
			lost, c.allLogged, c.lostLoggedAt = c.allLost-c.allLogged, c.allLost, now
		}
		for id, want := range c.want {
			if !want || c.all[id] || id >= len(s.topics) || s.topics[id] == nil {
				continue
			}
			t := s.topics[id]
			if t.seq == c.sent[id] || len(t.value) == 0 {
				continue
			}
			c.sent[id] = t.seq
			bin = append(bin, t.value...)
			values++
		}
		if c.period != period {
			period = c.period
			tick.Reset(period)
		}
		if values > 0 {
			s.stats.ValuesSent += uint64(values)
			s.stats.FramesSent++
		}
		s.mu.Unlock()
		if lost > 0 {
			s.o.Logf("nt4: %s: %d values not sent: it subscribed to every value (all) and reads them slower than they come", c.name, lost)
		}
		if len(text) > 0 {
			if err := c.send(ctx, conn, websocket.MessageText, append(text, ']')); err != nil {
				return err
			}
		}
		if len(bin) > 0 {
			if err := c.send(ctx, conn, websocket.MessageBinary, bin); err != nil {
				return err
			}
		}
	}
}

func (c *client) send(ctx context.Context, conn *websocket.Conn, typ websocket.MessageType, b []byte) error {
	wctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	return conn.Write(wctx, typ, b)
}
