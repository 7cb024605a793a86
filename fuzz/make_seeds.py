#!/usr/bin/env python3
"""Writes the seed corpora of fuzz/corpus/ made of bytes (protocol frames,
greetings, operation + text). The IDL and YAML seeds are copies of
stubgen/testdata/*.idl, runtime/config/testdata/*.yaml and the YAML blocks
of docs/.

The agent protocol seeds are frames laid out as docs/agent-protocol.md
says; the first byte of each seed is the fuzzer's own (frame limit), the
second the slice size. Run from anywhere; rewrites the files it owns."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def put(name, target, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def s(text):
    b = text.encode() if isinstance(text, str) else text
    return struct.pack("<I", len(b)) + b


def frame(mtype, payload):
    return struct.pack("<IB", 1 + len(payload), mtype) + payload


def hello(major=1):
    p = s("GSRTAGNT") + struct.pack("<HH", major, 0) + s("gsrt-agent 0.1.0")
    p += s("n1") + s("/tmp/gsrt-work") + struct.pack("<IIQQdI", 2, 4, 1 << 33,
                                                    1 << 32, 0.5, 4242)
    return frame(1, p)


def run_job():
    p = struct.pack("<QI", 7, 3) + s("multiply") + struct.pack("<I", 2)
    p += b"\x00" + s("a.dat") + s("/m/a.dat") + s("in/a.dat")
    p += b"\x02" + s("2.5") + s("") + s("")
    p += s("/opt/app/matmul-worker") + struct.pack("<d", 30.0)
    return frame(2, p)


def job_finished(tag):
    p = struct.pack("<Qddd", 7, 1.0, 2.0, 3.0) + bytes([tag])
    if tag == 0:
        p += struct.pack("<i", 0) + s("0x1p+1\n") + struct.pack(
            "<ddqQQ", 0.1, 0.01, 2048, 10, 20) + s("") + s("")
    elif tag == 1:
        p += s("host lost")
    elif tag == 2:
        p += struct.pack("<d", 5.0)
    return frame(6, p)


protocol = {
    "hello": hello(),
    "hello_major2": hello(2),
    "run_job": run_job(),
    "cancel": frame(3, struct.pack("<Q", 7)),
    "heartbeat": frame(4, struct.pack("<Q", 1)),
    "heartbeat_ack": frame(5, struct.pack("<QId", 1, 2, 0.25)),
    "finished_exited": job_finished(0),
    "finished_failed": job_finished(1),
    "finished_timeout": job_finished(2),
    "finished_cancelled": job_finished(3),
    "put": frame(7, struct.pack("<Q", 1) + s("in/a.dat") + struct.pack("<Q", 3))
    + frame(8, struct.pack("<Q", 1) + s("abc"))
    + frame(9, struct.pack("<QQQ", 1, 3, 12345)),
    "put_done": frame(10, struct.pack("<Q", 1)),
    "get": frame(11, struct.pack("<Q", 2) + s("out/c.dat"))
    + frame(12, struct.pack("<Q", 2) + s("xyz"))
    + frame(13, struct.pack("<QQQ", 2, 3, 999)),
    "remove_escape": frame(14, s("../../etc/passwd")),
    "remove": frame(14, s("in/a.dat")),
    "error": frame(15, struct.pack("<QB", 0, 3) + s("no space left")),
    "shutdown": frame(16, b""),
    "banner": b"Welcome to the login node\r\n",
}
for name, data in protocol.items():
    put(name, "agent_protocol_fuzzer", b"\x20\x10" + data)

token = "a" * 64
greetings = {
    "good": b"\x01" + f"GSRT-PILOT/1 {token} pilot-3".encode(),
    "wrong_token": b"\x01" + f"GSRT-PILOT/1 {'b' * 64} pilot-3".encode(),
    "bad_name": b"\x01" + f"GSRT-PILOT/1 {token} pi lot".encode(),
    "own_token": b"\x00tok\x00GSRT-PILOT/1 tok p.1",
    "old_version": b"\x01" + f"GSRT-PILOT/0 {token} p".encode(),
}
for name, data in greetings.items():
    put(name, "pilot_greeting_fuzzer", data)

# Operation bytes: return type, parameter count, one byte per parameter
# (type = 1 + b % 9, dir = (b / 9) % 3), then the text.
def op(ret, params):
    return bytes([ret, len(params)] + params)

FILE_IN, STRING_IN, INT_INOUT, DOUBLE_OUT = 0, 1, 5 + 18, 8 + 9
worker = {
    "matmul": op(0, [FILE_IN, FILE_IN, 0 + 18]) + b"a.dat\0b.dat\0c.dat",
    "scalars": op(4, [INT_INOUT, DOUBLE_OUT, STRING_IN]) + b"42\0-\0hello",
    "floats": op(7, [7, 8]) + b"0x1.8p+1\0-0x1p-1074",
    "chars": op(1, [2, 3, 4]) + b"65\0" + b"1\0" + b"-32768",
    "bad": op(0, [5]) + b"12abc",
}
for name, data in worker.items():
    put(name, "worker_args_fuzzer", data)
results = {
    "int_and_double": op(4, [INT_INOUT, DOUBLE_OUT]) + b"7\n-12\n0x1.8p+1\n",
    "void": op(0, [FILE_IN]) + b"",
    "missing": op(6, [DOUBLE_OUT]) + b"3\n",
    "bool": op(2, [3 + 9]) + b"1\n0\n",
    "garbage": op(5, []) + b"nan\n",
}
for name, data in results.items():
    put(name, "result_file_fuzzer", data)
