package ros

import (
	"testing"

	"github.com/bluenviron/goroslib/v2/pkg/msgproc"
	"github.com/bluenviron/goroslib/v2/pkg/serviceproc"
)

// TestDynamicReconfigureMD5: the md5sums dynparam and rqt_reconfigure
// compare, as Debian's python3-dynamic-reconfigure 1.7.3-1 has them (the
// _md5sum genpy wrote in msg/_Config.py, msg/_ConfigDescription.py and
// srv/_Reconfigure.py).
func TestDynamicReconfigureMD5(t *testing.T) {
	for _, c := range []struct {
		msg  any
		want string
	}{
		{DRConfig{}, "958f16a05573709014982821e6822580"},
		{DRConfigDescription{}, "757ce9d44ba8ddd801bb30bc456f946f"},
		{DRGroup{}, "9e8cd9e9423c94823db3614dd8b1cf7a"},
		{DRGroupState{}, "a2d87f51dc22930325041a2f8b1571f8"},
		{DRParamDescription{}, "7434fcb9348c13054e0c3b267c8cb34d"},
		{DRDouble{}, "d8512f27253c0f65f928a67c329cd658"},
	} {
		if got, err := msgproc.MD5(c.msg); err != nil || got != c.want {
			t.Errorf("%T: md5 %s (%v), want %s", c.msg, got, err, c.want)
		}
	}
	if got, err := serviceproc.MD5(Reconfigure{}); err != nil || got != "bb125d226a21982a4a98760418dc2672" {
		t.Errorf("Reconfigure: md5 %s (%v)", got, err)
	}
}
