package ddstest

import (
	"net"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
)

// TestLose: with Lose(20) in the test's namespace, of 4,000 UDP datagrams
// sent over lo between 17 % and 23 % are lost (the binomial's mean 800,
// its standard deviation 25: the bounds are 4.8 deviations out), and none
// once the test's cleanup removed the program.
func TestLose(t *testing.T) {
	if !tooltest.InNetns(t, "ip link set lo up", nil) {
		return
	}
	const n = 4000
	count := func() int {
		rx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		defer rx.Close()
		rx.SetReadBuffer(1 << 22)
		tx, err := net.DialUDP("udp4", nil, rx.LocalAddr().(*net.UDPAddr))
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Close()
		for i := range n {
			if _, err := tx.Write([]byte{byte(i)}); err != nil {
				t.Fatal(err)
			}
		}
		tx.Write([]byte("end")) // may be lost too: the deadline ends the count then
		got, buf := 0, make([]byte, 8)
		for {
			rx.SetReadDeadline(time.Now().Add(time.Second)) // a bound on a hang, not a wait: the datagrams are already queued
			k, err := rx.Read(buf)
			if err != nil || k == 3 {
				return got
			}
			got++
		}
	}
	t.Run("lossy", func(t *testing.T) {
		Lose(t, 20)
		lost := n - count()
		t.Logf("%d of %d datagrams lost", lost, n)
		if lost < n*17/100 || lost > n*23/100 {
			t.Fatalf("%d of %d datagrams lost, want 20 %%", lost, n)
		}
	})
	if got := count(); got != n {
		t.Fatalf("after the cleanup %d of %d datagrams arrived", got, n)
	}
}
