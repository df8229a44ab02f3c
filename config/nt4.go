package config

import "strings"

// NT4 is the type of the `nt4:` section: what frcd's NetworkTables 4
// server and WPILOG files publish, and whether dashboards may command.
//
//	nt4: {prefix: /frcd, commands: false, tuning: false, layout: "2026"}
var NT4 = &Type{
	Name: "nt4", Group: "section", Class: "-",
	Summary: "The NetworkTables 4 server's topics (frcd run --nt) and WPILOG files' entries (frcd run --log).",
	Doc: "frcd publishes its state for FRC dashboards (AdvantageScope, Elastic) under prefix: joints with units, IMUs, " +
		"power, the compressor, loop timing, the Driver Station, device health as WPILib Alerts and, on the sim, the true " +
		"pose. With commands: true a dashboard may command a controller by publishing a double (a group: double[]) to " +
		"PREFIX/commands/CONTROLLER; commands are refused while the robot is disabled, and always when commands is false, " +
		"and counted with the other refused commands. With tuning: true a dashboard may set a PID controller's gains by " +
		"publishing double[] {p, i, d, f} to PREFIX/tuning/CONTROLLER (PREFIX/controllers/CONTROLLER/gains shows them), " +
		"under the same rules. With layout: \"2027\" the tables are laid out as a WPILib 2027 robot program's: the topics under " +
		"/Telemetry, each PID controller a PIDController tunable at /Tunables/controllers/CONTROLLER/ (p, i, d, f doubles a " +
		"dashboard sets on the topic itself, under the tuning rules), the Field2d a struct:Pose2d[] at /Telemetry/Field, the " +
		"Alerts at /SmartDashboard/Alerts (docs/dashboards.md).",
	Place: YAMLOnly,
	Keys: []Key{
		{Name: "prefix", Kind: String, Default: "/frcd", Doc: "The root of frcd's topic and log entry names (/Telemetry when layout is 2027 and no prefix is given)."},
		{Name: "commands", Kind: Bool, Default: false, Doc: "Whether NT4 clients may command the controllers (never while disabled)."},
		{Name: "tuning", Kind: Bool, Default: false, Doc: "Whether NT4 clients may set the PID controllers' gains (never while disabled)."},
		{Name: "layout", Kind: String, Default: "2026", Enum: []string{"2026", "2027"}, Doc: "The NetworkTables layout: " +
			"2026 for AdvantageScope's and Elastic's current releases, 2027 for WPILib 2027's /Telemetry and /Tunables " +
			"(frcd run --nt-layout overrides it)."},
	},
	Check: checkNT4,
}

// checkNT4 checks the prefix is a topic path.
func checkNT4(d *Device, c *Checker) {
	p := d.Str("prefix")
	if !strings.HasPrefix(p, "/") || strings.Contains(p, "//") || strings.TrimRight(p, "/") == "" || strings.ContainsAny(p, " \t\n$") {
		c.Errorf(d.ValuePos("prefix"), "nt4: prefix %q is not a topic path such as /frcd (starts with /, no //, spaces or $)", p)
	}
}
