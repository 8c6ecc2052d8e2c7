"""A minimal QMP client: the scripts' hand on a running QEMU's monitor (scripts/run-guest.py,
scripts/faultctl.py)."""
import collections
import json
import socket
import time


class Qmp:
    """A connection to QEMU's QMP socket at @path, opened at the first command."""

    def __init__(self, path):
        self.path = path
        self.timeout = None                         # seconds a reply may take (set_timeout)
        self.sock = None
        self.events = collections.deque(maxlen=64)  # events read while waiting for a reply

    def _connect(self):
        for _ in range(100):
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(self.path)
                self.sock.settimeout(self.timeout)
                break
            except OSError:
                self.sock = None
                time.sleep(0.05)
        if not self.sock:
            raise RuntimeError(f"cannot connect to QMP at {self.path}")
        self.rfile = self.sock.makefile("r")
        json.loads(self.rfile.readline())          # greeting
        self.execute("qmp_capabilities")

    def set_timeout(self, seconds):
        """Replies may take @seconds from now on (None: no limit)."""
        self.timeout = seconds
        if self.sock:
            self.sock.settimeout(seconds)

    def execute(self, cmd, **args):
        if not self.sock and cmd != "qmp_capabilities":
            self._connect()
        msg = {"execute": cmd}
        if args:
            msg["arguments"] = args
        self.sock.sendall((json.dumps(msg) + "\n").encode())
        while True:
            reply = json.loads(self.rfile.readline())
            if "return" in reply or "error" in reply:
                return reply
            if "event" in reply:
                self.events.append(reply["event"])

    def wait_event(self, name):
        """Until QEMU has sent the event @name (since the last wait for it)."""
        while name not in self.events:
            line = self.rfile.readline()
            if not line:
                raise RuntimeError(f"QMP closed before the event {name}")
            reply = json.loads(line)
            if "event" in reply:
                self.events.append(reply["event"])
        self.events.remove(name)
