package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/internal/ddsattack"
	"github.com/frcd/frcd/rtps"
)

// The attacks on ROS 2 (issue 37), from other hosts on the robot's
// network (netns.go) at frcd's discovery port, and a Cyclone DDS
// subscriber of /joint_states as the legitimate client. frcd runs with
// --ros2-egress egressFlag: what the never-acknowledging readers and the
// ACKNACK storm get back must stay within it. The storm comes before the
// never-acknowledging readers: its attacker learns frcd's writer from the
// SEDP frcd pushes to a new participant, which it never acknowledges, and
// after the 512 readers that push did not reach it within 30 s (the
// Cyclone subscribers, which acknowledge, were served).

func init() { netnsAttacks = append(netnsAttacks, ros2Attacks...) }

func init() {
	netnsClients = append(netnsClients, client{"a Cyclone DDS subscriber", func(*target) error { return subscribe(3) }})
}

const (
	egressFlag  = "4mbit"
	egressBytes = 4_000_000 / 8 // a second
	egressBurst = 64 << 10      // the budget's least burst (rtps EgressLimit)
	jointType   = "sensor_msgs::msg::dds_::JointState_"
)

// frcdDDS is frcd's discovery port: domain 0, the namespace's first
// participant.
var frcdDDS = netip.AddrPortFrom(netip.MustParseAddr(robotAddr), uint16(rtps.Ports{}.MetaUnicast()))

var ros2Attacks = []attack{
	{"10,000 fake DDS participants", func(t *target, during func()) string {
		a, err := ddsattack.New(netip.MustParseAddr(floodAddr), frcdDDS)
		if err != nil {
			t.fail("%v", err)
			return ""
		}
		defer a.Close()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { // 2,000 a second until cancelled
			defer close(done)
			a.Participants(ctx, math.MaxInt, 20, 10*time.Millisecond)
		}()
		waitFor(func() bool { return a.Announced.Load() >= 5000 })
		during()
		waitFor(func() bool { return a.Announced.Load() >= 10_000 })
		cancel()
		<-done
		return fmt.Sprintf("[%d announced from %s, %.2f MB back]", a.Announced.Load(), floodAddr, float64(a.Received.Load())/1e6)
	}},
	{"spoofed DDS leave of the subscriber", spoofedLeave},
	{"DDS ACKNACK storm", func(t *target, during func()) string {
		a, err := ddsattack.New(netip.MustParseAddr(stormAddr), frcdDDS)
		if err != nil {
			t.fail("%v", err)
			return ""
		}
		defer a.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p, err := a.NewParticipant()
		if err == nil {
			var writer, reader rtps.GUID
			if writer, err = a.Writer(ctx, "rt/joint_states"); err == nil {
				reader, err = p.Reader(1, "rt/joint_states", jointType)
			}
			if err == nil {
				return storm(t, a, p, reader, writer, during)
			}
		}
		t.fail("%v", err)
		return ""
	}},
	{"512 never-acknowledging DDS readers", func(t *target, during func()) string {
		a, err := ddsattack.New(netip.MustParseAddr(deafAddr), frcdDDS)
		if err != nil {
			t.fail("%v", err)
			return ""
		}
		defer a.Close()
		began, before := time.Now(), a.Received.Load()
		for range 32 { // the places of one address, 16 readers each
			p, err := a.NewParticipant()
			if err != nil {
				t.fail("%v", err)
				return ""
			}
			for n := 1; n <= 16; n++ {
				p.Reader(n, "rt/joint_states", jointType)
			}
		}
		during()
		time.Sleep(time.Until(began.Add(8 * time.Second)))
		return t.withinBudget("the readers", a.Received.Load()-before, time.Since(began))
	}},
}

// storm sends 5,000 ACKNACKs a second asking for the whole history again,
// for 8 s.
func storm(t *target, a *ddsattack.Attacker, p *ddsattack.Participant, reader, writer rtps.GUID, during func()) string {
	var sent atomic.Int64
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			for range 50 {
				if p.AckNack(reader, writer, 1) == nil {
					sent.Add(1)
				}
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	began, before := time.Now(), a.Received.Load()
	during()
	time.Sleep(time.Until(began.Add(8 * time.Second)))
	close(stop)
	<-stopped
	return fmt.Sprintf("[%d ACKNACKs] ", sent.Load()) + t.withinBudget("the storm", a.Received.Load()-before, time.Since(began))
}

// withinBudget checks what the attacker got back in took against frcd's
// egress budget (its rate over took, plus its burst).
func (t *target) withinBudget(what string, got int64, took time.Duration) string {
	limit := int64(took.Seconds()*egressBytes) + egressBurst
	if got > limit {
		t.fail("%s got %d bytes back in %.1fs, over the budget's %d", what, got, took.Seconds(), limit)
	}
	return fmt.Sprintf("[%s got %.0f kB/s back, budget %d kB/s]", what, float64(got)/took.Seconds()/1e3, egressBytes/1000)
}

// spoofedLeave sends leaves in a running subscriber's name from another
// host, which must keep receiving.
func spoofedLeave(t *target, during func()) string {
	s, err := startSubscriber(100_000)
	if err != nil {
		t.fail("%v", err)
		return ""
	}
	defer s.close()
	prefix, err := s.prefix()
	if err != nil {
		t.fail("%v", err)
		return ""
	}
	a, err := ddsattack.New(netip.MustParseAddr(spoofAddr), frcdDDS)
	if err != nil {
		t.fail("%v", err)
		return ""
	}
	defer a.Close()
	for range 100 {
		a.Leave(prefix)
		time.Sleep(10 * time.Millisecond)
	}
	during()
	s.drain()
	n, err := s.wait(20)
	if err != nil {
		t.fail("the subscriber whose leave was spoofed: %d joint states after, %v", n, err)
	}
	return fmt.Sprintf("[100 leaves of %x from %s; the subscriber got %d joint states after]", prefix[:], spoofAddr, n)
}

// waitFor polls cond until it holds or a minute has passed.
func waitFor(cond func() bool) {
	for end := time.Now().Add(time.Minute); !cond() && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
}

// peerDir holds the Cyclone DDS subscriber, built by buildSubscriber.
var peerDir string

// buildSubscriber builds frcd's tests' Cyclone DDS subscriber of
// /joint_states (cmd/frcd/testdata/ros2/joint_states.c, its type by idlc;
// as internal/ddstest builds it) into peerDir.
func buildSubscriber() error {
	dir, err := os.MkdirTemp("", "frcd-attack-dds")
	if err != nil {
		return err
	}
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	src, idl, inc := abs("cmd/frcd/testdata/ros2/joint_states.c"), abs("cmd/frcd/testdata/ros2/JointState.idl"), abs("internal/ddstest")
	for _, c := range [][]string{{"idlc", idl},
		{"sh", "-c", "gcc -O1 -o peer " + src + " JointState.c -I. -I" + inc + " $(pkg-config --cflags --libs CycloneDDS)"}} {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("%v: %v: %s", c, err, out)
		}
	}
	peerDir = dir
	return nil
}

// jsLine is a line of the subscriber: an event, or a joint state.
type jsLine struct {
	Event  string `json:"event"`
	N      int    `json:"n"`
	Finite int    `json:"finite"`
}

// subscriber is a running Cyclone DDS subscriber (Cyclone's defaults:
// SPDP by multicast on frcd0, domain 0).
type subscriber struct {
	cmd   *exec.Cmd
	lines chan jsLine
	start time.Time
}

func startSubscriber(count int) (*subscriber, error) {
	s := &subscriber{cmd: exec.Command(filepath.Join(peerDir, "peer"), strconv.Itoa(count)), lines: make(chan jsLine, 256), start: time.Now()}
	s.cmd.Env = cleanEnv()
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var l jsLine
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				select {
				case s.lines <- l:
				default: // nobody reading now
				}
			}
		}
	}()
	return s, nil
}

func (s *subscriber) close() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// drain forgets the lines read so far.
func (s *subscriber) drain() {
	for {
		select {
		case <-s.lines:
		default:
			return
		}
	}
}

// wait waits up to 20 s for n joint states, each with joints, finite;
// it returns how many came.
func (s *subscriber) wait(n int) (int, error) {
	limit := time.After(20 * time.Second)
	for got := 0; got < n; {
		select {
		case l, ok := <-s.lines:
			if !ok {
				return got, errors.New("the subscriber exited")
			}
			if l.Event == "" && (l.N == 0 || l.Finite != 1) {
				return got, fmt.Errorf("a joint state %+v", l)
			}
			if l.Event == "" {
				got++
			}
		case <-limit:
			return got, errors.New("not within 20 s")
		}
	}
	return n, nil
}

// prefix is the subscriber's GUID prefix, from its SPDP announcements on
// the multicast group (after it has had a joint state).
func (s *subscriber) prefix() (rtps.GuidPrefix, error) {
	if _, err := s.wait(1); err != nil {
		return rtps.GuidPrefix{}, fmt.Errorf("the subscriber: %v", err)
	}
	ifi, err := net.InterfaceByName("frcd0")
	if err != nil {
		return rtps.GuidPrefix{}, err
	}
	c, err := net.ListenMulticastUDP("udp4", ifi, &net.UDPAddr{IP: rtps.SPDPMulticastAddr.AsSlice(), Port: rtps.Ports{}.SPDPMulticast()})
	if err != nil {
		return rtps.GuidPrefix{}, err
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(40 * time.Second)) // Cyclone announces at least every 30 s
	buf := make([]byte, 65536)
	for {
		n, err := c.Read(buf)
		if err != nil {
			return rtps.GuidPrefix{}, fmt.Errorf("no SPDP from the subscriber: %v", err)
		}
		// Cyclone's announcements name it their vendor (frcd's are its own).
		var p rtps.GuidPrefix
		found := false
		rtps.Parse(buf[:n], func(h rtps.Header, _ rtps.Submessage) error {
			p, found = h.Prefix, h.Vendor == rtps.VendorCyclone
			return nil
		})
		if found {
			return p, nil
		}
	}
}

// subscribe starts a subscriber that discovers frcd and receives n joint
// states within 20 s.
func subscribe(n int) error {
	s, err := startSubscriber(n)
	if err != nil {
		return err
	}
	defer s.close()
	got, err := s.wait(n)
	if err != nil {
		return fmt.Errorf("%d of %d joint states: %v", got, n, err)
	}
	return nil
}
