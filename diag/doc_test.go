package diag_test

import (
	"os"

	"github.com/frcd/frcd/diag"
)

func ExampleList_WriteText() {
	var l diag.List
	l.Warnf(diag.Pos{File: "robot.yaml", Line: 9, Col: 5}, "joint %q is never measured", "wrist")
	l.Errorf(diag.Pos{File: "robot.yaml", Line: 3, Col: 14}, "unknown type %q%s", "tallon", diag.DidYouMean("tallon", []string{"talon", "spark"}))
	l.Sort()
	l.WriteText(os.Stdout)
	// Output:
	// robot.yaml:3:14: error: unknown type "tallon" (did you mean "talon"?)
	// robot.yaml:9:5: warning: joint "wrist" is never measured
}
