"""N x N output-queued switch in SimPy, the comparison point for bench/kernel.bench.ts.

The same model as the kernel's: N inputs, each with Bernoulli arrivals of probability LOAD per
slot (the first in slot G - 1, then G slots apart, G geometric with mean 1 / LOAD), each packet
to an output chosen uniformly; every output a FIFO queue served at one packet per SERVICE slots.
Runs `slots` slots. Printed as one JSON object: `packets` delivered, `wait` the mean wait in queue
in slots (Karol, Hluchyj & Morgan 1987: ((N-1)/N) * p / (2(1-p)) for SERVICE = 1), `batches` of
the mean wait over consecutive groups of departures, `events` SimPy scheduled.
`wall` and `cpu` are the seconds spent in env.run (time.perf_counter, time.process_time).

Variants as in mm1.py: `process` (input and output processes, outputs fed through a `Store`) and
`callback` (Timeout events with callbacks, no processes).

  python3 bench/simpy/switch.py --slots 100000 --seed 1 --variant process
"""
import argparse
from collections import deque
import json
import math
import random
import time

import simpy

N = 8
LOAD = 0.8
SERVICE = 1
BATCHES = 20


def geometric(rng, log1mp):
    """Trials up to and including the first success (1, 2, ...), by inversion."""
    return 1 + math.floor(math.log(1.0 - rng.random()) / log1mp)


class Stats:
    def __init__(self, expected):
        self.packets = 0
        self.wait = 0.0
        self.batch_size = max(1, expected // BATCHES)
        self.mark = 0.0
        self.batches = []

    def served(self, wait):
        self.packets += 1
        self.wait += wait
        if self.packets % self.batch_size == 0:
            self.batches.append((self.wait - self.mark) / self.batch_size)
            self.mark = self.wait


def run_process(env, slots, rngs, stats):
    log1mp = math.log(1.0 - LOAD)
    stores = [simpy.Store(env) for _ in range(N)]

    def source(env, rng):
        yield env.timeout(geometric(rng, log1mp) - 1)
        while env.now < slots:
            stores[rng.randrange(N)].put(env.now)
            yield env.timeout(geometric(rng, log1mp))

    def output(env, store):
        while True:
            arrived = yield store.get()
            stats.served(env.now - arrived)
            yield env.timeout(SERVICE)

    for i in range(N):
        env.process(source(env, rngs[i]))
        env.process(output(env, stores[i]))
    env.run()


def run_callback(env, slots, rngs, stats):
    log1mp = math.log(1.0 - LOAD)
    queues = [deque() for _ in range(N)]
    busy = [False] * N

    def make_input(rng):
        def arrival(_event):
            now = env.now
            out = rng.randrange(N)
            if busy[out]:
                queues[out].append(now)
            else:
                start(out, now, now)
            gap = geometric(rng, log1mp)
            if now + gap < slots:
                env.timeout(gap).callbacks.append(arrival)
        return arrival

    def make_output(out):
        def departure(_event):
            q = queues[out]
            if q:
                start(out, env.now, q.popleft())
            else:
                busy[out] = False
        return departure

    departures = [make_output(o) for o in range(N)]

    def start(out, now, arrived):
        busy[out] = True
        stats.served(now - arrived)
        env.timeout(SERVICE).callbacks.append(departures[out])

    for i in range(N):
        first = geometric(rngs[i], log1mp) - 1
        if first < slots:
            env.timeout(first).callbacks.append(make_input(rngs[i]))
    env.run()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--slots', type=int, default=100_000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--variant', choices=['process', 'callback'], default='process')
    a = ap.parse_args()
    rngs = [random.Random(a.seed * 1000 + i) for i in range(N)]
    env = simpy.Environment()
    stats = Stats(int(a.slots * N * LOAD))
    t0 = time.perf_counter()
    c0 = time.process_time()
    (run_process if a.variant == 'process' else run_callback)(env, a.slots, rngs, stats)
    cpu = time.process_time() - c0
    wall = time.perf_counter() - t0
    print(json.dumps({
        'variant': a.variant,
        'slots': a.slots,
        'packets': stats.packets,
        'wait': stats.wait / stats.packets,
        'wall': wall,
        'cpu': cpu,
        # SimPy 3's event-id counter (Environment._eid): the number of events it scheduled.
        'events': next(env._eid),
        'batches': stats.batches,
        'simpy': simpy.__version__,
    }))


if __name__ == '__main__':
    main()
