package devices

import (
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(sparkMaxDriver) }

// sparkMaxDriver declares the type: its keys and facts, driver, CAN traffic
// and HAL needs (rev_spark.go has what it shares with the SPARK Flex).
var sparkMaxDriver = Driver{Type: sparkMaxType, New: newREVSpark(frc.SparkModelMax), CAN: &CANTraffic{Kind: canSparkMax, NumberKey: "id"}, Needs: hal.CapCAN}

var sparkMaxType = sparkType("spark_max", "SparkMax",
	"A REV SPARK MAX on the CAN bus (firmware 25.x or 26.x), usually with a NEO: driven at the frame level, its built-in encoder measuring its joint.", "NEO")

var canSparkMax = sparkKind("REV SPARK MAX")
