"""riodp as the reference model of a Python testbench (cocotb scoreboards and the like).

A client of ``riodp serve`` (docs/serve.md), standard library only. It starts the server as a
child process and talks to it over pipes, or connects to one started with ``--listen``::

    from riodp_ref import Riodp

    with Riodp() as ref:                              # runs `npx riodp serve`
        ref.decode("serial", "001a0001ffff0000deaf9903")["info"]          # 57007
        ref.encode("serial", {"ftype": 10, ...})                           # '001a...'
        ep = ref.engine("ccp-endpoint", {"orphanPeriod": 5000})
        ep.handle({"kind": "ccp", "packet": "01c712340004b0f2"}, time=0)   # riodp model's lines
        ep.snapshot()["state"]

Every error the server answers (a bad config, a bad input line, a CRC error, time going
backwards, ...) is raised as ``RiodpError`` with the server's message and error code. Requests
may be pipelined: ``submit`` queues one and returns a ``Pending`` whose ``result()`` sends what is
queued and waits for its response; responses come back in request order.
"""

import json
import os
import shlex
import socket
import subprocess
import threading

__all__ = ["Riodp", "Engine", "Pending", "RiodpError", "default_command"]

PROTOCOL = "riodp-serve/1"


class RiodpError(Exception):
    """An error response of riodp serve: ``code`` (docs/serve.md "Errors"), the server's message,
    and the whole ``response`` (with ``wire`` or ``errors`` details when the server gives them)."""

    def __init__(self, message, code=None, response=None):
        super().__init__(message)
        self.code = code
        self.response = response or {}


def default_command():
    """The command that starts the server: $RIODP_SERVE_COMMAND (a JSON list, or a shell-style
    string), else ``npx riodp serve``."""
    env = os.environ.get("RIODP_SERVE_COMMAND")
    if env:
        return json.loads(env) if env.lstrip().startswith("[") else shlex.split(env)
    return ["npx", "riodp", "serve"]


def _hex(data):
    if isinstance(data, str):
        return data
    return bytes(data).hex()


class Pending:
    """A request sent and not yet answered; ``result()`` waits for its response."""

    def __init__(self, client, request_id):
        self._client = client
        self.id = request_id

    def result(self):
        """The response's result fields; raises RiodpError for an error response."""
        return self._client._result(self.id)


class Riodp:
    """One client of riodp serve: its engine instances are its own.

    ``command``: the server command (a list, or a string split like a shell), started with
    pipes; default ``default_command()``. ``address``: instead, connect to a server started with
    ``--listen`` (``"127.0.0.1:PORT"``, ``"[::1]:PORT"`` or a Unix socket path), ``timeout`` seconds
    at most. ``cwd``, ``env`` and ``stderr`` are passed to the child process (its stderr goes to this
    process's by default).
    """

    def __init__(self, command=None, address=None, cwd=None, env=None, stderr=None, timeout=None):
        self._next_id = 0
        self._answers = {}
        self._stray = None
        self._eof = False
        self._broken = None
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._proc = None
        self._sock = None
        self._closed = False
        if address is not None:
            self._sock = _connect(address, timeout)
            self._reader = self._sock.makefile("r", encoding="utf-8", newline="\n")
            self._writer = self._sock.makefile("w", encoding="utf-8", newline="\n")
        else:
            if command is None:
                command = default_command()
            elif isinstance(command, str):
                command = shlex.split(command)
            self._proc = subprocess.Popen(
                list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                cwd=cwd, env=env, text=True, encoding="utf-8", bufsize=1 << 16,
            )
            self._reader = self._proc.stdout
            self._writer = self._proc.stdin
        # Responses are read as they come, whatever the caller waits for: a client that queues
        # many requests before reading never blocks the server on a full pipe (and itself on the
        # server's then unread input).
        self._thread = threading.Thread(target=self._read_responses, name="riodp-serve-reader", daemon=True)
        self._thread.start()
        try:
            hello = self.request("ping")
            if hello.get("protocol") != PROTOCOL:
                raise RiodpError("the server speaks %r, not %s" % (hello.get("protocol"), PROTOCOL), "protocol", hello)
        except BaseException:
            self.close()
            raise
        self.version = hello.get("version")
        self.engines = list(hello.get("engines", []))

    # -- requests ------------------------------------------------------------------------------

    def submit(self, op, **fields):
        """Queues one request (pipelining); returns its Pending. Queued requests are sent together by
        ``flush()`` or by the first ``result()`` awaited."""
        if self._closed:
            raise RiodpError("the client is closed", "closed")
        with self._write_lock:
            self._next_id += 1
            request_id = self._next_id
            line = json.dumps(dict(fields, id=request_id, op=op), separators=(",", ":"))
            try:
                # Flushed when a result is awaited: requests submitted together go in one write.
                self._writer.write(line + "\n")
            except (BrokenPipeError, OSError) as e:
                raise RiodpError("the server went away: %s" % e, "closed") from None
        return Pending(self, request_id)

    def flush(self):
        """Sends the requests submitted so far (``result()`` does it too)."""
        with self._write_lock:
            self._flush()

    def _flush(self):
        try:
            self._writer.flush()
        except (BrokenPipeError, OSError) as e:
            raise RiodpError("the server went away: %s" % e, "closed") from None

    def request(self, op, **fields):
        """Sends one request and waits for its response; returns the result fields."""
        return self.submit(op, **fields).result()

    def _read_responses(self):
        line = ""
        try:
            for line in self._reader:
                response = json.loads(line)
                with self._cond:
                    if response.get("id") is None:
                        self._stray = response
                    else:
                        self._answers[response["id"]] = response
                    self._cond.notify_all()
        except ValueError:
            self._broken = "the server sent a line that is not JSON: %r" % line[:200]
        except OSError:
            pass
        with self._cond:
            self._eof = True
            self._cond.notify_all()

    def _result(self, request_id):
        with self._cond:
            waiting = request_id not in self._answers
        if waiting:
            self.flush()
        with self._cond:
            while request_id not in self._answers:
                if self._stray is not None:
                    # An error the server could not tie to a request: ours are all well-formed.
                    stray, self._stray = self._stray, None
                    raise RiodpError(stray.get("error", "error"), stray.get("code"), stray)
                if self._eof:
                    raise RiodpError((self._broken or "the server closed the connection") + self._exit_note(), "closed")
                self._cond.wait()
            response = self._answers.pop(request_id)
        if not response.get("ok"):
            raise RiodpError(response.get("error", "error"), response.get("code"), response)
        return {k: v for k, v in response.items() if k not in ("id", "ok")}

    def _exit_note(self):
        if self._proc is None:
            return ""
        code = self._proc.poll()
        return "" if code is None else " (its exit code %d)" % code

    # -- codecs ----------------------------------------------------------------------------------

    def decode(self, layer, data, **options):
        """`riodp decode --json` of one item: ``data`` as bytes or hex. Options as riodp decode's,
        camelCase: link, voqFormat, voqGroupSize, lenient."""
        return self.request("decode", layer=layer, hex=_hex(data), **options)["value"]

    def encode(self, layer, value, **options):
        """`riodp encode` of one decode --json object: the hex string."""
        return self.request("encode", layer=layer, value=value, **options)["hex"]

    def encode_bytes(self, layer, value, **options):
        """As ``encode``, as bytes."""
        return bytes.fromhex(self.encode(layer, value, **options))

    # -- engines ---------------------------------------------------------------------------------

    def engine(self, kind, config=None, name=None, lenient=False, max_expiries=None):
        """A new instance of a `riodp model` engine (``kind``: e.g. "congestion-point") with its
        config (a dict, riodp model's config file as JSON)."""
        if name is None:
            name = "%s-%d" % (kind, self._next_id + 1)
        fields = {"instance": name, "engine": kind, "config": config or {}}
        if lenient:
            fields["lenient"] = True
        if max_expiries is not None:
            fields["maxExpiries"] = max_expiries
        created = self.request("create", **fields)
        return Engine(self, name, kind, created["header"])

    def describe(self, kind):
        """`riodp model <kind> --describe` as data: config fields and input kinds."""
        return self.request("describe", engine=kind)

    # -- lifetime --------------------------------------------------------------------------------

    def close(self):
        """Ends the session: the server drops this client's instances; a child server exits."""
        if self._closed:
            return
        self._closed = True
        # The end of our requests ends the session; the server then ends its responses.
        for end in (self._writer.flush, self._writer.close):
            try:
                end()
            except OSError:
                pass
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        if self._proc is not None:
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._thread.join(timeout=10)
        try:
            self._reader.close()
        except OSError:
            pass
        if self._sock is not None:
            self._sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Engine:
    """One engine instance on the server. ``header`` is the line `riodp model` prints first
    (schema, engine, the effective config with every default filled in)."""

    def __init__(self, client, name, kind, header):
        self.client = client
        self.name = name
        self.kind = kind
        self.header = header
        self.config = header.get("config")

    def handle(self, input, time):
        """Gives the engine ``input`` (a dict ``{"kind": ..., ...fields}`` as a riodp model input
        line has them, without ``t``; None only advances time) at ``time`` (integer ns, never
        decreasing); returns the output lines riodp model prints for it, timers fired first."""
        return self.submit(input, time).result()["outputs"]

    def submit(self, input, time):
        """As ``handle`` without waiting: a Pending whose ``result()["outputs"]`` are the lines."""
        fields = {"instance": self.name, "t": time}
        if input is not None:
            fields["input"] = input
        return self.client.submit("input", **fields)

    def advance(self, time):
        """Lets time pass to ``time``: the outputs of the timers that fire."""
        return self.handle(None, time)

    def snapshot(self):
        """``{"t", "state", "counters", "pending"}`` now; no time passes."""
        return self.client.request("snapshot", instance=self.name)

    def counters(self):
        return self.client.request("counters", instance=self.name)["counters"]

    def close(self, until=None):
        """Deletes the instance; returns riodp model's last lines (timers due up to ``until``,
        then the end line)."""
        fields = {"instance": self.name}
        if until is not None:
            fields["until"] = until
        return self.client.request("delete", **fields)["outputs"]


def _connect(address, timeout):
    """A connection to ``address``; ``timeout`` bounds the connecting only (answers may take long)."""
    host, sep, port = address.rpartition(":")
    if sep and port.isdigit() and host:
        host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
        s = socket.create_connection((host, int(port)), timeout=timeout)
    else:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(timeout)
        try:
            s.connect(address)
        except OSError:
            s.close()
            raise
    s.settimeout(None)
    return s
