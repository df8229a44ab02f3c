package robot

import (
	"testing"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/internal/testrobot"
	"github.com/frcd/frcd/urdf"
)

// bigRobot is testrobot.Big as bytes.
func bigRobot(n int) (urdfSrc, yamlSrc []byte) {
	u, y := testrobot.Big(n)
	return []byte(u), []byte(y)
}

func TestBigRobotIsClean(t *testing.T) {
	u, y := bigRobot(300)
	ur, ul := urdf.Parse("big.urdf", u)
	cf, cl := config.Parse("big.yaml", y)
	r, xl := Check(ur, cf)
	all := append(append(ul, cl...), xl...)
	if len(all) != 0 {
		t.Fatalf("%d findings, first: %v", len(all), all[0])
	}
	if len(r.Joints) != 300 || len(cf.Devices) != 324 {
		t.Fatalf("%d joints, %d devices", len(r.Joints), len(cf.Devices))
	}
}

// BenchmarkValidate300 parses and cross-checks a 300-joint robot, as
// `frcd validate` does (less reading the files).
func BenchmarkValidate300(b *testing.B) {
	u, y := bigRobot(300)
	b.SetBytes(int64(len(u) + len(y)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ur, ul := urdf.Parse("big.urdf", u)
		cf, cl := config.Parse("big.yaml", y)
		_, xl := Check(ur, cf)
		if len(ul)+len(cl)+len(xl) != 0 {
			b.Fatal("findings")
		}
	}
}
