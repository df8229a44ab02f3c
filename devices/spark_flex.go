package devices

import (
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(sparkFlexDriver) }

// sparkFlexDriver declares the type: its keys and facts, driver, CAN traffic
// and HAL needs (rev_spark.go has what it shares with the SPARK MAX).
var sparkFlexDriver = Driver{Type: sparkFlexType, New: newREVSpark(frc.SparkModelFlex), CAN: &CANTraffic{Kind: canSparkFlex, NumberKey: "id"}, Needs: hal.CapCAN}

var sparkFlexType = sparkType("spark_flex", "SparkFlex",
	"A REV SPARK Flex on the CAN bus (firmware 25.x or 26.x), usually docked to a NEO Vortex: driven at the frame level, its built-in encoder measuring its joint.", "NEO Vortex")

var canSparkFlex = sparkKind("REV SPARK Flex")
