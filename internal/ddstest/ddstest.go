// Package ddstest builds and runs the DDS implementations that frcd's
// rtps and ROS 2 packages are tested against: small C programs on Cyclone
// DDS 0.10.2 (cyclonedds-dev, types by idlc) and C++ programs on Fast DDS
// 2.9.1 (libfastrtps-dev, types by fastddsgen), from Debian's packages.
// Each peer finds the Go participant by unicast on 127.0.0.1 (loopback
// has no multicast here) at the discovery ports of participant ids 0 to
// MaxPeerID (Env), or by its implementation's default discovery, SPDP by
// multicast, in a network namespace a test creates (MulticastEnv).
package ddstest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
)

// MaxPeerID is the highest participant id the peers use and probe.
const MaxPeerID = 20

// Peer is a DDS implementation a test program is built with.
type Peer struct {
	Name  string
	tools []tooltest.Tool
	files map[string]string // a file that must exist -> its Debian package
	// build returns the commands that build program out of the IDL files
	// and the source, run in a fresh directory.
	build func(out, src string, idl []string) [][]string
}

var (
	gcc       = tooltest.Tool{Name: "gcc", Package: "gcc"}
	gxx       = tooltest.Tool{Name: "g++", Package: "g++"}
	pkgConfig = tooltest.Tool{Name: "pkg-config", Package: "pkgconf"}
)

// idlBase is an IDL file's name without directory and extension.
func idlBase(f string) string { return strings.TrimSuffix(filepath.Base(f), ".idl") }

// Cyclone is Cyclone DDS 0.10.2, what rmw_cyclonedds_cpp uses.
var Cyclone = &Peer{
	Name:  "Cyclone",
	tools: []tooltest.Tool{{Name: "idlc", Package: "cyclonedds-tools"}, gcc, pkgConfig},
	files: map[string]string{"/usr/include/dds/dds.h": "cyclonedds-dev"},
	build: func(out, src string, idl []string) [][]string {
		var cmds [][]string
		c := "gcc -O1 -Wall -o " + out + " " + src + " -I. -I" + here()
		for _, f := range idl {
			cmds = append(cmds, []string{"idlc", f})
			c += " " + idlBase(f) + ".c"
		}
		return append(cmds, []string{"sh", "-c", c + " $(pkg-config --cflags --libs CycloneDDS)"})
	},
}

// FastDDS is Fast DDS 2.9.1 with fastddsgen, what rmw_fastrtps_cpp uses.
var FastDDS = &Peer{
	Name:  "FastDDS",
	tools: []tooltest.Tool{{Name: "fastddsgen", Package: "fastddsgen"}, gxx},
	files: map[string]string{"/usr/include/fastdds/dds/domain/DomainParticipant.hpp": "libfastrtps-dev"},
	build: func(out, src string, idl []string) [][]string {
		cmds := [][]string{append([]string{"fastddsgen", "-d", "."}, idl...)}
		c := []string{"g++", "-std=c++14", "-O1", "-o", out, src, "-I.", "-I" + here()}
		for _, f := range idl {
			c = append(c, idlBase(f)+".cxx", idlBase(f)+"PubSubTypes.cxx")
		}
		return append(cmds, append(c, "-lfastrtps", "-lfastcdr"))
	},
}

type built struct {
	once sync.Once
	bin  string
	err  error
}

var (
	mu     sync.Mutex
	builds = map[string]*built{}
	dirs   []string
)

// Program builds (once per test binary) the peer's program from src (a
// C or C++ file) and its types from the IDL files, and returns its path.
// The test skips when a tool is missing, or fails under FRCD_REQUIRE_TOOLS=1.
func (p *Peer) Program(t testing.TB, src string, idl ...string) string {
	t.Helper()
	tooltest.Require(t, p.tools...)
	for f, pkg := range p.files {
		tooltest.RequireFile(t, f, "the Debian package "+pkg)
	}
	src, _ = filepath.Abs(src)
	for i := range idl {
		idl[i], _ = filepath.Abs(idl[i])
	}
	key := p.Name + "\x00" + src
	mu.Lock()
	b, ok := builds[key]
	if !ok {
		b = &built{}
		builds[key] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "ddstest")
		if err != nil {
			b.err = err
			return
		}
		mu.Lock()
		dirs = append(dirs, dir)
		mu.Unlock()
		out := filepath.Join(dir, "peer")
		for _, c := range p.build(out, src, idl) {
			cmd := exec.Command(c[0], c[1:]...)
			cmd.Dir = dir
			if o, err := cmd.CombinedOutput(); err != nil {
				b.err = fmt.Errorf("%s: %v\n%s", strings.Join(c, " "), err, o)
				return
			}
		}
		b.bin = out
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

// Cleanup removes the built programs; call it from TestMain after m.Run.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	for _, d := range dirs {
		os.RemoveAll(d)
	}
	dirs = nil
}

// CycloneURI configures Cyclone for loopback and unicast discovery: peers
// on 127.0.0.1, participant indices 0 to MaxPeerID.
var CycloneURI = fmt.Sprintf(`<CycloneDDS><Domain id="any"><General><Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces>`+
	`<AllowMulticast>false</AllowMulticast></General><Discovery><ParticipantIndex>auto</ParticipantIndex>`+
	`<MaxAutoParticipantIndex>%d</MaxAutoParticipantIndex><Peers><Peer address="127.0.0.1"/></Peers></Discovery></Domain></CycloneDDS>`, MaxPeerID)

// Env is the environment of a peer on domain: the caller's without its
// ROS_, CYCLONEDDS_ and DDSTEST_ variables, plus ROS_DOMAIN_ID and
// CYCLONEDDS_URI.
func Env(domain int) *tooltest.ROS {
	return env(fmt.Sprintf("ROS_DOMAIN_ID=%d", domain), "CYCLONEDDS_URI="+CycloneURI)
}

// MulticastEnv is the environment of a peer with its implementation's
// default discovery, SPDP by multicast, as on a robot's network: the
// caller's without its ROS_, CYCLONEDDS_ and DDSTEST_ variables (so Cyclone takes
// its defaults), plus DDSTEST_DISCOVERY=multicast (the Fast DDS peers then
// keep Fast DDS's default participant QoS: see unicast.hpp) and domain's
// ROS_DOMAIN_ID, or none for domain < 0 (the peers' default, 0).
func MulticastEnv(domain int) *tooltest.ROS {
	vars := []string{"DDSTEST_DISCOVERY=multicast"}
	if domain >= 0 {
		vars = append(vars, fmt.Sprintf("ROS_DOMAIN_ID=%d", domain))
	}
	return env(vars...)
}

// env is the caller's environment without its ROS_, CYCLONEDDS_ and
// DDSTEST_ variables, plus add.
func env(add ...string) *tooltest.ROS {
	var vars []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") && !strings.HasPrefix(kv, "CYCLONEDDS_") && !strings.HasPrefix(kv, "DDSTEST_") {
			vars = append(vars, kv)
		}
	}
	return &tooltest.ROS{Vars: append(vars, add...)}
}

// Domain is a DDS domain id for this test process, apart from other runs
// at once on the machine (ports 7400 + 250·domain...).
func Domain() int { return 10 + os.Getpid()%90 }

// here is this package's directory (unicast.hpp for the Fast DDS peers,
// userdata.h for the Cyclone ones).
func here() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}
