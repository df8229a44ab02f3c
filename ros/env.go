package ros

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// DefaultMasterURI is ROS's default when ROS_MASTER_URI is unset.
const DefaultMasterURI = "http://localhost:11311"

// Env is the ROS environment frcd honours; goroslib reads none of it.
type Env struct {
	MasterURI string // ROS_MASTER_URI
	IP        string // ROS_IP
	Hostname  string // ROS_HOSTNAME
}

// EnvFrom reads the ROS environment through getenv (os.Getenv).
func EnvFrom(getenv func(string) string) Env {
	return Env{MasterURI: getenv("ROS_MASTER_URI"), IP: getenv("ROS_IP"), Hostname: getenv("ROS_HOSTNAME")}
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
