package qemutest

import (
	"bytes"
	"compress/gzip"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Initramfs is a root file system for the kernel to unpack: files,
// directories, symbolic links and device nodes, written as a newc cpio
// archive (the format the kernel's initramfs unpacker reads,
// Documentation/driver-api/early-userspace/buffer-format.rst). Parent
// directories are added as needed. Adding a path twice replaces it.
type Initramfs struct {
	entries map[string]entry
}

type entry struct {
	mode  uint32 // file type and permission bits, as in struct stat
	data  []byte // a file's contents or a link's target
	major uint32 // a device node's
	minor uint32
}

// File types of a cpio entry's mode (linux/stat.h).
const (
	sIFDIR = 0o040000
	sIFREG = 0o100000
	sIFLNK = 0o120000
	sIFCHR = 0o020000
)

// NewInitramfs returns an archive holding /dev/console (the kernel opens
// it for init's standard streams before any devtmpfs is mounted) and the
// usual empty mount points.
func NewInitramfs() *Initramfs {
	a := &Initramfs{entries: map[string]entry{}}
	for _, d := range []string{"/dev", "/proc", "/sys", "/tmp", "/run", "/etc"} {
		a.Dir(d)
	}
	a.CharDev("/dev/console", 0o600, 5, 1)
	return a
}

func clean(p string) string { return path.Clean("/" + p) }

func (a *Initramfs) parents(p string) {
	for d := path.Dir(p); d != "/"; d = path.Dir(d) {
		if _, ok := a.entries[d]; !ok {
			a.entries[d] = entry{mode: sIFDIR | 0o755}
		}
	}
}

// Dir adds a directory.
func (a *Initramfs) Dir(p string) {
	p = clean(p)
	a.parents(p)
	a.entries[p] = entry{mode: sIFDIR | 0o755}
}

// File adds a regular file with those contents and permission bits.
func (a *Initramfs) File(p string, data []byte, perm os.FileMode) {
	p = clean(p)
	a.parents(p)
	a.entries[p] = entry{mode: sIFREG | uint32(perm.Perm()), data: data}
}

// Symlink adds a symbolic link to target.
func (a *Initramfs) Symlink(p, target string) {
	p = clean(p)
	a.parents(p)
	a.entries[p] = entry{mode: sIFLNK | 0o777, data: []byte(target)}
}

// CharDev adds a character device node.
func (a *Initramfs) CharDev(p string, perm os.FileMode, major, minor uint32) {
	p = clean(p)
	a.parents(p)
	a.entries[p] = entry{mode: sIFCHR | uint32(perm.Perm()), major: major, minor: minor}
}

// HostFile adds the host's file src at p, with its permission bits.
func (a *Initramfs) HostFile(p, src string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	a.File(p, data, fi.Mode())
	return nil
}

// libDirs are where Debian keeps shared libraries, searched in order; the
// libraries are put in the first, which the dynamic loader of a Debian
// userland searches by default.
var libDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"}

// Executable adds the host's program src at p, and when it is dynamically
// linked, its program interpreter at the same path and every shared
// library it needs (DT_NEEDED, recursively) under /lib/x86_64-linux-gnu.
func (a *Initramfs) Executable(p, src string) error {
	if err := a.HostFile(p, src); err != nil {
		return err
	}
	return a.libraries(src, map[string]bool{})
}

func (a *Initramfs) libraries(src string, done map[string]bool) error {
	f, err := elf.Open(src)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type != elf.PT_INTERP {
			continue
		}
		b, err := io.ReadAll(prog.Open())
		if err != nil {
			return fmt.Errorf("%s: program interpreter: %w", src, err)
		}
		interp := strings.TrimRight(string(b), "\x00")
		if !done[interp] {
			done[interp] = true
			if err := a.HostFile(interp, interp); err != nil {
				return fmt.Errorf("%s: program interpreter: %w", src, err)
			}
		}
	}
	needed, err := f.ImportedLibraries()
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	for _, lib := range needed {
		if done[lib] {
			continue
		}
		done[lib] = true
		host := ""
		for _, d := range libDirs {
			if _, err := os.Stat(filepath.Join(d, lib)); err == nil {
				host = filepath.Join(d, lib)
				break
			}
		}
		if host == "" {
			return fmt.Errorf("%s needs %s, found in none of %s", src, lib, strings.Join(libDirs, ", "))
		}
		if err := a.HostFile(path.Join(libDirs[0], lib), host); err != nil {
			return err
		}
		if err := a.libraries(host, done); err != nil {
			return err
		}
	}
	return nil
}

// Busybox adds the host's busybox (a static one: Debian's busybox-static)
// as /bin/busybox with a link /bin/NAME for each applet.
func (a *Initramfs) Busybox(src string, applets ...string) error {
	if err := a.Executable("/bin/busybox", src); err != nil {
		return err
	}
	for _, name := range applets {
		a.Symlink("/bin/"+name, "busybox")
	}
	return nil
}

// Modules adds the kernel modules of those names (as modprobe names them:
// can_raw or can-raw) with every module they depend on (the kernel's
// modules.dep), decompressed (.ko.gz, .ko.xz, .ko.zst: busybox's insmod
// loads plain .ko files), under /lib/modules/NAME.ko. It returns their
// paths in the order to load them, dependencies first.
func (a *Initramfs) Modules(k *Kernel, names ...string) ([]string, error) {
	deps, err := k.moduleDeps()
	if err != nil {
		return nil, err
	}
	var order []string
	seen := map[string]bool{}
	var visit func(rel string, stack []string) error
	visit = func(rel string, stack []string) error {
		if seen[rel] {
			return nil
		}
		if slices.Contains(stack, rel) {
			return fmt.Errorf("modules.dep: %s depends on itself", rel)
		}
		for _, d := range deps[rel] {
			if err := visit(d, append(stack, rel)); err != nil {
				return err
			}
		}
		seen[rel] = true
		data, err := readModule(filepath.Join(k.Modules, rel))
		if err != nil {
			return err
		}
		p := "/lib/modules/" + moduleName(rel) + ".ko"
		a.File(p, data, 0o644)
		order = append(order, p)
		return nil
	}
	for _, name := range names {
		rel := ""
		for r := range deps {
			if moduleName(r) == strings.ReplaceAll(name, "-", "_") {
				rel = r
				break
			}
		}
		if rel == "" {
			return nil, fmt.Errorf("kernel %s has no module %s (is it built in, or not built? see %s)", k.Release, name, k.ConfigPath)
		}
		if err := visit(rel, nil); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// moduleName is a module's name from its file: kernel/net/can/can-raw.ko.xz
// is can_raw.
func moduleName(rel string) string {
	base := path.Base(rel)
	if i := strings.Index(base, ".ko"); i >= 0 {
		base = base[:i]
	}
	return strings.ReplaceAll(base, "-", "_")
}

// readModule reads a module file, decompressing it by its suffix: gzip
// in Go, xz and zstd with Debian's xz-utils and zstd tools.
func readModule(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.HasSuffix(file, ".ko"):
		return data, nil
	case strings.HasSuffix(file, ".ko.gz"):
		r, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return io.ReadAll(r)
	case strings.HasSuffix(file, ".ko.xz"):
		return decompress(file, data, "xz", "xz-utils")
	case strings.HasSuffix(file, ".ko.zst"):
		return decompress(file, data, "zstd", "zstd")
	}
	return nil, fmt.Errorf("%s: not a kernel module file (.ko, .ko.gz, .ko.xz, .ko.zst)", file)
}

func decompress(file string, data []byte, tool, pkg string) ([]byte, error) {
	if _, err := exec.LookPath(tool); err != nil {
		return nil, fmt.Errorf("%s: decompressing it needs %s (Debian package %s)", file, tool, pkg)
	}
	cmd := exec.Command(tool, "-dc")
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %s -dc: %w: %s", file, tool, err, stderr.String())
	}
	return out, nil
}

// WriteTo writes the archive as newc cpio, entries sorted by path (so
// every directory comes before what it holds).
func (a *Initramfs) WriteTo(w io.Writer) (int64, error) {
	paths := make([]string, 0, len(a.entries))
	for p := range a.entries {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	cw := &countWriter{w: w}
	for i, p := range paths {
		e := a.entries[p]
		writeEntry(cw, uint32(i+1), strings.TrimPrefix(p, "/"), e)
	}
	writeEntry(cw, 0, "TRAILER!!!", entry{})
	return cw.n, cw.err
}

// writeEntry writes one newc header, the name and the data, each padded
// to 4 bytes.
func writeEntry(w *countWriter, ino uint32, name string, e entry) {
	nlink := uint32(1)
	if e.mode&0o170000 == sIFDIR {
		nlink = 2
	}
	fmt.Fprintf(w, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		ino, e.mode, 0, 0, nlink, 0, len(e.data), 0, 0, e.major, e.minor, len(name)+1, 0)
	w.Write(append([]byte(name), 0))
	w.pad()
	w.Write(e.data)
	w.pad()
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

func (c *countWriter) pad() {
	if r := c.n % 4; r != 0 {
		c.Write(make([]byte, 4-r))
	}
}

// Write writes the archive to a file.
func (a *Initramfs) Write(file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	_, err = a.WriteTo(f)
	return errors.Join(err, f.Close())
}
