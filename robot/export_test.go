package robot

// The external tests (controllers_test.go, package robot_test, which
// imports control to register the controller types) use these helpers.
var (
	CheckFindings = check
	LoadFindings  = loadFindings
)
