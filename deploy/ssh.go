package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// handshakeTimeout bounds the SSH key exchange and login once a host
// answered.
const handshakeTimeout = 15 * time.Second

// logPoll is how often the robot program's log is read for new lines.
const logPoll = 200 * time.Millisecond

// NoAnswerError is a deploy where no host answered.
type NoAnswerError struct {
	// Tried are the addresses with the error of each.
	Tried []string
}

func (e *NoAnswerError) Error() string {
	return "no roboRIO answered: " + strings.Join(e.Tried, "; ") +
		" (is the robot on, and this computer on its radio's network or USB?)"
}

// HostKeyError is a host whose key differs from the one known_hosts has
// for it: a reimaged roboRIO, or another machine at its address.
type HostKeyError struct {
	Host, KnownHosts string
	Line             int
	Got              string // the offered key's SHA256 fingerprint
}

func (e *HostKeyError) Error() string {
	return fmt.Sprintf("the host key of %s (%s) is not the one %s:%d has for it: if the roboRIO was reimaged, remove the old key with `ssh-keygen -f %s -R '%s'` and deploy again",
		e.Host, e.Got, e.KnownHosts, e.Line, e.KnownHosts, e.Host)
}

// LoginError is a host that refused every way of logging in.
type LoginError struct {
	User, Host string
	Tried      []string
	Err        error
}

func (e *LoginError) Error() string {
	if e.User == SystemcoreUser {
		return fmt.Sprintf("%s@%s refused the login (tried %s): Systemcore's systemcore user has the password %q unless it was changed; give a key it accepts with --identity (%v)",
			e.User, e.Host, strings.Join(e.Tried, ", "), SystemcorePassword, e.Err)
	}
	return fmt.Sprintf("%s@%s refused the login (tried %s): the roboRIO's admin user has an empty password unless one was set in its web dashboard; give a key it accepts with --identity (%v)",
		e.User, e.Host, strings.Join(e.Tried, ", "), e.Err)
}

func (e *LoginError) Unwrap() error { return e.Err }

// defaultKeys are the private keys of SSHDir tried without --identity,
// in OpenSSH's order.
var defaultKeys = []string{"id_ed25519", "id_ecdsa", "id_rsa"}

// authMethods returns the ways to log in, and a description of each for
// the error when all fail.
func (o *Options) authMethods() ([]ssh.AuthMethod, []string, error) {
	var signers []ssh.Signer
	var tried []string
	addKey := func(file string, explicit bool) error {
		pem, err := os.ReadFile(file)
		if err != nil {
			if explicit || !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("deploy: the key %s: %v", file, err)
			}
			return nil
		}
		s, err := ssh.ParsePrivateKey(pem)
		var pp *ssh.PassphraseMissingError
		if errors.As(err, &pp) {
			if explicit {
				return fmt.Errorf("deploy: the key %s is encrypted and frcd deploy does not ask for passphrases: give an unencrypted key for the roboRIO", file)
			}
			fmt.Fprintf(o.Out, "deploy: skipping %s: it is encrypted\n", file)
			return nil
		}
		if err != nil {
			return fmt.Errorf("deploy: the key %s: %v", file, err)
		}
		signers = append(signers, s)
		tried = append(tried, fmt.Sprintf("the key %s (%s)", file, ssh.FingerprintSHA256(s.PublicKey())))
		return nil
	}
	if o.Identity != "" {
		if err := addKey(o.Identity, true); err != nil {
			return nil, nil, err
		}
	} else {
		for _, name := range defaultKeys {
			if err := addKey(filepath.Join(o.SSHDir, name), false); err != nil {
				return nil, nil, err
			}
		}
	}
	var methods []ssh.AuthMethod
	if len(signers) > 0 {
		methods = append(methods, ssh.PublicKeys(signers...))
	}
	emptyAnswers := func(_, _ string, questions []string, _ []bool) ([]string, error) {
		return make([]string, len(questions)), nil
	}
	if o.Password != "" {
		pw := o.Password
		methods = append(methods, ssh.Password(pw), ssh.KeyboardInteractive(func(_, _ string, questions []string, _ []bool) ([]string, error) {
			answers := make([]string, len(questions))
			for i := range answers {
				answers[i] = pw
			}
			return answers, nil
		}))
		// The SSH client tries each method once: the default password
		// stands instead of the empty one.
		return methods, append(tried, "the target's default password"), nil
	}
	methods = append(methods, ssh.Password(""), ssh.KeyboardInteractive(emptyAnswers))
	tried = append(tried, "the empty password")
	return methods, tried, nil
}

// hostKeyCallback checks host keys against known_hosts; a host it does not
// list is trusted on first use: its fingerprint is printed and its key
// recorded (roboRIOs are reimaged often, so a fixed list would go stale,
// and a changed key is refused with the command that forgets the old one).
func (o *Options) hostKeyCallback() ssh.HostKeyCallback {
	return func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		fp := ssh.FingerprintSHA256(key)
		if _, err := os.Stat(o.KnownHosts); err == nil {
			check, err := knownhosts.New(o.KnownHosts)
			if err != nil {
				return fmt.Errorf("reading %s: %v", o.KnownHosts, err)
			}
			err = check(hostname, remote, key)
			if err == nil {
				fmt.Fprintf(o.Out, "deploy: %s's host key %s is the one in %s\n", hostname, fp, o.KnownHosts)
				return nil
			}
			var ke *knownhosts.KeyError
			if !errors.As(err, &ke) {
				return err // a revoked key
			}
			if len(ke.Want) > 0 {
				return &HostKeyError{Host: knownhosts.Normalize(hostname), KnownHosts: o.KnownHosts, Line: ke.Want[0].Line, Got: fp}
			}
		}
		if err := os.MkdirAll(filepath.Dir(o.KnownHosts), 0o700); err != nil {
			return err
		}
		f, err := os.OpenFile(o.KnownHosts, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(f, knownhosts.Line([]string{knownhosts.Normalize(hostname)}, key))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("recording the host key in %s: %v", o.KnownHosts, err)
		}
		fmt.Fprintf(o.Out, "deploy: first connection to %s: trusting its %s host key %s (recorded in %s)\n", hostname, key.Type(), fp, o.KnownHosts)
		return nil
	}
}

// conn is a logged-in SSH connection with its SFTP session.
type conn struct {
	host   string
	root   string
	client *ssh.Client
	sftp   *sftp.Client
	stop   func() bool
}

// connect logs in to the first host that answers. A host that answers but
// refuses the login ends the search: the next address is the same roboRIO.
func (o *Options) connect(ctx context.Context, auth []ssh.AuthMethod, tried []string) (*conn, error) {
	var noAnswer []string
	for _, h := range o.Hosts {
		addr := withPort(h)
		d := net.Dialer{Timeout: o.DialTimeout}
		nc, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			fmt.Fprintf(o.Out, "deploy: %s: no answer (%v)\n", addr, err)
			noAnswer = append(noAnswer, fmt.Sprintf("%s: %v", addr, err))
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		fmt.Fprintf(o.Out, "deploy: %s answered\n", addr)
		_ = nc.SetDeadline(time.Now().Add(handshakeTimeout))
		cfg := &ssh.ClientConfig{User: o.Target.User, Auth: auth, HostKeyCallback: o.hostKeyCallback()}
		sc, chans, reqs, err := ssh.NewClientConn(nc, addr, cfg)
		if err != nil {
			nc.Close()
			var hk *HostKeyError
			switch {
			case errors.As(err, &hk):
				return nil, fmt.Errorf("deploy: %w", hk)
			case strings.Contains(err.Error(), "unable to authenticate"):
				return nil, fmt.Errorf("deploy: %w", &LoginError{User: o.Target.User, Host: addr, Tried: tried, Err: err})
			}
			return nil, fmt.Errorf("deploy: %s: %v", addr, err)
		}
		_ = nc.SetDeadline(time.Time{})
		client := ssh.NewClient(sc, chans, reqs)
		fc, err := sftp.NewClient(client, sftp.UseConcurrentWrites(true))
		if err != nil {
			client.Close()
			return nil, fmt.Errorf("deploy: %s: starting SFTP: %v", addr, err)
		}
		fmt.Fprintf(o.Out, "deploy: logged in as %s@%s\n", o.Target.User, addr)
		c := &conn{host: addr, root: o.Target.Root, client: client, sftp: fc}
		c.stop = context.AfterFunc(ctx, func() { client.Close() })
		return c, nil
	}
	return nil, fmt.Errorf("deploy: %w", &NoAnswerError{Tried: noAnswer})
}

func (c *conn) close() {
	c.stop()
	c.sftp.Close()
	c.client.Close()
}

// run runs a shell command on the remote machine with the NI and FRC
// tools on its PATH, as GradleRIO does.
func (c *conn) run(cmd string) error {
	s, err := c.client.NewSession()
	if err != nil {
		return fmt.Errorf("deploy: %s: %v", c.host, err)
	}
	defer s.Close()
	script := shellQuote(c.root + PathScript)
	out, err := s.CombinedOutput("[ -r " + script + " ] && . " + script + "; " + cmd)
	if err != nil {
		return fmt.Errorf("deploy: on %s, `%s` failed: %v\n%s", c.host, cmd, err, bytes.TrimSpace(out))
	}
	return nil
}

// killCommand stops the robot program, and restarts it with restart.
func (c *conn) killCommand(restart bool) string {
	cmd := shellQuote(c.root+KillScript) + " -t"
	if restart {
		cmd += " -r"
	}
	return cmd
}

// putAll copies the uploads in order, adding each to res.Files and
// saying so on out.
func (c *conn) putAll(ups []upload, res *Result, out io.Writer) error {
	for _, u := range ups {
		if err := c.put(u.local, u.remote, u.mode); err != nil {
			return err
		}
		res.Files = append(res.Files, u.remote)
		fmt.Fprintf(out, "deploy: copied %s to %s\n", u.local, u.remote)
	}
	return nil
}

// put copies a local file to the remote path with the mode.
func (c *conn) put(local, remote string, mode os.FileMode) error {
	f, err := os.Open(local)
	if err != nil {
		return fmt.Errorf("deploy: %v", err)
	}
	defer f.Close()
	return c.install(f, remote, mode)
}

// write writes data to the remote path with the mode.
func (c *conn) write(remote string, data []byte, mode os.FileMode) error {
	return c.install(bytes.NewReader(data), remote, mode)
}

// install writes a file beside remote, sets its mode and renames it over
// remote, so that nothing ever runs a half-copied frcd and a running one
// keeps its old file.
func (c *conn) install(r io.Reader, remote string, mode os.FileMode) error {
	fail := func(err error) error { return fmt.Errorf("deploy: %s:%s: %v", c.host, remote, err) }
	if err := c.sftp.MkdirAll(path.Dir(remote)); err != nil {
		return fail(err)
	}
	tmp := remote + ".deploying"
	f, err := c.sftp.Create(tmp)
	if err != nil {
		return fail(err)
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = c.sftp.Chmod(tmp, mode)
	}
	if err == nil {
		err = c.sftp.PosixRename(tmp, remote)
	}
	if err != nil {
		_ = c.sftp.Remove(tmp)
		return fail(err)
	}
	return nil
}

// size is the size of a remote file, or 0.
func (c *conn) size(remote string) int64 {
	fi, err := c.sftp.Stat(remote)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// follow reads the lines added to a remote file after offset, calling emit
// for each, until it has maxLines lines or wait has passed. A file that
// shrinks was started anew: it is read from its beginning. (One started
// anew that has grown past offset by the first look is read from offset:
// SFTP gives no inode and mtimes in whole seconds, so size is the only
// sign; the previous run's log is long, as frcd prints a status line each
// second, so the new one is found.)
func (c *conn) follow(ctx context.Context, remote string, offset int64, maxLines int, wait time.Duration, emit func(string)) ([]string, error) {
	var lines []string
	var partial []byte
	deadline := time.Now().Add(wait)
	tick := time.NewTicker(logPoll)
	defer tick.Stop()
	for {
		if fi, err := c.sftp.Stat(remote); err == nil && fi.Size() != offset {
			if fi.Size() < offset {
				offset, partial = 0, nil
			}
			data, err := c.readAt(remote, offset, fi.Size()-offset)
			if err != nil {
				return lines, err
			}
			offset += int64(len(data))
			partial = append(partial, data...)
			for {
				i := bytes.IndexByte(partial, '\n')
				if i < 0 {
					break
				}
				line := strings.TrimRight(string(partial[:i]), "\r")
				partial = partial[i+1:]
				lines = append(lines, line)
				emit(line)
				if len(lines) >= maxLines {
					return lines, nil
				}
			}
		}
		if time.Now().After(deadline) {
			if len(partial) > 0 {
				lines = append(lines, string(partial))
				emit(string(partial))
			}
			return lines, nil
		}
		select {
		case <-ctx.Done():
			return lines, ctx.Err()
		case <-tick.C:
		}
	}
}

// readAt reads n bytes of a remote file from offset.
func (c *conn) readAt(remote string, offset, n int64) ([]byte, error) {
	f, err := c.sftp.Open(remote)
	if err != nil {
		return nil, fmt.Errorf("deploy: %s:%s: %v", c.host, remote, err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, n))
}
