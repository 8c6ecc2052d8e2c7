"""Lines of QEMU's log trace backend, as run-guest.py records them (-msg timestamp=on -D FILE).

QEMU 7.2 prefixes each event with "PID@SEC.USEC:" (host time, seconds since the epoch);
QEMU 11.1 with "YYYY-MM-DDTHH:MM:SS.USECZ " (the same time, ISO 8601 in UTC). Without
-msg timestamp=on there is no prefix.
"""
import datetime
import re

LINE_RE = re.compile(r"^(?:\d+@(?P<epoch>\d+\.\d+):|(?P<iso>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)Z )?"
                     r"(?P<name>\w+)(?: (?P<detail>.*)|$)")


def parse(line, prefix="irdma_sim_"):
    """(host time in seconds since the epoch or None, event name, detail) of a trace line whose
    event name starts with @prefix, else None."""
    m = LINE_RE.match(line.rstrip("\n"))
    if not m or not m.group("name").startswith(prefix):
        return None
    t = None
    if m.group("epoch"):
        t = float(m.group("epoch"))
    elif m.group("iso"):
        t = datetime.datetime.strptime(m.group("iso"), "%Y-%m-%dT%H:%M:%S.%f").replace(
            tzinfo=datetime.timezone.utc).timestamp()
    return t, m.group("name"), m.group("detail") or ""
