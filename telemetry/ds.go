package telemetry

import (
	"encoding/binary"
	"time"

	"github.com/frcd/frcd/hal"
)

// The Driver Station as WPILib robot programs publish it, so dashboards
// find it where they look (AdvantageScope shades enabled, autonomous and
// teleop from it: src/shared/log/LogUtil.ts reads
// NT:/FMSInfo/FMSControlData before 2027 and
// NT:/DriverStation/ControlWord/enabled, .../robotMode after):
//
//   - WPILib 2026, /FMSInfo (allwpilib v2026.2.2
//     wpilibc/src/main/native/cpp/DriverStation.cpp, MatchDataSender):
//     .type "FMSInfo", GameSpecificMessage, EventName, MatchNumber,
//     ReplayNumber, MatchType (int), IsRedAlliance (boolean),
//     StationNumber (int), FMSControlData (int: HAL_ControlWord's bits,
//     hal/src/main/native/include/hal/DriverStationTypes.h: enabled 0,
//     autonomous 1, test 2, eStop 3, fmsAttached 4, dsAttached 5).
//   - WPILib 2027, /DriverStation (allwpilib #9047, c3693386f7;
//     caf0fb2 wpilibc/.../driverstation/internal/DriverStationBackend.cpp):
//     .type "DriverStation", GameData, EventName, MatchNumber,
//     ReplayNumber, MatchType, IsRedAlliance, StationNumber,
//     AllianceStationID (int: HAL_AllianceStationID, 0 unknown, 1-3 red,
//     4-6 blue), ControlWord (struct:ControlWord, 8 bytes: opModeHash
//     bits 0-55, robotMode 56-57 with unknown 0, autonomous 1,
//     teleoperated 2, utility 3, enabled 58, eStop 59, fmsAttached 60,
//     dsAttached 61; hal/.../ControlWordStruct.java), OpMode (string).
//
// The op mode selected (hal.DSState.OpMode) is OpMode, by its name (""
// for none; WPILib's OpModeToString), and the ControlWord's opModeHash,
// its id's hash bits. WPILib 2027 has no test mode: it maps to utility.

// ControlWord is WPILib 2027's control word struct.
var ControlWord = Schema{"ControlWord", "uint64 opModeHash:56;enum{unknown=0,autonomous=1,teleoperated=2,utility=3} uint64 robotMode:2;bool enabled:1;bool eStop:1;bool fmsAttached:1;bool dsAttached:1;"}

// Match is what the Driver Station says of the match, beyond the control
// word: Options.Match fills it.
type Match struct {
	hal.MatchInfo
	// Red and Station (1-3; 0 unknown) are the alliance station.
	Red     bool
	Station int
}

// controlData is WPILib 2026's FMSControlData.
func controlData(ds hal.DSState) int64 {
	var v int64
	for i, b := range []bool{ds.Enabled, ds.Mode == hal.Autonomous, ds.Mode == hal.Test, ds.EStop, ds.FMS, ds.Attached} {
		if b {
			v |= 1 << i
		}
	}
	return v
}

// controlWord is WPILib 2027's ControlWord.
func controlWord(ds hal.DSState) uint64 {
	mode := uint64(2) // teleoperated
	switch ds.Mode {
	case hal.Autonomous:
		mode = 1
	case hal.Test:
		mode = 3
	}
	if !ds.Attached {
		mode = 0
	}
	v := mode<<56 | uint64(ds.OpMode)&0x00FFFFFFFFFFFFFF
	for i, b := range []bool{ds.Enabled, ds.EStop, ds.FMS, ds.Attached} {
		if b {
			v |= 1 << (58 + i)
		}
	}
	return v
}

// wpilibDS are the topics of both tables.
type wpilibDS struct {
	fmsControl, word *Topic
	opMode           *Topic
	// per table: game message, event, match number, replay, type, red,
	// station
	match     [2][7]*Topic
	stationID *Topic
	info      Match
	lastMatch time.Duration
	matchSeq  uint64 // Options.MatchSeq at the last Match
}

func (s *Source) addWPILibDS() {
	d := &s.wds
	for i, table := range []string{"/FMSInfo", "/DriverStation"} {
		typ := table[1:]
		s.add(table+"/.type", "string", String, props("SmartDashboard", typ)).setString(typ, time.Microsecond)
		game := "GameSpecificMessage"
		if i == 1 {
			game = "GameData"
		}
		d.match[i] = [7]*Topic{
			s.add(table+"/"+game, "string", String, "{}"),
			s.add(table+"/EventName", "string", String, "{}"),
			s.add(table+"/MatchNumber", "int", Int, "{}"),
			s.add(table+"/ReplayNumber", "int", Int, "{}"),
			s.add(table+"/MatchType", "int", Int, "{}"),
			s.add(table+"/IsRedAlliance", "boolean", Bool, "{}"),
			s.add(table+"/StationNumber", "int", Int, "{}"),
		}
	}
	d.fmsControl = s.add("/FMSInfo/FMSControlData", "int", Int, "{}")
	d.stationID = s.add("/DriverStation/AllianceStationID", "int", Int, "{}")
	s.addSchema(ControlWord)
	d.word = s.add("/DriverStation/ControlWord", "struct:ControlWord", Raw, "{}")
	d.word.Raw = make([]byte, 8)
	d.opMode = s.add("/DriverStation/OpMode", "string", String, "{}")
	d.opMode.setString("", time.Microsecond)
	d.lastMatch = -time.Hour
}

// needed says whether one of the tables' topics is needed.
func (d *wpilibDS) needed() bool {
	if anyNeeded(d.fmsControl, d.word, d.stationID, d.opMode) {
		return true
	}
	for i := range d.match {
		for _, t := range d.match[i] {
			if t.need {
				return true
			}
		}
	}
	return false
}

// sampleWPILibDS updates the control words every cycle and the match
// once a second, or at once when Options.MatchSeq says it changed.
func (s *Source) sampleWPILibDS(now time.Duration) {
	d := &s.wds
	seq := d.matchSeq
	if s.o.MatchSeq != nil {
		seq = s.o.MatchSeq()
	}
	if s.o.Match != nil && (now-d.lastMatch >= time.Second || seq != d.matchSeq) {
		d.lastMatch, d.matchSeq = now, seq
		s.o.Match(&d.info)
	}
	m := &d.info
	ds := s.snap.DS
	ds.Enabled = s.snap.Enabled
	d.fmsControl.setInt(controlData(ds), now)
	var old [8]byte
	copy(old[:], d.word.Raw)
	binary.LittleEndian.PutUint64(d.word.Raw, controlWord(ds))
	d.word.setRaw(old[:], now)
	d.opMode.setString(s.o.OpModes.Name(ds.OpMode), now)
	station := m.Station
	if station < 0 || station > 3 {
		station = 0
	}
	id := int64(0)
	if station > 0 {
		id = int64(station)
		if !m.Red {
			id += 3
		}
	}
	d.stationID.setInt(id, now)
	for i := range d.match {
		t := &d.match[i]
		t[0].setString(m.GameMessage, now)
		t[1].setString(m.Event, now)
		t[2].setInt(int64(m.Number), now)
		t[3].setInt(int64(m.Replay), now)
		t[4].setInt(int64(m.Type), now)
		t[5].setBool(m.Red || station == 0, now) // WPILib: red when unknown
		if i == 0 {
			t[6].setInt(int64(max(station, 1)), now) // 2026: 1 when unknown
		} else {
			t[6].setInt(int64(station), now) // 2027: 0 when unknown
		}
	}
}
