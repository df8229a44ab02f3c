package ros2node

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCycloneInterface: the interface rmw_cyclonedds users set in
// CYCLONEDDS_URI, in the forms Cyclone DDS 0.10 reads (inline, with the
// wrapper elements left out and </> close tags; files with and without
// file://; the deprecated NetworkInterfaceAddress; another domain's
// settings left out).
func TestCycloneInterface(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cyclonedds.xml")
	full := `<?xml version="1.0" encoding="UTF-8" ?>
<CycloneDDS xmlns="https://cdds.io/config">
  <!-- a robot's -->
  <Domain Id="any">
    <General>
      <Interfaces>
        <NetworkInterface name="usb0" priority="default" multicast="false"/>
      </Interfaces>
      <DontRoute>true</DontRoute>
    </General>
  </Domain>
</CycloneDDS>
`
	if err := os.WriteFile(file, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		uri  string
		want string // name/address/multicast/others, "" for none
	}{
		{"", ""},
		{`<CycloneDDS><Domain><General><Interfaces><NetworkInterface name="eth0"/></Interfaces></General></Domain></CycloneDDS>`, "eth0///0"},
		{`<CycloneDDS><Domain><General><Interfaces><NetworkInterface address="10.27.0.2"/></></></></>`, "/10.27.0.2//0"},
		{`<General><Interfaces><NetworkInterface name="eth0" address="10.27.0.2" multicast="true"/><NetworkInterface name="usb0"/></Interfaces></General>`, "eth0/10.27.0.2/true/1"},
		{`<General><NetworkInterfaceAddress>usb0</NetworkInterfaceAddress></General>`, "usb0///0"},
		{`<General><NetworkInterfaceAddress>10.27.0.2, eth0</></>`, "/10.27.0.2//1"},
		{`<General><NetworkInterfaceAddress>auto</></>`, ""},
		{`<General><Interfaces><NetworkInterface autodetermine="true"/></></>`, ""},
		{`<Domain Id="7"><General><Interfaces><NetworkInterface name="eth0"/></></></>`, ""},
		{`<Domain Id="3"><General><Interfaces><NetworkInterface name="eth0"/></></></>`, "eth0///0"},
		{`<General><DontRoute>true</></>,<General><Interfaces><NetworkInterface name="eth1"/></></>`, "eth1///0"},
		{file, "usb0//false/0"},
		{"file://" + file, "usb0//false/0"},
		{"  ,file://" + file + ",<Tracing><Verbosity>fine</></>", "usb0//false/0"},
		{`<Discovery><Peers><Peer address="10.0.0.1"/></Peers></Discovery>`, ""},
	} {
		s, ok, err := CycloneInterface(c.uri, 3, nil)
		if err != nil {
			t.Errorf("%q: %v", c.uri, err)
			continue
		}
		got := ""
		if ok {
			got = fmt.Sprintf("%s/%s/%s/%d", s.Name, s.Address, s.Multicast, s.Others)
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.uri, got, c.want)
		}
	}
	s, _, _ := CycloneInterface("file://"+file, 0, nil)
	if want := "CYCLONEDDS_URI: " + file + ":7:9"; s.From != want {
		t.Errorf("From %q, want %q", s.From, want)
	}
}

// TestCycloneInterfaceErrors: malformed configuration is refused with
// where it is wrong; a file past the bound is not read.
func TestCycloneInterfaceErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xml")
	if err := os.WriteFile(bad, []byte("<CycloneDDS>\n  <Domain>\n    <General></Domain>\n</CycloneDDS>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.xml")
	if err := os.WriteFile(big, []byte("<CycloneDDS>"+strings.Repeat(" ", MaxCycloneConfigBytes)+"</CycloneDDS>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ uri, want string }{
		{bad, bad + ":3:14: close tag </Domain> does not match <General> at 3:5"},
		{"file://" + filepath.Join(dir, "none.xml"), "configuration file file://" + filepath.Join(dir, "none.xml")},
		{big, "longer than the 1048576 bytes read"},
		{`<General><Interfaces><NetworkInterface name="eth0></></>`, "CYCLONEDDS_URI:1:45: unterminated value of attribute name"},
		{`<General><Interfaces><NetworkInterface/></></>`, "NetworkInterface without name, address"},
		{`<General><Interfaces><NetworkInterface autodetermine="true" name="eth0"/></></>`, "autodetermine"},
		{`<General><Interfaces><NetworkInterface name="eth0" multicast="maybe"/></></>`, `multicast="maybe"`},
		{`<General><Interfaces><NetworkInterface name="eth0"/></Interfaces><NetworkInterfaceAddress>eth1</></>`, "deprecated"},
		{`<General>&bogus;</General>`, "unknown entity &bogus;"},
		{`<General x="1" x="2"/>`, "attribute x twice"},
		{"<a>" + strings.Repeat("<b>", maxConfigDepth) + "</>", "nested more than"},
		{"<" + strings.Repeat("a", MaxCycloneConfigBytes) + "/>", "more than the"},
	} {
		_, _, err := CycloneInterface(c.uri, 0, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60q: %v, want an error with %q", c.uri, err, c.want)
		}
	}
	// Closing tags of a file must be named.
	anon := filepath.Join(dir, "anon.xml")
	if err := os.WriteFile(anon, []byte("<CycloneDDS><Domain></></CycloneDDS>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := CycloneInterface(anon, 0, nil); err == nil || !strings.Contains(err.Error(), "anonymous close tag") {
		t.Errorf("anonymous close tag in a file: %v", err)
	}
}

// TestCycloneFilesBounded: the files CYCLONEDDS_URI names are bounded
// together, however often it names them: a file named a thousand times is
// not read a thousand times, and the files' bytes together are bounded.
func TestCycloneFilesBounded(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.xml")
	if err := os.WriteFile(small, []byte(`<CycloneDDS><Domain><General><Interfaces><NetworkInterface name="eth0"/></Interfaces></General></Domain></CycloneDDS>`), 0o644); err != nil {
		t.Fatal(err)
	}
	reads := 0
	read := func(name string, limit int64) ([]byte, error) {
		reads++
		return readLimited(name, limit)
	}
	if s, ok, err := CycloneInterface(small+","+small, 0, read); err != nil || !ok || s.Name != "eth0" {
		t.Fatalf("a file named twice: %+v %v %v", s, ok, err)
	}
	reads = 0
	_, _, err := CycloneInterface(strings.Repeat(small+",", 1000), 0, read)
	if err == nil || !strings.Contains(err.Error(), "more than 64 configuration files") {
		t.Errorf("a file named 1000 times: %v, want more than 64 configuration files", err)
	}
	if reads > maxCycloneConfigFiles {
		t.Errorf("a file named 1000 times was read %d times", reads)
	}
	big := filepath.Join(dir, "big.xml")
	if err := os.WriteFile(big, []byte("<CycloneDDS>"+strings.Repeat(" ", MaxCycloneConfigBytes-30)+"</CycloneDDS>"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = CycloneInterface(strings.Repeat(big+",", 5), 0, read)
	if err == nil || !strings.Contains(err.Error(), "its files together may be 4194304 bytes") {
		t.Errorf("five 1 MiB files: %v, want the files' total refused", err)
	}
}

// FuzzCycloneInterface: any CYCLONEDDS_URI is read or refused, never a
// panic.
func FuzzCycloneInterface(f *testing.F) {
	f.Add(`<General><Interfaces><NetworkInterface name="eth0"/></></>`)
	f.Add(`<CycloneDDS><Domain Id="0"><General><NetworkInterfaceAddress>10.0.0.1</NetworkInterfaceAddress></General></Domain></CycloneDDS>`)
	f.Add(`<a b='&#x41;'><![CDATA[x]]><!-- c --></a>,<d/>`)
	f.Fuzz(func(t *testing.T, uri string) {
		if !strings.HasPrefix(strings.TrimLeft(uri, " ,"), "<") {
			return // a file name: not the fuzzer's
		}
		_, _, _ = CycloneInterface(uri, 0, func(string, int64) ([]byte, error) { return nil, os.ErrNotExist })
	})
}

// TestCycloneInterfaceLinear: a CYCLONEDDS_URI of many inline parts (up
// to MaxCycloneConfigBytes of them) is read in time linear in its length:
// each part's positions (line:col, for its errors and From) are counted
// on from the last part's, not from the start of CYCLONEDDS_URI again
// (which took about a minute for 1 MiB of "<a/>,").
func TestCycloneInterfaceLinear(t *testing.T) {
	uri := strings.Repeat("<a/>,", 20000) + `<General><Interfaces><NetworkInterface name="eth1"/></Interfaces></General>`
	steps := 0
	lineColSteps = &steps
	defer func() { lineColSteps = nil }()
	s, ok, err := CycloneInterface(uri, 0, nil)
	if err != nil || !ok || s.Name != "eth1" || s.From != "CYCLONEDDS_URI:1:100022" {
		t.Fatalf("%+v %v %v, want eth1 from CYCLONEDDS_URI:1:100022", s, ok, err)
	}
	if steps > len(uri) {
		t.Errorf("line and column counted over %d bytes for a CYCLONEDDS_URI of %d: not linear", steps, len(uri))
	}
}
