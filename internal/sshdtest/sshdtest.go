// Package sshdtest runs Debian's OpenSSH server (openssh-server) for
// tests: on a free loopback port, as the current user, with its own
// sshd_config, a throwaway host key and a throwaway client key made in Go,
// so that deploy code is tested against the real server it meets on a
// roboRIO rather than against a Go imitation.
package sshdtest

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/frcd/frcd/internal/tooltest"
)

// Server is a running sshd.
type Server struct {
	// Addr is 127.0.0.1:port.
	Addr string
	// HostKey is the server's public host key.
	HostKey ssh.PublicKey
	// User is the login name the server accepts (the current user).
	User string
	// ClientKey is the path of an unencrypted private key (OpenSSH format)
	// that the server accepts; ClientKeyPublic is its public half.
	ClientKey       string
	ClientKeyPublic ssh.PublicKey
}

// NewKey writes a fresh ed25519 private key in OpenSSH format to path
// (mode 0600) and returns its public half.
func NewKey(t testing.TB, path string) ssh.PublicKey {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sshPub
}

// Start starts sshd for the rest of the test (it skips or fails, as
// tooltest.Require says, when openssh-server is missing) and returns once
// it listens.
func Start(t testing.TB) *Server {
	t.Helper()
	tooltest.Require(t, tooltest.SSHD)
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// As root sshd chroots its pre-authentication child into its
		// privilege separation directory, which the Debian service makes at
		// start (RuntimeDirectory=sshd); a machine that never started the
		// service lacks it.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatalf("sshd needs /run/sshd when run as root: %v", err)
		}
	}
	dir := t.TempDir()
	s := &Server{User: u.Username, ClientKey: filepath.Join(dir, "client_ed25519")}
	s.HostKey = NewKey(t, filepath.Join(dir, "host_ed25519"))
	s.ClientKeyPublic = NewKey(t, s.ClientKey)
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), ssh.MarshalAuthorizedKey(s.ClientKeyPublic), 0o600); err != nil {
		t.Fatal(err)
	}
	port := tooltest.FreePort(t)
	s.Addr = "127.0.0.1:" + strconv.Itoa(port)
	config := fmt.Sprintf(`# sshd for one test: loopback only, key login only, no PAM
ListenAddress 127.0.0.1
Port %d
HostKey %s/host_ed25519
PidFile %s/sshd.pid
AuthorizedKeysFile %s/authorized_keys
AllowUsers %s
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
PrintMotd no
PrintLastLog no
Subsystem sftp internal-sftp
LogLevel INFO
`, port, dir, dir, dir, u.Username)
	cfgPath := filepath.Join(dir, "sshd_config")
	if err := os.WriteFile(cfgPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tooltest.SSHD.Name, "-D", "-e", "-f", cfgPath)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	listening := make(chan struct{})
	exited := make(chan struct{})
	var log strings.Builder
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			line := sc.Text()
			log.WriteString(line + "\n")
			if !once && strings.Contains(line, "Server listening on") {
				once = true
				close(listening)
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	go func() { <-logDone; _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(tooltest.Timeout):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("sshd log:\n%s", log.String())
		}
	})
	guard := time.NewTimer(tooltest.Timeout)
	defer guard.Stop()
	select {
	case <-listening:
	case <-exited:
		t.Fatalf("sshd exited before listening:\n%s", log.String())
	case <-guard.C:
		t.Fatalf("sshd not listening within %s", tooltest.Timeout)
	}
	return s
}
