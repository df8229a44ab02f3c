package rtps_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// lossEvent is a line of testdata/cyclone/lossy.c.
type lossEvent struct {
	Event  string `json:"event"`
	Topic  int    `json:"topic"`
	Got    int    `json:"got"`
	Missed int    `json:"missed"`
}

// Loss comparison: lossCount samples at 100 Hz from each writer, with
// lossPercent % of every packet in the namespace lost.
const (
	lossCount   = 1500
	lossPeriod  = 10 * time.Millisecond
	lossPercent = 20
)

// TestReliableUnderLossLikeCyclone: in a network namespace losing 20 % of
// every packet at random (ddstest.Lose: netem's loss, for a kernel
// without it), a Go writer and a Cyclone DDS writer each publish 1,500
// samples at 100 Hz, both with rmw's default QoS (reliable, volatile, keep
// last 10: a 100 ms history window), at the same time, to one Cyclone
// reliable reader of each topic, as a ROS 2 node reads /joint_states. The
// reader misses no more of the Go writer's samples than of Cyclone's.
func TestReliableUnderLossLikeCyclone(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: publishes for 15 s in a lossy network namespace; make test runs it")
	}
	bin := ddstest.Cyclone.Program(t, "testdata/cyclone/lossy.c", "testdata/String.idl")
	if !inNetns(t, "") {
		return
	}
	env := peerEnv()
	for i, kv := range env.Vars {
		if strings.HasPrefix(kv, "CYCLONEDDS_URI=") {
			env.Vars[i] = "CYCLONEDDS_URI=" + cycloneMulticastURI
		}
	}
	ddstest.Lose(t, lossPercent)
	p, err := rtps.Open(rtps.Config{Domain: interopDomain(), Multicast: true, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	w, err := p.NewWriter("rt/lossy_go", stringType, qosOf(true, false))
	if err != nil {
		t.Fatal(err)
	}
	count := strconv.Itoa(lossCount)
	tooltest.StartJSON[lossEvent](t, env, bin, "pub", "rt/lossy_cyclone", count, strconv.Itoa(int(lossPeriod/time.Microsecond)))
	sub := tooltest.StartJSON[lossEvent](t, env, bin, "sub", count, "rt/lossy_go", "rt/lossy_cyclone")
	for range 2 {
		sub.Wait("the Cyclone readers matched", func(e lossEvent) bool { return e.Event == "matched" })
	}
	if err := w.WaitMatched(waitCtx(t), 1); err != nil {
		t.Fatal(err)
	}
	tick := time.NewTicker(lossPeriod) // the rate under test, not a wait
	defer tick.Stop()
	var m ros2msg.String
	for i := range lossCount {
		<-tick.C
		m.Data = strconv.Itoa(i)
		w.Write(ros2msg.Marshal(nil, &m))
	}
	var missed [2]int
	for range 2 {
		e := sub.WaitWithin("each topic's last sample", 2*tooltest.Timeout, func(e lossEvent) bool { return e.Event == "done" })
		missed[e.Topic] = e.Missed
	}
	st := p.Stats()
	report := fmt.Sprintf("at %d %% loss, of %d samples the Cyclone reader missed %d from the Go writer (%.2f %%), %d from Cyclone's (%.2f %%); Go participant: %+v",
		lossPercent, lossCount, missed[0], 100*float64(missed[0])/lossCount, missed[1], 100*float64(missed[1])/lossCount, st)
	t.Log(report)
	if missed[0] > missed[1] {
		t.Fatal(report)
	}
}
