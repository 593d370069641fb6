/**
 * The flooding peer of flood.fault.ts (issue 16 item 3), a process of its own:
 *
 *   node --import tsx test/faults/flooder.ts PORT SOURCE_ID SWITCH_ID
 *
 * Connects to the switch port listening on 127.0.0.1:PORT as a riodp link peer (HELLO first,
 * src/net/connect.ts), prints `flooding` once the link is open, then writes MAINTENANCE word reads
 * of the switch's registers (hop_count 0, SWITCH_ID, 19-octet frames) 1000 frames at a time for as
 * long as the socket takes them, again on each drain: as fast as the switch reads them. Responses
 * are decoded and counted. On SIGTERM it stops, prints one JSON line `{"sent":N,"answered":N,
 * "seconds":S}` and exits 0.
 */
import { connect } from '../../src/net/connect.ts';
import { encodeFrame, frameLength, packetFrame } from '../../src/wire/frame.ts';
import { maintenanceReadRequest } from '../../src/wire/type8-build.ts';

const [port, source, target] = process.argv.slice(2).map(Number);
if (port === undefined || source === undefined || target === undefined || [port, source, target].some((n) => !Number.isInteger(n))) {
  console.error('usage: flooder.ts PORT SOURCE_ID SWITCH_ID');
  process.exit(2);
}

const BATCH = 1000;
let sent = 0;
let answered = 0;
let going = true;

const link = await connect({ host: '127.0.0.1', port }, {
  onPacket: (p) => {
    if (p.ftype === 8) answered++;
  },
  onClose: (c) => {
    if (going) {
      console.error(`flooder: link closed: ${JSON.stringify(c)}`);
      process.exit(1);
    }
  },
});
const socket = link.socket;
const frame = packetFrame(maintenanceReadRequest({ tt: 1, destinationID: target, sourceID: source, hopCount: 0, srcTID: 1, byteOffset: 0, byteCount: 4 }));
const len = frameLength(frame);
const chunk = new Uint8Array(len * BATCH);
for (let i = 0; i < BATCH; i++) encodeFrame(frame, chunk, i * len);

const started = performance.now();
const pump = (): void => {
  while (going && !socket.destroyed) {
    sent += BATCH;
    if (!socket.write(chunk)) return;
  }
};
socket.on('drain', pump);
console.log('flooding');
pump();

process.on('SIGTERM', () => {
  going = false;
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ sent, answered, seconds: Number(seconds.toFixed(3)) }));
  link.destroy();
  process.exit(0);
});
