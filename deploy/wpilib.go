package deploy

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// systemcoreArtifacts are the Maven artifacts of a WPILib install that
// hold SystemcoreLibs, by library: org/wpilib/<name>/<name>-cpp (allwpilib
// shared/javacpp/publish.gradle at caf0fb2dcc: groupId org.wpilib.<nativeName>,
// artifactId <nativeName>-cpp), the linuxsystemcore classifier's zip.
var systemcoreArtifacts = map[string]string{
	"libwpiHal.so":  "hal",
	"libntcore.so":  "ntcore",
	"libwpinet.so":  "wpinet",
	"libwpiutil.so": "wpiutil",
}

// maxLib bounds a library read from a zip (libwpiHal.so is a few MB).
const maxLib = 256 << 20

// isWPILibInstall says whether dir is a WPILib install (~/wpilib/YEAR) or
// its maven directory, rather than a directory of libraries.
func isWPILibInstall(dir string) bool {
	for _, d := range []string{filepath.Join(dir, "maven", "org", "wpilib"), filepath.Join(dir, "org", "wpilib")} {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// extractSystemcoreLibs copies SystemcoreLibs out of a WPILib install's
// linuxsystemcore zips into out (the newest version of each artifact when
// it has several) and says which version it took; a missing artifact or
// library is named with where it was looked for.
func extractSystemcoreLibs(install, out string) ([]string, error) {
	repo := filepath.Join(install, "maven", "org", "wpilib")
	if _, err := os.Stat(repo); err != nil {
		repo = filepath.Join(install, "org", "wpilib")
	}
	var took []string
	for _, lib := range SystemcoreLibs {
		name := systemcoreArtifacts[lib]
		dir := filepath.Join(repo, name, name+"-cpp")
		entries, err := os.ReadDir(dir)
		var versions []string
		for _, e := range entries {
			if e.IsDir() {
				versions = append(versions, e.Name())
			}
		}
		if err != nil || len(versions) == 0 {
			return nil, fmt.Errorf("deploy: the WPILib install %s has no %s-cpp (looked in %s): install WPILib with the Systemcore (linuxsystemcore) libraries", install, name, dir)
		}
		slices.SortFunc(versions, compareVersions)
		v := versions[len(versions)-1]
		zipPath := filepath.Join(dir, v, name+"-cpp-"+v+"-linuxsystemcore.zip")
		if err := extractLib(zipPath, lib, filepath.Join(out, lib)); err != nil {
			return nil, err
		}
		took = append(took, name+"-cpp "+v)
	}
	return took, nil
}

// extractLib copies the entry .../shared/lib of zip file zipPath to dst.
func extractLib(zipPath, lib, dst string) error {
	z, err := zip.OpenReader(zipPath)
	if err != nil {
		return fmt.Errorf("deploy: %s: %w (the linuxsystemcore zip with %s)", zipPath, err, lib)
	}
	defer z.Close()
	for _, f := range z.File {
		if path.Base(f.Name) != lib || path.Base(path.Dir(f.Name)) != "shared" {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return fmt.Errorf("deploy: %s: %s: %w", zipPath, f.Name, err)
		}
		defer r.Close()
		w, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
		if err != nil {
			return err
		}
		n, err := io.Copy(w, io.LimitReader(r, maxLib+1))
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err == nil && n > maxLib {
			err = fmt.Errorf("over %d MiB", maxLib>>20)
		}
		if err != nil {
			return fmt.Errorf("deploy: %s: %s: %w", zipPath, f.Name, err)
		}
		return nil
	}
	return fmt.Errorf("deploy: %s has no %s under a shared/ directory", zipPath, lib)
}

// compareVersions orders versions such as 2027.1.10 after 2027.1.9 (each
// dot-separated part by its number when both are numbers), and
// 2027.0.0-beta-2 before 2027.0.0.
func compareVersions(a, b string) int {
	ab, apre, _ := strings.Cut(a, "-")
	bb, bpre, _ := strings.Cut(b, "-")
	ap, bp := strings.Split(ab, "."), strings.Split(bb, ".")
	for i := 0; i < max(len(ap), len(bp)); i++ {
		var x, y string
		if i < len(ap) {
			x = ap[i]
		}
		if i < len(bp) {
			y = bp[i]
		}
		if c := compareNum(x, y); c != 0 {
			return c
		}
	}
	switch {
	case apre == bpre:
		return 0
	case apre == "":
		return 1
	case bpre == "":
		return -1
	}
	return compareNum(apre, bpre)
}

func compareNum(x, y string) int {
	var xi, yi int
	_, ex := fmt.Sscan(x, &xi)
	_, ey := fmt.Sscan(y, &yi)
	if ex == nil && ey == nil && xi != yi {
		if xi < yi {
			return -1
		}
		return 1
	}
	return strings.Compare(x, y)
}
