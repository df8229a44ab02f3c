// Command attack reruns issue 32's attacks on loopback against an frcd
// it starts (on the sim, with its embedded master), each bounded in count
// and time, and prints per attack the loop's cycles as a share of its
// 100 Hz (from the status lines), its overruns, frcd's resident memory
// (VmRSS, and the peak VmHWM, Linux) and whether the legitimate client
// was served; at the end it restarts frcd and reads back a parameter the
// attack set. A measurement, not a test: the figures depend on the
// machine (`make attack`). Run from the repository root:
//
//	go run ./internal/attack bin/frcd
package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/coder/websocket"

	"github.com/frcd/frcd/nt4/wire"
	"github.com/frcd/frcd/ros/master"
)

var cyclesRe = regexp.MustCompile(`t=([0-9.]+)s \S+ cycles=(\d+) .*overruns=(\d+)`)

type sample struct {
	t                float64
	cycles, overruns int
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/attack FRCD")
		os.Exit(2)
	}
	frcd := os.Args[1]
	state, err := os.MkdirTemp("", "frcd-attack")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(state)
	ntAddr, wsAddr, masterAddr := freeAddr(), freeAddr(), freeAddr()
	cmd := exec.Command(frcd, "run", "--sim", "--status", "500ms", "--nt", ntAddr, "--wpilibws", wsAddr,
		"examples/competition/robot.urdf", "examples/competition/robot.yaml")
	cmd.Env = append(os.Environ(), "ROS_MASTER_URI=http://"+masterAddr, "ROS_IP=127.0.0.1", "ROS_HOME="+state)
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	defer cmd.Process.Kill()
	var mu sync.Mutex
	var samples []sample
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := cyclesRe.FindStringSubmatch(sc.Text()); m != nil {
				t, _ := strconv.ParseFloat(m[1], 64)
				c, _ := strconv.Atoi(m[2])
				o, _ := strconv.Atoi(m[3])
				mu.Lock()
				samples = append(samples, sample{t, c, o})
				mu.Unlock()
			}
		}
	}()
	last := func() sample {
		for {
			mu.Lock()
			n := len(samples)
			var s sample
			if n > 0 {
				s = samples[n-1]
			}
			mu.Unlock()
			if n > 0 {
				return s
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	hwm := func() string {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "VmHWM") || strings.HasPrefix(l, "VmRSS") {
				fmt.Print(strings.Join(strings.Fields(l), " "), "  ")
			}
		}
		return ""
	}
	time.Sleep(4 * time.Second)
	run := func(name string, attack func()) {
		fmt.Printf("%s: ", name)
		a := last()
		attack()
		time.Sleep(1200 * time.Millisecond) // a status line after the attack
		b := last()
		ratio := float64(b.cycles-a.cycles) / ((b.t - a.t) * 100)
		fmt.Printf("cycles %d over %.1fs (%.2f of 100 Hz), overruns +%d  ", b.cycles-a.cycles, b.t-a.t, ratio, b.overruns-a.overruns)
		hwm()
		fmt.Println()
	}
	uri := "http://" + masterAddr + "/"
	ctx := context.Background()
	run("idle", func() { time.Sleep(2 * time.Second) })
	run("17 x 3.9 MB setParam + 8 getParam(/)", func() {
		big := strings.Repeat("x", 3_900_000)
		ok := 0
		for i := range 17 {
			v, _ := master.Call(ctx, uri, "setParam", "/attacker", fmt.Sprintf("/attack/p%d", i), big)
			if r, _ := v.([]any); len(r) == 3 && r[0] == 1 {
				ok++
			}
		}
		var wg sync.WaitGroup
		refused := 0
		var rm sync.Mutex
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, _ := master.Call(ctx, uri, "getParam", "/attacker", "/")
				if r, _ := v.([]any); len(r) == 3 && r[0] == -1 {
					rm.Lock()
					refused++
					rm.Unlock()
				}
			}()
		}
		wg.Wait()
		fmt.Printf("[params accepted %d/17, getParam refused %d/8] ", ok, refused)
	})
	run("1000 idle /wpilibws clients", func() {
		var conns []*websocket.Conn
		for i := range 1000 {
			c, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://"+wsAddr+"/wpilibws/x%d", i), nil)
			if err == nil {
				conns = append(conns, c)
			}
		}
		time.Sleep(2 * time.Second)
		c, _, err := websocket.Dial(ctx, "ws://"+wsAddr+"/wpilibws", nil)
		served := err == nil
		if served {
			_, _, err = c.Read(ctx)
			served = err == nil
			c.CloseNow()
		}
		fmt.Printf("[a real client served: %v] ", served)
		for _, c := range conns {
			c.CloseNow()
		}
	})
	run("40 idle NT4 clients, then a dashboard", func() {
		var conns []*websocket.Conn
		for i := range 40 {
			c, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://"+ntAddr+"/nt/idle%d", i), &websocket.DialOptions{Subprotocols: []string{wire.ProtoV41}})
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
		d, err := wire.Dial(ctx, ntAddr, "dashboard")
		fmt.Printf("[dashboard served: %v] ", err == nil)
		if d != nil {
			d.Close()
		}
		for _, c := range conns {
			c.CloseNow()
		}
	})
	run("6 publishers of 16 MiB /sim/push", func() {
		msg := &sensor_msgs.JointState{}
		for i := 0; i < 700000; i++ {
			msg.Name = append(msg.Name, "hood_joint_xxxxx")
			msg.Position = append(msg.Position, 0.1)
		}
		var nodes []*goroslib.Node
		for i := range 6 {
			n, err := goroslib.NewNode(goroslib.NodeConf{Name: fmt.Sprintf("hostile%d", i), MasterAddress: masterAddr, Host: "127.0.0.1", LogDestinations: goroslib.LogDestinationCallback})
			if err != nil {
				fmt.Print(err)
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
		time.Sleep(3 * time.Second)
		for _, n := range nodes {
			n.Close()
		}
	})
	run("multicall flood 241 x 1000 registerPublisher", func() {
		refused := 0
		for c := range 241 {
			calls := make([]any, 1000)
			for i := range calls {
				n := c*1000 + i
				calls[i] = map[string]any{"methodName": "registerPublisher", "params": []any{fmt.Sprintf("/flood%d", n), fmt.Sprintf("/flood/t%d", n), "std_msgs/String", fmt.Sprintf("http://127.0.0.1:1/%d", n)}}
			}
			v, err := master.Call(ctx, uri, "system.multicall", calls)
			if err != nil {
				continue
			}
			for _, r := range v.([]any) {
				if w, ok := r.([]any); ok && len(w) == 1 {
					if res, _ := w[0].([]any); len(res) == 3 && res[0] != 1 {
						refused++
					}
				}
			}
		}
		fmt.Printf("[registrations refused %d] ", refused)
	})
	run("after the flood (no attacker)", func() { time.Sleep(3 * time.Second) })
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	// restart: are the parameters there?
	cmd2 := exec.Command(frcd, "run", "--sim", "--status", "500ms", "--nt", "off", "--wpilibws", "off",
		"examples/competition/robot.urdf", "examples/competition/robot.yaml")
	cmd2.Env = cmd.Env
	cmd2.Start()
	defer cmd2.Process.Kill()
	for i := 0; i < 100; i++ {
		v, err := master.Call(ctx, uri, "getParam", "/x", "/attack/p0")
		if err == nil {
			r, _ := v.([]any)
			fmt.Printf("after a restart getParam /attack/p0: code %v, %d bytes\n", r[0], len(fmt.Sprint(r[2])))
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	cmd2.Process.Signal(os.Interrupt)
	cmd2.Wait()
}

// freeAddr is a loopback address with a port free now.
func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}
