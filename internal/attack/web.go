package main

import (
	"context"
	"fmt"
	"time"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/nt4/wire"
)

// The attacks on the people's servers (issue 32): the sim's WebSocket and
// NT4; and the NT4 dashboard as a legitimate client.

func init() { register(webAttacks...) }

func init() { legitimate = append(legitimate, client{"an NT4 dashboard", dashboard}) }

var webAttacks = []attack{
	{"1000 idle /wpilibws clients", func(t *target, during func()) string {
		ctx := context.Background()
		var conns []*websocket.Conn
		for i := range 1000 {
			c, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://"+t.wsAddr+"/wpilibws/x%d", i), nil)
			if err == nil {
				conns = append(conns, c)
			}
		}
		during()
		c, _, err := websocket.Dial(ctx, "ws://"+t.wsAddr+"/wpilibws", nil)
		served := err == nil
		if served {
			_, _, err = c.Read(ctx)
			served = err == nil
			c.CloseNow()
		}
		for _, c := range conns {
			c.CloseNow()
		}
		return fmt.Sprintf("[%d held, a real WebSocket client served: %v]", len(conns), served)
	}},
	{"40 idle NT4 clients", func(t *target, during func()) string {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var conns []*websocket.Conn
		for i := range 40 {
			c, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://"+t.ntAddr+"/nt/idle%d", i), &websocket.DialOptions{Subprotocols: []string{wire.ProtoV41}})
			if err == nil {
				conns = append(conns, c)
				go func() {
					for {
						if _, _, err := c.Read(ctx); err != nil {
							return
						}
					}
				}()
			}
		}
		during()
		for _, c := range conns {
			c.CloseNow()
		}
		return fmt.Sprintf("[%d held]", len(conns))
	}},
}

// dashboard connects as an NT4 dashboard and reads the announcements.
func dashboard(t *target) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d, err := wire.Dial(ctx, t.ntAddr, "dashboard")
	if err != nil {
		return err
	}
	d.Close()
	return nil
}
