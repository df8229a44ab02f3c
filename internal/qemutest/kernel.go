package qemutest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Kernel is an installed kernel (Debian's linux-image-amd64): its image,
// release, modules and build configuration.
type Kernel struct {
	Image      string // /boot/vmlinuz-RELEASE
	Release    string // 6.1.0-26-amd64
	Modules    string // /lib/modules/RELEASE
	ConfigPath string // /boot/config-RELEASE
	config     map[string]string
}

// FindKernel returns the newest installed kernel whose build configuration
// sets each of those options (CONFIG_CAN_VCAN, ...) to y or m, with its
// image readable and its modules installed. Its error says which kernels
// it looked at and what each lacks.
func FindKernel(options ...string) (*Kernel, error) {
	images, _ := filepath.Glob("/boot/vmlinuz-*")
	slices.Sort(images)
	slices.Reverse(images) // newest first, near enough
	var why []string
	for _, img := range images {
		rel := strings.TrimPrefix(filepath.Base(img), "vmlinuz-")
		k := &Kernel{Image: img, Release: rel, Modules: "/lib/modules/" + rel, ConfigPath: "/boot/config-" + rel}
		if err := k.readConfig(); err != nil {
			why = append(why, err.Error())
			continue
		}
		var lacks []string
		for _, o := range options {
			if v := k.config[o]; v != "y" && v != "m" {
				lacks = append(lacks, o)
			}
		}
		if len(lacks) > 0 {
			why = append(why, fmt.Sprintf("%s lacks %s", rel, strings.Join(lacks, ", ")))
			continue
		}
		if f, err := os.Open(img); err != nil {
			why = append(why, fmt.Sprintf("%s: %v", img, err))
			continue
		} else {
			f.Close()
		}
		if _, err := os.Stat(filepath.Join(k.Modules, "modules.dep")); err != nil {
			why = append(why, fmt.Sprintf("%s: no modules: %v", rel, err))
			continue
		}
		return k, nil
	}
	if len(images) == 0 {
		why = append(why, "no /boot/vmlinuz-*")
	}
	return nil, fmt.Errorf("no installed kernel with %s (%s): install Debian's linux-image-amd64",
		strings.Join(options, ", "), strings.Join(why, "; "))
}

func (k *Kernel) readConfig() error {
	f, err := os.Open(k.ConfigPath)
	if err != nil {
		return err
	}
	defer f.Close()
	k.config = map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, v, ok := strings.Cut(sc.Text(), "="); ok && strings.HasPrefix(name, "CONFIG_") {
			k.config[name] = v
		}
	}
	return sc.Err()
}

// Config is the value of a build option (y, m, a number, a quoted
// string), "" when unset.
func (k *Kernel) Config(option string) string { return k.config[option] }

// moduleDeps reads modules.dep: each module's file, relative to Modules,
// and the files of the modules it needs.
func (k *Kernel) moduleDeps() (map[string][]string, error) {
	f, err := os.Open(filepath.Join(k.Modules, "modules.dep"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	deps := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		mod, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		deps[mod] = strings.Fields(rest)
	}
	return deps, sc.Err()
}
