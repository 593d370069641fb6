#!/usr/bin/env python3
"""A cocotb-style scoreboard with riodp as the reference model, in plain Python (no simulator).

The device under test is a Part 10 data streaming source: it cuts each PDU into Type 9 segments
(start, continuation, end, or one single segment; MTU 32) and puts them on the link as LP-Serial
packets. Here a Python model of that RTL stands in for the simulator's monitor: ``Segmenter``
builds the segment bytes itself, header, payload, pad byte, CRC-16 and link padding. The
``buggy`` variant has one deliberate bug: the pad byte of an end or single segment with an odd
payload is not cleared but sent as the stale byte its PDU buffer holds there (left by an earlier,
longer PDU), where Part 10 Figure 4-4 says "pad=0x00". Only some PDUs show it: those whose last
segment is odd, sent after a longer PDU whose byte at that place was not zero.

For each PDU the scoreboard gives riodp's ``segmenter`` engine the same PDU, pulls every segment
from it, and compares the expected packets with the observed ones byte for byte. A mismatch is
explained by decoding the observed packet with riodp (which names the field, byte and clause it
rejects) or, if it decodes, by the fields that differ.

    python3 python/examples/scoreboard.py             # the correct DUT: no mismatch, exit 0
    python3 python/examples/scoreboard.py --buggy     # mismatches reported, exit 1

The server command is ``npx riodp serve`` unless --command or $RIODP_SERVE_COMMAND says otherwise.
"""

import argparse
import os
import random
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from riodp_ref import Riodp, RiodpError  # noqa: E402

MTU = 32
SOURCE_ID = 0x10
DEST_ID = 0x20
COS = 5
STREAM_ID = 0x1234


def crc16(data):
    """The LP-Serial CRC-16 (Part 6 §2.4.1): CCITT polynomial, initial value 0xFFFF."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


class Segmenter:
    """The DUT: a data streaming source on flow 0A (prio 0, CRF 0), Dev8 IDs, ackID 0."""

    def __init__(self, buggy=False):
        self.buggy = buggy
        # The PDU buffer: each PDU is written from its start; the bytes after it stay as they were.
        self.buffer = bytearray(1 << 16)

    def segments(self, pdu):
        self.buffer[:len(pdu)] = pdu
        chunks = [pdu[i:i + MTU] for i in range(0, len(pdu), MTU)]
        out = []
        for k, chunk in enumerate(chunks):
            first, last = k == 0, k == len(chunks) - 1
            stale = self.buffer[len(pdu)] if len(pdu) < len(self.buffer) else 0
            out.append(self._packet(chunk, first, last, len(pdu), stale if self.buggy else 0))
        return out

    def _packet(self, payload, start, end, pdu_length, pad_byte):
        odd = pad = 0
        if end:
            pad = len(payload) & 1
            # Table 4-2: O tells whether the payload, pad byte included, is an odd number of half-words.
            odd = ((len(payload) + pad) // 2) & 1
        flags = (start << 7) | (end << 6) | (odd << 1) | pad
        header = bytes([0x00, 0x09, DEST_ID, SOURCE_ID, COS, flags])
        if start:
            header += STREAM_ID.to_bytes(2, "big")
        elif end:
            header += (pdu_length & 0xFFFF).to_bytes(2, "big")
        body = header + payload + (bytes([pad_byte]) if pad else b"")
        # The CRC does not cover the ackID (the first 6 bits are taken as 0).
        crc = crc16(bytes([body[0] & 0x03]) + body[1:])
        packet = body + crc.to_bytes(2, "big")
        return packet + b"\x00" * (-len(packet) % 4)


def pdus(count, seed=1):
    """PDU lengths around the MTU and its multiples, then random ones; deterministic."""
    rng = random.Random(seed)
    lengths = [1, 2, 3, 4, 5, 31, 32, 33, 63, 64, 65, 100, 127, 128]
    lengths += [rng.randint(1, 300) for _ in range(max(0, count - len(lengths)))]
    return [bytes(rng.randrange(256) for _ in range(n)) for n in lengths[:count]]


def explain(ref, observed, expected_hex, expected_packet):
    """Why an observed packet is not the expected one: the first byte that differs, then riodp's
    verdict on the observed packet (the field, byte and clause it rejects, or the fields that differ)."""
    expected = bytes.fromhex(expected_hex)
    at = next((i for i, (a, b) in enumerate(zip(observed, expected)) if a != b), min(len(observed), len(expected)))
    first = "byte %d: %s, expected %s" % (at, observed[at:at + 1].hex() or "end", expected[at:at + 1].hex() or "end")
    try:
        got = ref.decode("serial", observed)
    except RiodpError as e:
        return "%s; riodp rejects it: %s" % (first, e)
    diffs = ["%s %r, expected %r" % (k, got.get(k), v) for k, v in expected_packet.items() if got.get(k) != v]
    return "%s; %s" % (first, "; ".join(diffs) or "the same fields")


def run_scoreboard(ref, dut, count=40):
    """Feeds every PDU to the DUT and to riodp's segmenter; returns the mismatches found."""
    model = ref.engine("segmenter", {"sourceID": SOURCE_ID, "mtu": MTU})
    mismatches = []
    for n, pdu in enumerate(pdus(count)):
        t = n * 1000
        model.handle({"kind": "pdu", "destinationID": DEST_ID, "cos": COS, "streamID": STREAM_ID,
                      "flowID": "0A", "payload": pdu.hex(), "id": n}, t)
        outputs = model.handle({"kind": "pull", "destinationID": DEST_ID, "flowID": "0A", "max": 1 << 16}, t)
        expected = [o for o in outputs if o["kind"] == "send"]
        observed = dut.segments(pdu)
        if len(observed) != len(expected):
            mismatches.append((n, len(pdu), None, "%d segments, expected %d" % (len(observed), len(expected))))
        for k, (obs, exp) in enumerate(zip(observed, expected)):
            if obs.hex() != exp["hex"]:
                mismatches.append((n, len(pdu), k, explain(ref, obs, exp["hex"], exp["packet"])))
    model.close()
    return mismatches


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--buggy", action="store_true", help="the DUT variant with the pad byte bug")
    parser.add_argument("--count", type=int, default=40, help="PDUs to send (default 40)")
    parser.add_argument("--command", help="the riodp serve command (default: $RIODP_SERVE_COMMAND, else npx riodp serve)")
    args = parser.parse_args(argv)
    with Riodp(command=shlex.split(args.command) if args.command else None) as ref:
        mismatches = run_scoreboard(ref, Segmenter(buggy=args.buggy), args.count)
    for n, length, k, why in mismatches:
        where = "PDU %d (%d bytes)" % (n, length) + ("" if k is None else ", segment %d" % k)
        print("MISMATCH %s: %s" % (where, why))
    print("%d PDUs checked against riodp's segmenter: %d mismatches" % (args.count, len(mismatches)))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
