"""Tests of the Python client of riodp serve (issue 18 item 4), standard library only.

    cd python && python3 -m unittest -v test_riodp_ref

The server command is $RIODP_SERVE_COMMAND (test/python/riodp-ref.test.ts sets it to run this
checkout), else ``npx riodp serve``; it runs in the repository root.
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "examples"))

from riodp_ref import Riodp, RiodpError, default_command  # noqa: E402
import scoreboard  # noqa: E402

DOORBELL_HEX = "001a0001ffff0000deaf9903"
DOORBELL = {"ackID": 0, "vc": 0, "crf": 0, "prio": 0, "tt": 1, "ftype": 10, "destinationID": 1,
            "sourceID": 65535, "rsrv": 0, "srcTID": 0, "info": 57007, "crc": 39171}
CCP_XOFF_0C = "01c712340004b0f2"


def start_listening(address):
    """`riodp serve --listen ADDRESS`: the process and the address it printed."""
    proc = subprocess.Popen(default_command() + ["--listen", address], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    m = re.match(r"^riodp serve: listening on (.+)$", line.rstrip("\n"))
    if m is None:
        proc.kill()
        raise AssertionError("riodp serve --listen printed %r" % line)
    return proc, m.group(1)


def stop(proc):
    proc.terminate()
    code = proc.wait(timeout=30)
    proc.stderr.close()
    return code


class SharedServer(unittest.TestCase):
    """One server over pipes for the tests that need no server of their own."""

    @classmethod
    def setUpClass(cls):
        cls.ref = Riodp(cwd=ROOT)

    @classmethod
    def tearDownClass(cls):
        cls.ref.close()


class CodecTest(SharedServer):
    def test_decode_takes_bytes_or_hex_and_answers_what_riodp_decode_json_prints(self):
        self.assertEqual(self.ref.decode("serial", bytes.fromhex(DOORBELL_HEX)), DOORBELL)
        self.assertEqual(self.ref.decode("serial", "001a0001 ffff0000 deaf9903"), DOORBELL)
        symbol = self.ref.decode("symbol", "8229c1140779")
        self.assertEqual(self.ref.encode("symbol", symbol), "8229c1140779")

    def test_encode_answers_hex_and_bytes(self):
        self.assertEqual(self.ref.encode("serial", DOORBELL), DOORBELL_HEX)
        self.assertEqual(self.ref.encode_bytes("serial", DOORBELL), bytes.fromhex(DOORBELL_HEX))

    def test_a_decoder_error_raises_RiodpError_with_the_servers_message(self):
        with self.assertRaises(RiodpError) as cm:
            self.ref.decode("serial", "001a0001ffff0000deaf9904")
        self.assertEqual(cm.exception.code, "wire")
        self.assertEqual(str(cm.exception), "crc at byte 10: CRC 0x9904, computed 0x9903 (Part 6 §2.4.1)")
        self.assertEqual(cm.exception.response["wire"]["field"], "crc")
        with self.assertRaises(RiodpError) as cm:
            self.ref.decode("phy", DOORBELL_HEX)
        self.assertEqual(cm.exception.code, "request")
        self.assertIn("(layer)", str(cm.exception))

    def test_pipelined_requests_are_answered_in_order(self):
        pending = [self.ref.submit("decode", hex=DOORBELL_HEX if i % 3 else "00") for i in range(3000)]
        for i, p in enumerate(pending):
            if i % 3:
                self.assertEqual(p.result()["value"]["info"], 57007)
            else:
                with self.assertRaises(RiodpError):
                    p.result()


class EngineTest(SharedServer):
    def test_handle_answers_riodp_models_output_lines_and_timers_fire_as_time_passes(self):
        ep = self.ref.engine("ccp-endpoint", {"orphanPeriod": 5000})
        self.assertEqual(ep.config["orphanPeriod"], 5000)
        self.assertEqual(ep.config["counterBits"], 8)
        out = ep.handle({"kind": "ccp", "packet": CCP_XOFF_0C}, 0)
        self.assertEqual([o["flowID"] for o in out if o["kind"] == "flow"], ["0A", "0B", "0C"])
        self.assertEqual(out[-1], {"t": 0, "kind": "timer", "name": "orphan", "at": 5000})
        snap = ep.snapshot()
        self.assertEqual(snap["pending"], [{"name": "orphan", "at": 5000}])
        self.assertEqual(ep.counters()["xoff"], 1)
        fired = ep.advance(6000)
        self.assertEqual(fired[0], {"t": 5000, "kind": "expired", "name": "orphan"})
        end = ep.close(until=7000)
        self.assertEqual(end[-1]["kind"], "end")
        self.assertEqual(end[-1]["t"], 7000)
        with self.assertRaises(RiodpError) as cm:
            ep.snapshot()
        self.assertEqual(cm.exception.code, "instance")

    def test_time_going_backwards_and_a_bad_input_raise_and_change_nothing(self):
        ep = self.ref.engine("ccp-endpoint")
        ep.advance(100)
        with self.assertRaises(RiodpError) as cm:
            ep.handle({"kind": "ccp", "packet": CCP_XOFF_0C}, 50)
        self.assertEqual(cm.exception.code, "input")
        self.assertEqual(str(cm.exception), "time 50 is before the current time 100: time must not decrease (t)")
        with self.assertRaises(RiodpError) as cm:
            ep.handle({"kind": "ccp", "packet": "01c712340004b0f3"}, 200)
        self.assertIn("(input.packet.crc)", str(cm.exception))
        self.assertEqual(ep.counters()["xoff"], 0)
        self.assertEqual(ep.snapshot()["t"], 100)
        ep.close()

    def test_a_bad_config_raises_with_every_error(self):
        with self.assertRaises(RiodpError) as cm:
            self.ref.engine("congestion-point", {"role": "switch", "watermark": 3})
        self.assertEqual(cm.exception.code, "config")
        self.assertIn("config.watermark: unknown field", cm.exception.response["errors"])

    def test_describe_lists_the_config_fields(self):
        names = [f["name"] for f in self.ref.describe("arb-rx")["fields"]]
        self.assertIn("resources", names)


class ScoreboardTest(SharedServer):
    def test_the_correct_dut_matches_riodps_segmenter(self):
        self.assertEqual(scoreboard.run_scoreboard(self.ref, scoreboard.Segmenter(buggy=False)), [])

    def test_the_buggy_dut_is_caught_at_every_odd_last_segment_with_a_stale_pad_byte_and_nowhere_else(self):
        mismatches = scoreboard.run_scoreboard(self.ref, scoreboard.Segmenter(buggy=True))
        self.assertGreater(len(mismatches), 0)
        # Where the bug shows: an odd last segment whose buffer byte after the PDU was not zero.
        buffer = bytearray(1 << 16)
        expected = []
        for n, pdu in enumerate(scoreboard.pdus(40)):
            buffer[:len(pdu)] = pdu
            if len(pdu) % scoreboard.MTU % 2 == 1 and buffer[len(pdu)] != 0:
                expected.append(n)
        self.assertEqual([m[0] for m in mismatches], expected)
        for _, _, segment, why in mismatches:
            self.assertIsNotNone(segment)
            self.assertIn("the pad byte shall be 0x00 (Part 10 §4.2", why)


class LifetimeTest(unittest.TestCase):
    def test_closing_the_client_ends_the_server_it_started(self):
        ref = Riodp(cwd=ROOT)
        proc = ref._proc
        ref.close()
        self.assertEqual(proc.returncode, 0)
        with self.assertRaises(RiodpError) as cm:
            ref.decode("serial", DOORBELL_HEX)
        self.assertEqual(cm.exception.code, "closed")

    def test_a_command_that_is_not_riodp_serve_fails_clearly(self):
        with self.assertRaises(RiodpError) as cm:
            Riodp(command=[sys.executable, "-c", "print('hello')"])
        self.assertEqual(cm.exception.code, "closed")
        self.assertIn("the server sent a line that is not JSON: 'hello", str(cm.exception))


class ListenTest(unittest.TestCase):
    def test_two_clients_over_tcp_each_with_instances_of_their_own(self):
        proc, address = start_listening("127.0.0.1:0")
        try:
            self.assertRegex(address, r"^127\.0\.0\.1:\d+$")
            a = Riodp(address=address, timeout=60)
            b = Riodp(address=address, timeout=60)
            ea = a.engine("ccp-endpoint", {"orphanPeriod": 5000}, name="ep")
            eb = b.engine("ccp-endpoint", {"orphanPeriod": 7000}, name="ep")
            ea.handle({"kind": "ccp", "packet": CCP_XOFF_0C}, 0)
            eb.handle({"kind": "ccp", "packet": CCP_XOFF_0C}, 0)
            self.assertEqual(ea.snapshot()["pending"], [{"name": "orphan", "at": 5000}])
            self.assertEqual(eb.snapshot()["pending"], [{"name": "orphan", "at": 7000}])
            self.assertEqual(a.decode("serial", DOORBELL_HEX), b.decode("serial", DOORBELL_HEX))
            a.close()
            b.close()
        finally:
            self.assertEqual(stop(proc), 0)

    @unittest.skipUnless(hasattr(os, "fork"), "Unix sockets")
    def test_a_client_over_a_unix_socket(self):
        path = os.path.join(tempfile.mkdtemp(prefix="riodp-ref-"), "serve.sock")
        proc, address = start_listening(path)
        try:
            self.assertEqual(address, path)
            with Riodp(address=path, timeout=60) as ref:
                self.assertEqual(ref.encode("serial", DOORBELL), DOORBELL_HEX)
        finally:
            self.assertEqual(stop(proc), 0)
        self.assertFalse(os.path.exists(path))


if __name__ == "__main__":
    unittest.main()
