"""M/M/1 queue in SimPy, the comparison point for bench/kernel.bench.ts (docs/performance.md).

The same model as the kernel's: Poisson arrivals (rate LAMBDA), one server with exponential
service (rate MU), FIFO, `customers` arrivals and then run until the system is empty. Time is in
service-time units. Printed as one JSON object on stdout:
  L   time-average number in system over [0, end]    (theory rho / (1 - rho))
  W   mean time in system per customer                (theory 1 / (MU - LAMBDA))
  Wq  mean wait in queue per customer                 (theory rho / (MU - LAMBDA))
and `batches`: the same three over each of BATCHES groups of consecutive departures, for a
batch-means standard error. `events` is the number of events SimPy scheduled (its event ids).
`wall` and `cpu` are the seconds spent in env.run (time.perf_counter, time.process_time).

Two variants:
  process   SimPy as its documentation writes it: a source process, one process per customer,
            the server a `Resource` (request / timeout / release).
  callback  the fastest SimPy allows: no processes, `Timeout` events with callbacks that do the
            bookkeeping, i.e. event scheduling on SimPy's event queue.

  python3 bench/simpy/mm1.py --customers 200000 --seed 1 --variant process
"""
import argparse
from collections import deque
import json
import random
import time

import simpy

LAMBDA = 0.9
MU = 1.0
BATCHES = 20


class Stats:
    def __init__(self, customers):
        self.in_system = 0
        self.last = 0.0
        self.area = 0.0
        self.done = 0
        self.sojourn = 0.0
        self.wait = 0.0
        self.batch_size = max(1, customers // BATCHES)
        self.mark = (0.0, 0.0, 0.0, 0.0)  # time, area, sojourn, wait at the last batch boundary
        self.batches = []

    def change(self, now, delta):
        self.area += self.in_system * (now - self.last)
        self.last = now
        self.in_system += delta

    def depart(self, now, sojourn, wait):
        self.change(now, -1)
        self.done += 1
        self.sojourn += sojourn
        self.wait += wait
        if self.done % self.batch_size == 0:
            t0, a0, s0, w0 = self.mark
            n = self.batch_size
            self.batches.append({'L': (self.area - a0) / (now - t0), 'W': (self.sojourn - s0) / n, 'Wq': (self.wait - w0) / n})
            self.mark = (now, self.area, self.sojourn, self.wait)


def run_process(env, customers, arrivals, services, stats):
    server = simpy.Resource(env, capacity=1)

    def customer(env):
        arrive = env.now
        stats.change(arrive, +1)
        with server.request() as req:
            yield req
            start = env.now
            yield env.timeout(services.expovariate(MU))
        stats.depart(env.now, env.now - arrive, start - arrive)

    def source(env):
        for _ in range(customers):
            yield env.timeout(arrivals.expovariate(LAMBDA))
            env.process(customer(env))

    env.process(source(env))
    env.run()


def run_callback(env, customers, arrivals, services, stats):
    queue = deque()  # arrival times of the customers waiting, FIFO
    state = {'arrived': 0, 'busy': False, 'current': 0.0, 'start': 0.0}

    def start_service(now, arrived_at):
        state['busy'] = True
        state['current'] = arrived_at
        state['start'] = now
        env.timeout(services.expovariate(MU)).callbacks.append(departure)

    def arrival(_event):
        now = env.now
        stats.change(now, +1)
        state['arrived'] += 1
        if state['busy']:
            queue.append(now)
        else:
            start_service(now, now)
        if state['arrived'] < customers:
            env.timeout(arrivals.expovariate(LAMBDA)).callbacks.append(arrival)

    def departure(_event):
        now = env.now
        stats.depart(now, now - state['current'], state['start'] - state['current'])
        state['busy'] = False
        if queue:
            start_service(now, queue.popleft())

    env.timeout(arrivals.expovariate(LAMBDA)).callbacks.append(arrival)
    env.run()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--customers', type=int, default=200_000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--variant', choices=['process', 'callback'], default='process')
    a = ap.parse_args()
    arrivals = random.Random(a.seed * 2 + 0)
    services = random.Random(a.seed * 2 + 1)
    env = simpy.Environment()
    stats = Stats(a.customers)
    t0 = time.perf_counter()
    c0 = time.process_time()
    (run_process if a.variant == 'process' else run_callback)(env, a.customers, arrivals, services, stats)
    cpu = time.process_time() - c0
    wall = time.perf_counter() - t0
    print(json.dumps({
        'variant': a.variant,
        'customers': stats.done,
        'simTime': env.now,
        'wall': wall,
        'cpu': cpu,
        # SimPy 3's event-id counter (Environment._eid): the number of events it scheduled.
        'events': next(env._eid),
        'L': stats.area / env.now,
        'W': stats.sojourn / stats.done,
        'Wq': stats.wait / stats.done,
        'batches': stats.batches,
        'simpy': simpy.__version__,
    }))


if __name__ == '__main__':
    main()
