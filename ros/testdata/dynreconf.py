#!/usr/bin/python3
# dynreconf.py SERVER get | SERVER set JSON: dynamic_reconfigure.client
# (as rqt_reconfigure and dynparam use it) against a server; prints the
# configuration it reports (get) or the reply's (set) as JSON, the gains
# only, NaN as "NaN".
import json
import math
import sys

import rospy
from dynamic_reconfigure.client import Client

rospy.init_node("dynreconf", anonymous=True)
c = Client(sys.argv[1], timeout=10)
if sys.argv[2] == "get":
    cfg = c.get_configuration(timeout=10)
else:
    cfg = c.update_configuration(json.loads(sys.argv[3]))
out = {k: v for k, v in cfg.items() if isinstance(v, float)}
print(json.dumps(out, sort_keys=True))
