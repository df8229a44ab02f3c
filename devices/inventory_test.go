package devices

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

const inventoryYAML = `joints:
  - {name: pdp, type: pdp, id: 0, required: true}
  - {name: c, type: compressor, pcm_id: 0}
  - {name: arm, type: talon_srx, id: 4, required: true}
  - {name: pigeon, type: pigeon_imu, frame_id: base_link, talon: arm, required: true}
  - {name: lift, type: can_victor_spx, id: 5}
  - {name: wrist, type: talon_srx, id: 6, can_bus: can1, required: true}
`

func TestInventory(t *testing.T) {
	ms := time.Millisecond
	now := time.Second
	f := parseYAML(t, inventoryYAML)
	heard := map[string][]hal.Heard{"": {
		{ID: hal.HeartbeatID, Last: now, Count: 50},                                            // the roboRIO's: not a device
		{ID: 0x02040084, Last: now, Count: 100},                                                // our own Control_3 to the arm: not its
		{ID: 0x02041404, Last: now - 5*ms, Count: 100},                                         // arm Status_1: present
		{ID: 0x02041544, Last: now - 200*ms, Count: 3},                                         // arm Status_6_Misc, not in the table: still the arm's
		{ID: 0x08041400, Last: now - 300*ms, Count: 40},                                        // pdp Status1: stale
		{ID: 0x08041740, Last: now - 150*ms, Count: 40},                                        // pdp Energy, newer: still stale
		{ID: frc.FRCID(frc.DevMotorController, frc.MfrREV, 0x60, 9), Last: now - ms, Count: 7}, // a REV motor controller 9
		{ID: frc.FRCID(frc.DevMotorController, frc.MfrREV, 0x61, 9), Last: now - 2*ms, Count: 7},
		{ID: frc.FRCID(frc.DevGyro, frc.MfrKauaiLabs, 0, 1), Last: now - 500*ms, Count: 1},
	}}
	// The PCM (c), the Pigeon on the arm and the Victor (lift) are not
	// heard; can1 has no monitor.
	inv := TakeInventory(ExpectedCAN(f), heard, now)
	var got []string
	for _, r := range inv.Rows {
		got = append(got, r.Status+" "+r.Name+" "+r.DeviceName+" "+r.Manufacturer+" "+BusName(r.Bus)+" "+strconv.Itoa(r.Number)+" "+strconv.Itoa(int(r.Frames))+" "+r.Age.String())
	}
	sameLines(t, "rows", got,
		"stale pdp CTRE PDP CTRE can0 0 80 150ms",
		"missing c CTRE PCM CTRE can0 0 0 0s",
		"present arm CTRE Talon SRX CTRE can0 4 103 5ms",
		"missing pigeon CTRE Pigeon IMU on a Talon SRX CTRE can0 4 0 0s",
		"missing lift CTRE Victor SPX CTRE can0 5 0 0s",
		"unmonitored wrist CTRE Talon SRX CTRE can1 6 0 0s",
		"unexpected  motor controller REV can0 9 14 1ms",
		"unexpected  gyro Kauai Labs can0 1 1 500ms")
	miss := inv.RequiredMissing()
	if len(miss) != 2 || miss[0].Name != "pdp" || miss[1].Name != "pigeon" {
		t.Errorf("required missing %+v, want pdp (stale) and pigeon", miss)
	}
	if want := `required CAN devices missing or stale: pdp "pdp" (CTRE PDP 0 on CAN bus can0), pigeon_imu "pigeon" (CTRE Pigeon IMU on a Talon SRX 4 on CAN bus can0)`; inv.Reason() != want {
		t.Errorf("reason %q\nwant %q", inv.Reason(), want)
	}
	if r := inv.Rows[6]; len(r.IDs) != 2 || r.IDs[0] != 0x02051809 || r.LastSeen != now-ms {
		t.Errorf("unexpected REV row %+v", r)
	}
	if ids := inv.Rows[0].IDs; len(ids) != 4 || ids[0] != 0x08041400 || ids[3] != 0x08041740 {
		t.Errorf("pdp ids %08X", ids)
	}

	// The Pigeon's own frame through the Talon makes it present; the
	// Talon, with it, stays present on its own Status_1 only.
	heard[""] = append(heard[""], hal.Heard{ID: 0x02042004, Last: now - 10*ms, Count: 9})
	inv = TakeInventory(ExpectedCAN(f), heard, now)
	if p := inv.Rows[3]; p.Status != Present || p.Frames != 9 {
		t.Errorf("pigeon %+v, want present with 9 frames", p)
	}
	if a := inv.Rows[2]; a.Status != Present || a.Frames != 103 {
		t.Errorf("arm %+v, want present with 103 frames", a)
	}
	// Fresh frames make the PDP present: nothing required is missing.
	heard[""] = append(heard[""], hal.Heard{ID: 0x08041440, Last: now - 100*ms, Count: 1})
	inv = TakeInventory(ExpectedCAN(f), heard, now)
	if inv.Rows[0].Status != Present || len(inv.RequiredMissing()) != 0 || inv.Reason() != "" {
		t.Errorf("pdp %+v, required missing %+v, reason %q", inv.Rows[0], inv.RequiredMissing(), inv.Reason())
	}
	// One required device missing: its status in the reason.
	only := TakeInventory(ExpectedCAN(parseYAML(t, "joints:\n  - {name: w, type: talon_srx, id: 6, required: true}\n")), map[string][]hal.Heard{"": nil}, now)
	if want := `required CAN device missing: talon_srx "w" (CTRE Talon SRX 6 on CAN bus can0)`; only.Reason() != want {
		t.Errorf("reason %q, want %q", only.Reason(), want)
	}
}

func TestInventoryText(t *testing.T) {
	now := time.Second
	f := parseYAML(t, "joints:\n  - {name: pdp, type: pdp, id: 0, required: true}\n  - {name: arm, type: talon_srx, id: 4}\n")
	heard := map[string][]hal.Heard{"": {
		{ID: 0x02041404, Last: now - 20*time.Millisecond, Count: 98},
		{ID: frc.FRCID(frc.DevGyro, frc.MfrKauaiLabs, 0, 1), Last: now - 500*time.Millisecond, Count: 1},
	}}
	inv := TakeInventory(ExpectedCAN(f), heard, now)
	var b bytes.Buffer
	if err := inv.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `STATUS      BUS   NAME            TYPE       DEVICE          MANUFACTURER  NUMBER  LAST SEEN  FRAMES  IDS
missing     can0  pdp (required)  pdp        CTRE PDP        CTRE          0       never      0       08041400 08041440 08041480 08041740
present     can0  arm             talon_srx  CTRE Talon SRX  CTRE          4       20ms ago   98      02041404 02041444 020414C4 02041644 020416C4 02041704 02041744 02041484 020415C4
unexpected  can0  -               -          gyro            Kauai Labs    1       500ms ago  1       04090001
1 present, 0 stale, 1 missing, 1 unexpected, 0 unmonitored; 1 required missing or stale
`
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := inv.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Now     int64 `json:"now_ns"`
		Devices []struct {
			Status, Name, Bus, Manufacturer string
			Number                          int
			IDs                             []uint32 `json:"ids"`
			Required, Heard                 bool
			Age                             int64 `json:"age_ns"`
		} `json:"devices"`
		RequiredMissing []string `json:"required_missing"`
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if j.Now != int64(now) || len(j.Devices) != 3 || j.Devices[0].Status != "missing" || !j.Devices[0].Required ||
		j.Devices[1].Age != int64(20*time.Millisecond) || j.Devices[2].Manufacturer != "Kauai Labs" || j.Devices[2].IDs[0] != 0x04090001 ||
		len(j.RequiredMissing) != 1 || j.RequiredMissing[0] != "pdp" {
		t.Errorf("json %+v", j)
	}
	// Empty: valid JSON with empty lists.
	b.Reset()
	Inventory{}.WriteJSON(&b)
	if !strings.Contains(b.String(), `"devices": []`) || !strings.Contains(b.String(), `"required_missing": []`) {
		t.Errorf("empty inventory JSON %s", b.String())
	}
}
