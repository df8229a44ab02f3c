package ros2node

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// MaxCycloneConfigBytes bounds CYCLONEDDS_URI and each configuration file
// it names (a Cyclone DDS configuration is a few kB).
const MaxCycloneConfigBytes = 1 << 20

// The files CYCLONEDDS_URI names are bounded together too: each is read
// in full for each time it is named, so without these a 1 MiB
// CYCLONEDDS_URI naming one file half a million times would be read
// half a million times. A real configuration names one or two.
const (
	maxCycloneConfigFiles      = 64      // file parts read at most
	maxCycloneConfigTotalBytes = 4 << 20 // bytes read from all of them
)

// InterfaceSetting is the network interface a ROS 2 configuration names:
// by Name, by Address, or both (then they must be the same interface).
type InterfaceSetting struct {
	Name    string
	Address string
	// Multicast is Cyclone's NetworkInterface multicast attribute: "true"
	// (use multicast even when the interface has no MULTICAST flag),
	// "false" (never), or "" (default: as the interface's flag says).
	Multicast string
	// From says where it was set: "CYCLONEDDS_URI", or the file and its
	// line:col.
	From string
	// Others counts the further interfaces the configuration names
	// (Cyclone uses several; frcd's node uses one, the first).
	Others int
}

// CycloneInterface reads the interface rmw_cyclonedds users set in
// CYCLONEDDS_URI (uri), as Cyclone DDS 0.10 reads it (ddsi_config.c
// ddsi_config_init; elements in ddsi_cfgelems.h, 0.10.2 as Debian
// installs it): a list of parts separated by commas, each inline XML (it
// begins with '<'; the CycloneDDS and Domain elements may be left out and
// a close tag written </>) or a file name, with or without file://. The
// interface is CycloneDDS/Domain/General/Interfaces/NetworkInterface's
// name and address attributes (autodetermine="true": none), or the older
// General/NetworkInterfaceAddress (deprecated in 0.10; comma-separated,
// a value beginning with a digit or ':' an address, else a name; "auto":
// none). A Domain whose Id is neither "any" nor domain is left out. ok is
// false when nothing names an interface. readFile reads a file of at most
// limit bytes (nil: the file system's).
func CycloneInterface(uri string, domain int, readFile func(name string, limit int64) ([]byte, error)) (s InterfaceSetting, ok bool, err error) {
	if len(uri) > MaxCycloneConfigBytes {
		return s, false, fmt.Errorf("CYCLONEDDS_URI: %d bytes, more than the %d read", len(uri), MaxCycloneConfigBytes)
	}
	if readFile == nil {
		readFile = readLimited
	}
	c := &cycloneConfig{domain: domain}
	files, total := 0, 0
	// One reader for every inline part: its line and column count goes on
	// from the last part's (from the start again for each, many parts
	// took time quadratic in CYCLONEDDS_URI's length).
	inline := &xmlReader{src: uri, inline: true, where: "CYCLONEDDS_URI"}
	inline.onOpen, inline.onClose = c.open(inline), c.close(inline)
	for i := 0; i < len(uri); {
		if ch := uri[i]; ch == ',' || isXMLSpace(ch) {
			i++
			continue
		}
		if uri[i] == '<' {
			inline.pos = i
			end, err := inline.read()
			if err != nil {
				return s, false, err
			}
			i = end
			continue
		}
		name := uri[i:]
		if j := strings.IndexByte(name, ','); j >= 0 {
			name = name[:j]
		}
		i += len(name)
		if files++; files > maxCycloneConfigFiles {
			return s, false, fmt.Errorf("CYCLONEDDS_URI: more than %d configuration files named", maxCycloneConfigFiles)
		}
		limit := int64(min(MaxCycloneConfigBytes, maxCycloneConfigTotalBytes-total))
		text, err := readFile(name, limit)
		if err != nil && strings.HasPrefix(name, "file://") {
			text, err = readFile(strings.TrimPrefix(name, "file://"), limit)
		}
		if err != nil {
			if limit < MaxCycloneConfigBytes {
				return s, false, fmt.Errorf("CYCLONEDDS_URI: configuration file %s: %w (its files together may be %d bytes)", name, err, maxCycloneConfigTotalBytes)
			}
			return s, false, fmt.Errorf("CYCLONEDDS_URI: configuration file %s: %w", name, err)
		}
		total += len(text)
		r := &xmlReader{src: string(text), where: "CYCLONEDDS_URI: " + strings.TrimPrefix(name, "file://")}
		r.onOpen, r.onClose = c.open(r), c.close(r)
		if _, err := r.read(); err != nil {
			return s, false, err
		}
	}
	if c.err != nil {
		return s, false, c.err
	}
	switch {
	case len(c.interfaces) > 0:
		if c.deprecated != "" {
			return s, false, fmt.Errorf("CYCLONEDDS_URI: General/Interfaces and the deprecated General/NetworkInterfaceAddress both set (Cyclone refuses it)")
		}
		s = c.interfaces[0]
		s.Others = len(c.interfaces) - 1
		return s, true, nil
	case c.deprecated != "" && !strings.EqualFold(c.deprecated, "auto"):
		parts := strings.Split(c.deprecated, ",")
		v := strings.TrimSpace(parts[0])
		s = InterfaceSetting{From: c.deprecatedFrom, Others: len(parts) - 1}
		if v != "" && (v[0] == ':' || (v[0] >= '0' && v[0] <= '9')) {
			s.Address = v
		} else {
			s.Name = v
		}
		return s, true, nil
	}
	return s, false, nil
}

// readLimited reads the file name, refusing one longer than limit bytes.
func readLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("longer than the %d bytes read", limit)
	}
	return b, nil
}

// cycloneConfig collects the interface settings of Cyclone's
// configuration as its parts are read.
type cycloneConfig struct {
	domain         int
	interfaces     []InterfaceSetting
	deprecated     string // General/NetworkInterfaceAddress, the last one read
	deprecatedFrom string
	err            error
}

// settingPath is path's element names from General down, leaving out
// CycloneDDS and Domain (inline XML may start at any of them), and
// whether path is in a Domain for another domain id.
func (c *cycloneConfig) settingPath(path []*xmlElem) (names []string, otherDomain bool) {
	i := 0
	if i < len(path) && strings.EqualFold(path[i].name, "CycloneDDS") {
		i++
	}
	if i < len(path) && strings.EqualFold(path[i].name, "Domain") {
		for k, v := range path[i].attrs {
			if strings.EqualFold(k, "Id") && !strings.EqualFold(strings.TrimSpace(v), "any") && strings.TrimSpace(v) != strconv.Itoa(c.domain) {
				otherDomain = true
			}
		}
		i++
	}
	for _, e := range path[i:] {
		names = append(names, e.name)
	}
	return names, otherDomain
}

// is says whether names are want, case aside (Cyclone matches its
// element names so).
func is(names []string, want ...string) bool {
	if len(names) != len(want) {
		return false
	}
	for i := range names {
		if !strings.EqualFold(names[i], want[i]) {
			return false
		}
	}
	return true
}

func (c *cycloneConfig) open(r *xmlReader) func([]*xmlElem) {
	return func(path []*xmlElem) {
		names, other := c.settingPath(path)
		if other || !is(names, "General", "Interfaces", "NetworkInterface") {
			return
		}
		e := path[len(path)-1]
		s := InterfaceSetting{From: fmt.Sprintf("%s:%d:%d", r.where, e.line, e.col)}
		auto := false
		for k, v := range e.attrs {
			switch strings.ToLower(k) {
			case "name":
				s.Name = v
			case "address":
				s.Address = v
			case "autodetermine":
				auto = strings.EqualFold(v, "true")
			case "multicast":
				switch strings.ToLower(v) {
				case "true", "false":
					s.Multicast = strings.ToLower(v)
				case "default":
				default:
					c.fail(fmt.Errorf("%s: NetworkInterface multicast=%q: want true, false or default", s.From, v))
				}
			}
		}
		switch {
		case auto && (s.Name != "" || s.Address != ""):
			c.fail(fmt.Errorf("%s: NetworkInterface with autodetermine=\"true\" and a name or address (Cyclone refuses it)", s.From))
		case auto:
		case s.Name == "" && s.Address == "":
			c.fail(fmt.Errorf("%s: NetworkInterface without name, address or autodetermine=\"true\"", s.From))
		default:
			c.interfaces = append(c.interfaces, s)
		}
	}
}

func (c *cycloneConfig) close(r *xmlReader) func([]*xmlElem) {
	return func(path []*xmlElem) {
		names, other := c.settingPath(path)
		if other || !is(names, "General", "NetworkInterfaceAddress") {
			return
		}
		e := path[len(path)-1]
		c.deprecated = strings.TrimSpace(e.text.String())
		c.deprecatedFrom = fmt.Sprintf("%s:%d:%d", r.where, e.line, e.col)
	}
}

func (c *cycloneConfig) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}
