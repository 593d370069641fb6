import { FabricBuilder } from './builder.ts';
import { MAX_SWITCH_PORTS, checkHosts, checkPorts, param } from './limits.ts';
import type { Fabric } from './types.ts';

/**
 * Issue 7 §2 "2-D mesh of switches": width × height switches `m<x>.<y>` (index y·width + x),
 * each with H hosts on ports 0 … H − 1 (host IDs index·H …) and its neighbours on ports H (+x),
 * H + 1 (−x), H + 2 (+y) and H + 3 (−y); a switch on an edge leaves the missing neighbour's port
 * unused. Dimension-order routing: x first, then y (deadlock-free on a mesh, Dally & Seitz 1987).
 * A mesh of height 1 is a chain of switches in series.
 */
export interface MeshSpec {
  readonly kind: 'mesh';
  readonly width: number;
  readonly height: number;
  readonly hostsPerSwitch: number;
}

export function mesh(spec: MeshSpec): Fabric {
  const width = param(spec.width, 1, 4096, 'width');
  const height = param(spec.height, 1, 4096, 'height');
  const h = param(spec.hostsPerSwitch, 1, MAX_SWITCH_PORTS, 'hostsPerSwitch');
  checkPorts(h + 4, 'hostsPerSwitch + 4');
  checkHosts(width * height * h, 'width × height × hostsPerSwitch');
  if (width * height * h < 2) throw new RangeError('topology: width × height × hostsPerSwitch must be at least 2');
  const b = new FabricBuilder();
  const index = (x: number, y: number): number => y * width + x;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) b.addSwitch(`m${x}.${y}`, h + 4);
  const count = width * height;
  for (let s = 0; s < count; s++) for (let p = 0; p < h; p++) b.addHost(s, p);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x + 1 < width) b.connect(index(x, y), h, index(x + 1, y), h + 1);
      if (y + 1 < height) b.connect(index(x, y), h + 2, index(x, y + 1), h + 3);
    }
  }
  for (let d = 0; d < count * h; d++) {
    const home = Math.floor(d / h);
    const dx = home % width;
    const dy = Math.floor(home / width);
    for (let s = 0; s < count; s++) {
      const x = s % width;
      const y = Math.floor(s / width);
      const port = dx > x ? h : dx < x ? h + 1 : dy > y ? h + 2 : dy < y ? h + 3 : d % h;
      b.route(s, d, port);
    }
  }
  return b.finish(`mesh ${width}x${height}, ${h} hosts per switch`);
}
