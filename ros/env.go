package ros

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
)

// DefaultMasterURI is ROS's default when ROS_MASTER_URI is unset.
const DefaultMasterURI = "http://localhost:11311"

// Env is the ROS environment frcd honours; goroslib reads none of it.
type Env struct {
	MasterURI string // ROS_MASTER_URI
	IP        string // ROS_IP
	Hostname  string // ROS_HOSTNAME
	// Home is ROS_HOME, or ~/.ros: the embedded master keeps its state
	// there (MasterState). Empty: it keeps none.
	Home string
}

// EnvFrom reads the ROS environment through getenv (os.Getenv).
func EnvFrom(getenv func(string) string) Env {
	home := getenv("ROS_HOME")
	if home == "" && getenv("HOME") != "" {
		home = filepath.Join(getenv("HOME"), ".ros")
	}
	return Env{MasterURI: getenv("ROS_MASTER_URI"), IP: getenv("ROS_IP"), Hostname: getenv("ROS_HOSTNAME"), Home: home}
}

// MasterState is the file where an embedded master serving hostport
// keeps its parameters and registrations, so that frcd restarted finds
// the other nodes again (package ros/master, persist.go): one per port,
// in Home. "" when Home is.
func (e Env) MasterState(hostport string) string {
	if e.Home == "" {
		return ""
	}
	_, port, _ := net.SplitHostPort(hostport)
	return filepath.Join(e.Home, "frcd-master-"+port+".state")
}

// Master returns the master's URI (http://host:port/) and its host:port,
// from ROS_MASTER_URI or the default.
func (e Env) Master() (uri, hostport string, err error) {
	raw := strings.TrimSpace(e.MasterURI)
	if raw == "" {
		raw = DefaultMasterURI
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return "", "", fmt.Errorf("ROS_MASTER_URI %q: want http://HOST:PORT, e.g. %s", raw, DefaultMasterURI)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "11311"
	}
	hostport = net.JoinHostPort(host, port)
	return "http://" + hostport + "/", hostport, nil
}

// Host is the address other nodes reach frcd at: ROS_IP, else
// ROS_HOSTNAME, else "" (goroslib picks the interface that reaches the
// master). ROS gives ROS_IP precedence, as here.
func (e Env) Host() string {
	if ip := strings.TrimSpace(e.IP); ip != "" {
		return ip
	}
	return strings.TrimSpace(e.Hostname)
}
