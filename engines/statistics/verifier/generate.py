"""Hidden cases from the vendored NIST StRD files: stdin {"seed": n} -> stdout {"cases": [...]}."""
import json
import sys

import sessions

print(json.dumps({"cases": sessions.hidden(int(json.load(sys.stdin).get("seed", 0)))}))
