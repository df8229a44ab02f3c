package deploy

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeWPILib writes a WPILib install's maven tree: for each library of
// SystemcoreLibs but skip, its artifact's linuxsystemcore zip in each of
// versions, the library under linux/systemcore/shared/ holding its name
// and version.
func fakeWPILib(t *testing.T, skip string, versions ...string) string {
	t.Helper()
	install := t.TempDir()
	for _, lib := range SystemcoreLibs {
		if lib == skip {
			continue
		}
		name := systemcoreArtifacts[lib]
		for _, v := range versions {
			dir := filepath.Join(install, "maven", "org", "wpilib", name, name+"-cpp", v)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			f, err := os.Create(filepath.Join(dir, name+"-cpp-"+v+"-linuxsystemcore.zip"))
			if err != nil {
				t.Fatal(err)
			}
			z := zip.NewWriter(f)
			for _, e := range []string{"LICENSE.md", "linux/systemcore/shared/" + lib + ".debug", "linux/systemcore/shared/" + lib} {
				w, err := z.Create(e)
				if err != nil {
					t.Fatal(err)
				}
				w.Write([]byte(e + " " + v))
			}
			if err := z.Close(); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
	return install
}

// The libraries come out of the newest version's zips; a missing artifact
// is named with where it was looked for.
func TestExtractSystemcoreLibs(t *testing.T) {
	install := fakeWPILib(t, "", "2027.0.0-beta-2", "2027.1.9", "2027.1.10", "2027.0.0")
	if !isWPILibInstall(install) || !isWPILibInstall(filepath.Join(install, "maven")) || isWPILibInstall(t.TempDir()) {
		t.Fatal("isWPILibInstall")
	}
	out := t.TempDir()
	took, err := extractSystemcoreLibs(install, out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "hal-cpp 2027.1.10, ntcore-cpp 2027.1.10, wpinet-cpp 2027.1.10, wpiutil-cpp 2027.1.10"; strings.Join(took, ", ") != want {
		t.Errorf("took %q, want %q", took, want)
	}
	for _, lib := range SystemcoreLibs {
		b, err := os.ReadFile(filepath.Join(out, lib))
		if err != nil || string(b) != "linux/systemcore/shared/"+lib+" 2027.1.10" {
			t.Errorf("%s: %q, %v", lib, b, err)
		}
	}
	_, err = extractSystemcoreLibs(fakeWPILib(t, "libwpinet.so", "2027.1.0"), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "has no wpinet-cpp (looked in ") {
		t.Errorf("wpinet missing: %v", err)
	}
	for _, c := range [][2]string{{"2027.0.0-beta-2", "2027.0.0"}, {"2027.1.9", "2027.1.10"}, {"2027.0.0-alpha-9", "2027.0.0-beta-1"}} {
		if compareVersions(c[0], c[1]) >= 0 || compareVersions(c[1], c[0]) <= 0 {
			t.Errorf("%s is not before %s", c[0], c[1])
		}
	}
}
